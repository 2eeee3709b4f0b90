// Every plain YAML manifest under deploy/ is checked: Kubernetes objects against the Kubernetes OpenAPI
// schemas shipped by the kubernetes-models package (which validates each object's fields and types; it
// does not reject unknown fields, so misspelt keys are caught only where they make a required field
// missing), and the kind cluster configuration, which is not a Kubernetes object, against its known shape.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { isMap, REPO_ROOT } from './support/chart';

const DEPLOY_DIR = path.join(REPO_ROOT, 'deploy');

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}

interface Manifest {
  file: string;
  object: Record<string, unknown>;
}

const manifests: Manifest[] = yamlFiles(DEPLOY_DIR).flatMap((file) =>
  YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((document) => document.toJS() as unknown)
    .filter(isMap)
    .map((object) => ({ file: path.relative(REPO_ROOT, file), object })),
);

const isKindConfig = (object: Record<string, unknown>) =>
  String(object.apiVersion).startsWith('kind.x-k8s.io/');

/** The kubernetes-models class of an apiVersion and kind, e.g. apps/v1 Deployment. */
function modelClass(apiVersion: string, kind: string): new (data: unknown) => { validate(): void } {
  const modulePath = `kubernetes-models/${apiVersion}`;
  const exported = require(modulePath) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = exported[kind];
  if (!model) throw new Error(`kubernetes-models has no ${kind} in ${apiVersion}`);
  return model;
}

describe('plain manifests under deploy/', () => {
  it('should include the kind cluster and the e2e namespace', () => {
    const kinds = manifests.map(({ object }) => `${object.apiVersion} ${object.kind}`);
    expect(kinds).toEqual(expect.arrayContaining(['kind.x-k8s.io/v1alpha4 Cluster', 'v1 Namespace']));
  });

  it.each(
    manifests.filter(({ object }) => !isKindConfig(object)).map((m) => [`${m.file} ${m.object.kind}`, m]),
  )('%s should validate against the Kubernetes schema', (_name, { object }) => {
    const Model = modelClass(String(object.apiVersion), String(object.kind));
    expect(() => new Model(object).validate()).not.toThrow();
  });

  it.each(manifests.filter(({ object }) => isKindConfig(object)).map((m) => [m.file, m]))(
    '%s should be a kind v1alpha4 Cluster with a control plane',
    (_name, { object }) => {
      expect(object.apiVersion).toBe('kind.x-k8s.io/v1alpha4');
      expect(object.kind).toBe('Cluster');
      const allowed = ['kind', 'apiVersion', 'name', 'nodes', 'networking', 'featureGates', 'runtimeConfig'];
      expect(Object.keys(object).filter((key) => !allowed.includes(key))).toEqual([]);
      const nodes = object.nodes as { role: string }[];
      expect(nodes.every((node) => ['control-plane', 'worker'].includes(node.role))).toBe(true);
      expect(nodes.filter((node) => node.role === 'control-plane').length).toBeGreaterThanOrEqual(1);
    },
  );

  it('should reject a manifest with a wrongly typed field (the validator is live)', () => {
    const Namespace = modelClass('v1', 'Namespace');
    expect(() =>
      new Namespace({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 7 } }).validate(),
    ).toThrow();
  });
});
