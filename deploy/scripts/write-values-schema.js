#!/usr/bin/env node

// Writes charts/dss/values.schema.json (JSON Schema draft-07, which Helm validates values against).
// The schema is kept as code here because its component definition is shared by componentDefaults and
// every entry of components; run `node deploy/scripts/write-values-schema.js` after changing it. The
// deploy tests fail when the written file and this script disagree.
const fs = require('node:fs');
const path = require('node:path');

const SCHEMA_FILE = path.resolve(__dirname, '../../charts/dss/values.schema.json');
const README_FILE = path.resolve(__dirname, '../../README.md');

/**
 * The variables the services read, from README.md's configuration table (`| \`NAME\` | default | meaning |`),
 * which the deploy tests keep complete: each becomes a documented property of the chart's `env` maps, so the
 * schema lists every variable an operator may set, and Helm refuses a misspelt one.
 * @returns {Record<string, { description: string, type: string[] }>}
 */
function documentedVariables() {
  const readme = fs.readFileSync(README_FILE, 'utf8');
  /** @type {Record<string, { description: string, type: string[] }>} */
  const properties = {};
  for (const match of readme.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|/gm)) {
    const [, name, fallback, meaning] = match;
    properties[name] = {
      description: `${meaning} (default: ${fallback})`,
      type: ['string', 'number', 'boolean'],
    };
  }
  return properties;
}

const string = { type: 'string' };
const boolean = { type: 'boolean' };
const port = { type: 'integer', minimum: 1, maximum: 65535 };
const positiveInteger = { type: 'integer', minimum: 1 };
const object = { type: 'object' };
const objectList = { type: 'array', items: object };
const componentName = { type: 'string', pattern: '^[a-z][a-z0-9-]*$' };
const strict = (properties, extra = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...extra,
});

