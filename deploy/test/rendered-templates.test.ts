// The chart's replica objects rendered without Helm (support/render.ts): a component that may run more than
// one replica gets a PodDisruptionBudget and anti-affinity between its replicas (soft by default, by its
// component label); a one-replica component gets neither; values choose hard or none, minAvailable, the
// topology key and the weight; an operator's own affinity is kept. Each rendered object is validated
// against the Kubernetes schema (kubernetes-models).
import path from 'node:path';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service } from 'kubernetes-models/v1';
import YAML from 'yaml';
import {
  componentSettings,
  defaultValues,
  defines,
  mergeInto,
  readTemplate,
  TEMPLATES_DIR,
  type Values,
} from './support/chart';
import { type Includes, renderDefine } from './support/render';

const templates = new Map([
  ...defines(readTemplate(path.join(TEMPLATES_DIR, '_component.tpl'))),
  ...defines(readTemplate(path.join(TEMPLATES_DIR, '_helpers.tpl'))),
]);
const SELECTOR = (name: string) =>
  `app.kubernetes.io/name: dss\napp.kubernetes.io/instance: release\napp.kubernetes.io/component: ${name}`;

/** The chart's own defines where the renderer can run them; names and labels as a release "release" gets. */
const includes: Includes = {
  'dss.component.replicated': (context) => render('dss.component.replicated', context),
  'dss.componentSelectorLabels': (context) => SELECTOR((context as { name: string }).name),
  'dss.componentLabels': (context) =>
    `${SELECTOR((context as { name: string }).name)}\napp.kubernetes.io/part-of: dss`,
  'dss.componentName': (context) => `release-dss-${(context as { name: string }).name}`,
};

function render(define: string, context: unknown): string {
  const body = templates.get(define);
  if (body === undefined) throw new Error(`no define ${define} in _component.tpl`);
  return renderDefine(body, context, includes).trim();
}

/** The settings of one component under the default values with `over` merged into its entry. */
function contextOf(name: string, over: Values = {}) {
  const values = defaultValues();
  const components = values.components as Record<string, Values>;
  components[name] = mergeInto(components[name]!, over);
  return { root: { Values: values }, name, c: componentSettings(values)[name] };
}

const affinityOf = (name: string, over: Values = {}) =>
  (YAML.parse(render('dss.component.affinity', contextOf(name, over)) || '{}') as { affinity?: Values })
    .affinity;

/** A minimal Deployment around the rendered affinity, for the Kubernetes schema. */
function deploymentWith(affinity: Values | undefined) {
  return new Deployment({
    metadata: { name: 'release-dss-gateway' },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/component': 'gateway' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/component': 'gateway' } },
        spec: { affinity, containers: [{ name: 'gateway', image: 'dss:e2e' }] },
      },
    },
  });
}

describe('replica objects of the chart, rendered', () => {
  it('should count a component as replicated with replicas > 1 or autoscaling up to more than one', () => {
    expect(render('dss.component.replicated', contextOf('diagrams'))).toBe('');
    expect(render('dss.component.replicated', contextOf('diagrams', { replicas: 2 }))).toBe('true');
    expect(
      render(
        'dss.component.replicated',
        contextOf('diagrams', { autoscaling: { enabled: true, maxReplicas: 4 } }),
      ),
    ).toBe('true');
    expect(
      render(
        'dss.component.replicated',
        contextOf('diagrams', {
          replicas: 3,
          autoscaling: { enabled: true, minReplicas: 1, maxReplicas: 1 },
        }),
      ),
    ).toBe('');
  });

  it('should give a one-replica component no anti-affinity', () => {
    expect(affinityOf('proposals')).toBeUndefined();
  });

  it('should keep two replicas apart by hostname softly, selecting by the component label', () => {
    const affinity = affinityOf('proposals', { replicas: 2 });
    expect(affinity).toEqual({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              topologyKey: 'kubernetes.io/hostname',
              labelSelector: {
                matchLabels: {
                  'app.kubernetes.io/name': 'dss',
                  'app.kubernetes.io/instance': 'release',
                  'app.kubernetes.io/component': 'proposals',
                },
              },
            },
          },
        ],
      },
    });
    expect(() => deploymentWith(affinity).validate()).not.toThrow();
  });

  it('should require the spread when type is hard, on the topology key the values give', () => {
    const affinity = affinityOf('gateway', {
      autoscaling: { enabled: true, maxReplicas: 6 },
      antiAffinity: { type: 'hard', topologyKey: 'topology.kubernetes.io/zone' },
    });
    expect(affinity).toEqual({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: 'topology.kubernetes.io/zone',
            labelSelector: { matchLabels: YAML.parse(SELECTOR('gateway')) },
          },
        ],
      },
    });
    expect(() => deploymentWith(affinity).validate()).not.toThrow();
  });

  it('should write none when type is none, and keep an operator’s own affinity beside the spread', () => {
    expect(affinityOf('gateway', { replicas: 2, antiAffinity: { type: 'none' } })).toBeUndefined();
    const nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['api'] }] }],
      },
    };
    expect(affinityOf('proposals', { replicas: 1, affinity: { nodeAffinity } })).toEqual({ nodeAffinity });
    const both = affinityOf('gateway', {
      replicas: 2,
      antiAffinity: { weight: 40 },
      affinity: { nodeAffinity },
    });
    expect(both).toMatchObject({
      nodeAffinity,
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 40 }] },
    });
    expect(() => deploymentWith(both).validate()).not.toThrow();
  });

  it('should render a PodDisruptionBudget with maxUnavailable, or minAvailable when set, selecting the component', () => {
    const pdb = YAML.parse(render('dss.component.pdb', contextOf('importer', { replicas: 2 })));
    expect(pdb).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'release-dss-importer', labels: expect.any(Object) },
      spec: { maxUnavailable: 1, selector: { matchLabels: YAML.parse(SELECTOR('importer')) } },
    });
    expect(() => new PodDisruptionBudget(pdb).validate()).not.toThrow();
    const min = YAML.parse(
      render('dss.component.pdb', contextOf('importer', { replicas: 3, pdb: { minAvailable: '50%' } })),
    );
    expect(min.spec).toEqual({ minAvailable: '50%', selector: expect.any(Object) });
    expect(() => new PodDisruptionBudget(min).validate()).not.toThrow();
  });

  it('should point callers at a headless Service of each gRPC component, whose name resolves to every replica', () => {
    const context = contextOf('diagrams', { replicas: 2 });
    expect(render('dss.grpcTarget', context)).toBe('dns:///release-dss-diagrams-grpc:15052');
    const service = YAML.parse(render('dss.component.grpcPeers', context));
    expect(service).toMatchObject({
      kind: 'Service',
      metadata: { name: 'release-dss-diagrams-grpc' },
      spec: {
        clusterIP: 'None',
        selector: YAML.parse(SELECTOR('diagrams')),
        ports: [{ name: 'grpc', port: 15052, targetPort: 'grpc', appProtocol: 'grpc' }],
      },
    });
    expect(() => new Service(service).validate()).not.toThrow();
  });

  it('should create the PodDisruptionBudget only for a replicated component with pdb.enabled', () => {
    const component = readTemplate(path.join(TEMPLATES_DIR, '_component.tpl'));
    expect(component).toContain('{{- if and $c.pdb.enabled (include "dss.component.replicated" $ctx) }}');
    expect(component).toContain('{{- include "dss.component.affinity" . | nindent 6 }}');
  });
});
