// Static checks of charts/dss/templates without Helm: blocks are balanced, every .Values path exists in
// values.yaml, template names cannot collide with the subcharts', and each template (and each object of
// _component.tpl) parses as YAML once its actions are stubbed out (see stubTemplate for what that can
// and cannot find).
import path from 'node:path';
import YAML from 'yaml';
import {
  countBlockEnds,
  countBlockOpeners,
  defaultValues,
  defines,
  hasPath,
  readTemplate,
  STUB,
  stubTemplate,
  TEMPLATES_DIR,
  templateFiles,
  valuesPaths,
} from './support/chart';

const relative = (file: string) => path.relative(TEMPLATES_DIR, file);
const yamlTemplates = templateFiles().filter((file) => file.endsWith('.yaml'));

function parseAll(text: string): unknown[] {
  const documents = YAML.parseAllDocuments(text, { uniqueKeys: false });
  const errors = documents.flatMap((document) => document.errors.map((error) => error.message));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return documents.map((document) => document.toJS());
}

describe('chart templates', () => {
  it.each(templateFiles().map((file) => [relative(file), file]))(
    '%s should close every if/range/with/define with an end',
    (_name, file) => {
      const text = readTemplate(file).replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, '');
      expect(countBlockEnds(text)).toBe(countBlockOpeners(text));
    },
  );

  it.each(templateFiles().map((file) => [relative(file), file]))(
    '%s should use only .Values paths that values.yaml defines',
    (_name, file) => {
      const values = defaultValues();
      const missing = valuesPaths(readTemplate(file)).filter((dotted) => !hasPath(values, dotted));
      expect(missing).toEqual([]);
    },
  );

  it('should name every template dss.* (Helm shares one template namespace with the subcharts)', () => {
    const names = templateFiles().flatMap((file) => [...defines(readTemplate(file)).keys()]);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !name.startsWith('dss.'))).toEqual([]);
  });

  it.each(yamlTemplates.map((file) => [relative(file), file]))(
    '%s should parse as YAML with its actions stubbed',
    (_name, file) => {
      expect(() => parseAll(stubTemplate(readTemplate(file)))).not.toThrow();
    },
  );

  it('should give every object of _component.tpl a kind and apiVersion', () => {
    const objects = defines(readTemplate(path.join(TEMPLATES_DIR, '_component.tpl')));
    const kinds: string[] = [];
    for (const [name, body] of objects) {
      // Helpers that write a fragment or a flag, not an object (dss.component.affinity: see
      // rendered-templates.test.ts).
      const helpers = [
        'dss.component',
        'dss.component.env',
        'dss.component.probe',
        'dss.component.replicated',
        'dss.component.affinity',
      ];
      if (helpers.includes(name)) continue;
      const [object] = parseAll(stubTemplate(body)) as { apiVersion?: string; kind?: string }[];
      expect(object?.apiVersion).toMatch(/^[a-z0-9./]+$/);
      kinds.push(String(object?.kind));
    }
    expect(kinds.sort()).toEqual([
      'Deployment',
      'HorizontalPodAutoscaler',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
      'Service',
      'ServiceAccount',
    ]);
  });

  it('should parse the environment and probe helpers as YAML fragments', () => {
    const objects = defines(readTemplate(path.join(TEMPLATES_DIR, '_component.tpl')));
    const env = parseAll(stubTemplate(objects.get('dss.component.env')!))[0] as { name: string }[];
    expect(env.length).toBeGreaterThan(10);
    expect(env.every((entry) => typeof entry.name === 'string')).toBe(true);
    const probe = parseAll(stubTemplate(objects.get('dss.component.probe')!))[0] as Record<string, unknown>;
    expect(Object.keys(probe)).toEqual(
      expect.arrayContaining(['grpc', 'httpGet', 'periodSeconds', 'timeoutSeconds', 'failureThreshold']),
    );
  });

  it('should stub inline actions and drop action-only lines', () => {
    const text = 'metadata:\n  name: {{ include "x" . }}\n  labels:\n    {{- include "y" . | nindent 4 }}\n';
    expect(stubTemplate(text)).toBe(`metadata:\n  name: ${STUB}\n  labels:\n`);
  });
});