const definitions = {
  envMap: {
    description: 'Environment variables as NAME: value',
    type: 'object',
    propertyNames: { pattern: '^[A-Z_][A-Z0-9_]*$' },
    additionalProperties: { type: ['string', 'number', 'boolean'] },
  },
  serviceEnvMap: {
    description:
      'Environment variables as NAME: value; only the variables the services read (README.md, "Configuration")',
    type: 'object',
    properties: documentedVariables(),
    additionalProperties: false,
  },
  probe: strict(
    {
      type: { enum: ['grpc', 'http'] },
      path: { type: 'string', pattern: '^/' },
      namedService: boolean,
      periodSeconds: positiveInteger,
      timeoutSeconds: positiveInteger,
      failureThreshold: positiveInteger,
    },
    { required: ['type', 'path', 'periodSeconds', 'timeoutSeconds', 'failureThreshold'] },
  ),
  quantity: { type: ['string', 'number'], pattern: '^[0-9.]+([EPTGMK]i?|[numk])?$' },
  resources: strict({
    requests: { type: 'object', additionalProperties: { $ref: '#/definitions/quantity' } },
    limits: { type: 'object', additionalProperties: { $ref: '#/definitions/quantity' } },
  }),
  // Everything a component may set; componentDefaults and each component share it.
  component: strict({
    enabled: boolean,
    args: { type: 'array', items: string, minItems: 1 },
    ports: strict({ grpc: port, http: port, admin: port }),
    httpPortVariable: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    uses: strict({ postgresql: boolean, redis: boolean, nats: boolean }),
    calls: { type: 'array', items: componentName, uniqueItems: true },
    allowedCallers: { type: 'array', items: componentName, uniqueItems: true },
    callsApi: boolean,
    public: boolean,
    appUrl: boolean,
    tokenSigningKey: boolean,
    sessionKey: boolean,
    webhookSecretKeys: boolean,
    migrations: boolean,
    replicas: { type: 'integer', minimum: 0 },
    resources: { $ref: '#/definitions/resources' },
    podSecurityContext: object,
    securityContext: object,
    probes: strict({
      startup: { $ref: '#/definitions/probe' },
      liveness: { $ref: '#/definitions/probe' },
      readiness: { $ref: '#/definitions/probe' },
    }),
    terminationGracePeriodSeconds: { type: 'integer', minimum: 0 },
    tmpSizeLimit: { $ref: '#/definitions/quantity' },
    env: { $ref: '#/definitions/serviceEnvMap' },
    podAnnotations: { type: 'object', additionalProperties: string },
    podLabels: { type: 'object', additionalProperties: string },
    nodeSelector: { type: 'object', additionalProperties: string },
    tolerations: objectList,
    affinity: object,
    priorityClassName: string,
    topologySpread: strict({
      enabled: boolean,
      topologyKeys: { type: 'array', items: string },
      maxSkew: positiveInteger,
      whenUnsatisfiable: { enum: ['ScheduleAnyway', 'DoNotSchedule'] },
    }),
    topologySpreadConstraints: objectList,
    pdb: strict({
      enabled: boolean,
      maxUnavailable: { type: ['integer', 'string'], pattern: '^[0-9]+%$' },
      // "" (unset), a count or a percentage.
      minAvailable: { type: ['integer', 'string'], pattern: '^([0-9]+%)?$' },
    }),
    antiAffinity: strict({
      type: { enum: ['soft', 'hard', 'none'] },
      topologyKey: string,
      weight: { type: 'integer', minimum: 1, maximum: 100 },
    }),
    autoscaling: strict({
      enabled: boolean,
      minReplicas: positiveInteger,
      maxReplicas: positiveInteger,
      targetCPUUtilizationPercentage: { type: 'integer', minimum: 1, maximum: 100 },
    }),
    service: strict({
      type: { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] },
      annotations: { type: 'object', additionalProperties: string },
    }),
    serviceAccount: strict({
      create: boolean,
      annotations: { type: 'object', additionalProperties: string },
      automountToken: boolean,
    }),
  }),
  url: { type: 'string', pattern: '^$|^[a-z][a-z0-9+.-]*://' },
};

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Values of the dss chart',
  type: 'object',
  additionalProperties: false,
  required: ['image', 'componentDefaults', 'components', 'credentials', 'tokenSigning'],
  definitions,
  properties: {
    nameOverride: string,
    fullnameOverride: string,
    image: strict(
      {
        repository: { type: 'string', minLength: 1 },
        tag: string,
        digest: { type: 'string', pattern: '^$|^sha256:[0-9a-f]{64}$' },
        pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'] },
      },
      { required: ['repository'] },
    ),
    imagePullSecrets: { type: 'array', items: strict({ name: string }, { required: ['name'] }) },
    logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    appUrl: { type: 'string', pattern: '^https?://' },
    env: { $ref: '#/definitions/serviceEnvMap' },
    tracing: strict({
      enabled: boolean,
      otlpEndpoint: { $ref: '#/definitions/url' },
      env: {
        allOf: [{ $ref: '#/definitions/envMap' }, { type: 'object', propertyNames: { pattern: '^OTEL_' } }],
      },
    }),
    tokenSigning: strict({
      existingSecret: string,
      privateKeyKey: { type: 'string', minLength: 1 },
      previousPublicKeysKey: string,
      keyGeneration: positiveInteger,
      previousPublicKeys: { type: 'string', pattern: '^$|-----BEGIN PUBLIC KEY-----' },
    }),
    credentials: strict({ existingSecret: string }),
    externalDatabase: strict({ url: { type: 'string', pattern: '^$|^postgres(ql)?://' } }),
    externalRedis: strict({ url: { type: 'string', pattern: '^$|^rediss?://' } }),
    externalNats: strict({ url: { type: 'string', pattern: '^$|^(nats|tls)://' } }),
    componentDefaults: { $ref: '#/definitions/component' },
    components: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z0-9-]*$' },
      additionalProperties: {
        allOf: [
          { $ref: '#/definitions/component' },
          { type: 'object', required: ['enabled', 'args', 'ports'] },
        ],
      },
    },
    migrations: strict({
      enabled: boolean,
      hookEvents: {
        type: 'string',
        pattern:
          '^(pre-install|post-install|pre-upgrade|post-upgrade)(,(pre-install|post-install|pre-upgrade|post-upgrade))*$',
      },
      backoffLimit: { type: 'integer', minimum: 0 },
      activeDeadlineSeconds: positiveInteger,
      resources: { $ref: '#/definitions/resources' },
    }),
    ingress: strict({
      enabled: boolean,
      className: string,
      annotations: { type: 'object', additionalProperties: string },
      hosts: { type: 'array', items: { type: 'string', minLength: 1 } },
      tls: objectList,
    }),
    httpRoute: strict({
      enabled: boolean,
      parentRefs: objectList,
      hostnames: { type: 'array', items: string },
      annotations: { type: 'object', additionalProperties: string },
    }),
    networkPolicy: strict({ enabled: boolean, publicFrom: objectList, metricsFrom: objectList }),
    serviceMonitor: strict({
      enabled: boolean,
      interval: { type: 'string', pattern: '^[0-9]+(ms|s|m|h)$' },
      scrapeTimeout: { type: 'string', pattern: '^[0-9]+(ms|s|m|h)$' },
      labels: { type: 'object', additionalProperties: string },
    }),
    tests: strict({
      enabled: boolean,
      teamSlug: { type: 'string', pattern: '^[a-z0-9-]+$' },
      userEmail: string,
    }),
    global: object,
    // The subcharts validate their own values; here only the switch and what this chart reads.
    postgresql: {
      type: 'object',
      required: ['enabled'],
      properties: {
        enabled: boolean,
        auth: { type: 'object', properties: { username: string, database: string } },
      },
    },
    redis: { type: 'object', required: ['enabled'], properties: { enabled: boolean } },
    nats: { type: 'object', required: ['enabled'], properties: { enabled: boolean } },
  },
};

function render() {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (require.main === module) fs.writeFileSync(SCHEMA_FILE, render());

module.exports = { render, SCHEMA_FILE };
