#!/usr/bin/env node
'use strict';
// The container e2e (scripts/e2e-containers.sh runs this after building the image): every component in its
// own container from the one image, configured as the chart configures its pods, then the whole e2e suite
// through the containerised gateway and the container checks (e2e/test/containers/: the image's contents,
// MCP over Streamable HTTP, the web app, faults across containers).
//
// Each container's arguments, user, read-only root filesystem and environment come from the chart itself:
// charts/dss/values.yaml with ci/kind-values.yaml and ci/containers-values.yaml merged over it, run through
// deploy/lib/chart-env.js (the chart tests' interpreter of the env helper). What a pod gets from its
// cluster, this machine supplies: the Secret's values (a database of its own on the test PostgreSQL, a
// nats-server of its own, the test Redis under a key prefix of its own, a generated session key), the
// mounted key files (a generated signing key), and addresses: with `--network host` every component listens
// on 127.0.0.1 on a free port, and Service names become 127.0.0.1.
//
// The gateway, diagrams, proposals and importer run two replicas each (REPLICAS), as a cluster with
// replicas > 1 runs them: callers reach the gRPC replicas through their own round_robin channels over an
// `ipv4:` target naming both (the chart's headless Services do the same over DNS), and the gateway's replicas
// sit behind HAProxy in a container of its own, on the port the gateway would have. PostgreSQL and Redis
// run in containers of their own too (scripts/build-infra-image.sh), so the fault checks can SIGKILL the one
// and stop the other without touching the machine's servers.
//   node scripts/e2e-containers.js <image> <infra image> [jest arguments for the e2e suite]
// Environment: DOCKER (client binary), E2E_CONTAINERS_KEEP=1 leaves the containers running on failure,
// E2E_CONTAINERS_CHECKS_ONLY=1 skips the e2e suite and the web app's browser tests (only the container
// checks run: for working on those).
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./lib/net');
const { repoRoot } = require('./lib/paths');
const chart = require('../deploy/lib/chart-env');

const DOCKER = process.env.DOCKER || 'docker';
const VALUES_FILES = ['ci/kind-values.yaml', 'ci/containers-values.yaml'];
const READY_TIMEOUT_MS = 120_000;
/** Components that run more than one replica, and how many. */
const REPLICAS = { gateway: 2, diagrams: 2, proposals: 2, importer: 2 };

const log = (message) => console.log(`==> e2e-containers: ${message}`);
const docker = (...args) =>
  execFileSync(DOCKER, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * The chart's values for this run: the ci files, then free loopback ports and this run's app URL. `ports`
 * holds each component's ports as its callers see them (the gateway's http port is the load balancer's);
 * `own` overrides one component's ports with those of the replica being configured.
 */
function runValues(ports, runId, own = {}) {
  const values = chart.chartValues(VALUES_FILES);
  for (const [name, given] of Object.entries({ ...ports, ...own })) {
    values.components[name].ports = { ...values.components[name].ports, ...given };
  }
  values.appUrl = `http://127.0.0.1:${ports.web.http}`;
  // The gateway's shared rate-limit counters live in the test Redis: a prefix of this run's own.
  values.components.gateway.env = {
    ...values.components.gateway.env,
    DSS_RATE_LIMIT_KEY_PREFIX: `e2e-containers:${runId}`,
  };
  return values;
}

/**
 * What `docker run` needs for one replica of a component, from the chart: args, user, filesystem,
 * environment. `grpcPorts` lists each gRPC component's replicas' ports: a callee with more than one is
 * reached through an `ipv4:` target naming them all, which the clients' round_robin policy spreads over.
 */
function containerSpec({ name, container, c, values, grpcPorts, secrets, files, image, runId }) {
  const grpcTarget = (callee) => grpcTargetOf(grpcPorts[callee]);
  const env = chart.componentEnv(chart.envHelper(), {
    c,
    name,
    values,
    include: (template, of) => {
      if (template === 'dss.grpcTarget') return grpcTarget(of);
      if (template === 'dss.componentName') return '127.0.0.1';
      throw new Error(`e2e-containers: no local answer for include "${template}"`);
    },
  });
  const variables = [];
  for (const entry of env) {
    let value = entry.value;
    if (entry.secretKey !== undefined) {
      value = secrets[entry.secretKey];
      if (value === undefined) {
        if (entry.optional) continue;
        throw new Error(`e2e-containers: no local value for the Secret key ${entry.secretKey}`);
      }
    }
    // A pod listens on all of its own interfaces; on the host's network the run keeps to loopback.
    if (/_GRPC_ADDR$/.test(entry.name)) value = value.replace(/^0\.0\.0\.0:/, '127.0.0.1:');
    variables.push(`${entry.name}=${value}`);
  }
  const security = c.securityContext;
  const args = [
    'run',
    '--detach',
    '--name',
    container,
    '--label',
    `dss.e2e.run=${runId}`,
    '--network',
    'host',
    '--user',
    `${security.runAsUser}:${security.runAsGroup}`,
    // The chart's emptyDir at /tmp.
    '--tmpfs',
    '/tmp',
  ];
  if (security.readOnlyRootFilesystem) args.push('--read-only');
  if (security.allowPrivilegeEscalation === false) args.push('--security-opt', 'no-new-privileges');
  for (const capability of security.capabilities?.drop ?? []) args.push('--cap-drop', capability);
  if (c.tokenSigningKey) args.push('--volume', `${files.tokenSigning}:/var/run/secrets/dss/token-signing:ro`);
  if (c.sessionKey) args.push('--volume', `${files.session}:/var/run/secrets/dss/session:ro`);
  if (c.webhookSecretKeys)
    args.push('--volume', `${files.webhookSecretKeys}:/var/run/secrets/dss/webhook-secret-keys:ro`);
  for (const variable of variables) args.push('--env', variable);
  args.push(image, ...c.args);
  return {
    name,
    container,
    args,
    env: Object.fromEntries(variables.map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)])),
  };
}

/** A caller's target of a gRPC component's replicas: host:port for one, an `ipv4:` list for several. */
function grpcTargetOf(ports) {
  const addresses = ports.map((port) => `127.0.0.1:${port}`);
  return addresses.length === 1 ? addresses[0] : `ipv4:${addresses.join(',')}`;
}

/**
 * HAProxy in front of the gateway's replicas, as an ingress controller would be: round robin, a replica
 * whose /readyz fails (draining, or dead) taken out within a second, a connection a replica refused tried
 * on the other one (nothing was sent), a request in flight on a replica that dies answered 502 (never sent
 * twice). X-Forwarded-For gets the client's address appended; X-DSS-Replica names the replica that answered
 * (the tests' evidence that both serve).
 */
function haproxyConfig(port, replicas) {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 90s
  timeout server 90s
  timeout http-request 15s
  timeout queue 10s
  option forwardfor
  option http-server-close
  option redispatch 1
  retries 2

frontend api
  bind 127.0.0.1:${port}
  default_backend gateway

backend gateway
  balance roundrobin
  http-response set-header X-DSS-Replica %s
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1
${replicas.map((r) => `  server ${r.id} 127.0.0.1:${r.ports.http} check port ${r.ports.admin}`).join('\n')}
`;
}

/**
 * The run's own PostgreSQL, Redis and load balancer, each a container of the infrastructure image on the
 * host's network. PostgreSQL keeps its cluster in the container's own filesystem, so `docker start` after a
 * SIGKILL runs crash recovery on the same data.
 */
function infraSpecs({ infraImage, runId, ports, dir, gatewayReplicas }) {
  const base = (name) => [
    'run',
    '--detach',
    '--name',
    `dss-e2e-${runId}-${name}`,
    '--label',
    `dss.e2e.run=${runId}`,
    '--network',
    'host',
  ];
  fs.writeFileSync(path.join(dir, 'haproxy.cfg'), haproxyConfig(ports.lb, gatewayReplicas));
  fs.chmodSync(path.join(dir, 'haproxy.cfg'), 0o644);
  const pgdata = '/var/lib/postgresql/data';
  return {
    postgres: [
      ...base('postgres'),
      '--user',
      'postgres',
      '--shm-size',
      '256m',
      '--entrypoint',
      'sh',
      infraImage,
      '-c',
      `set -e; if [ ! -s ${pgdata}/PG_VERSION ]; then initdb --auth=trust --username=postgres --no-locale --encoding=UTF8 -D ${pgdata} >/dev/null; fi; ` +
        `exec postgres -D ${pgdata} -c listen_addresses=127.0.0.1 -p ${ports.postgres} -c unix_socket_directories=/tmp -c max_connections=400`,
    ],
    redis: [
      ...base('redis'),
      '--user',
      'redis',
      '--entrypoint',
      'redis-server',
      infraImage,
      '--bind',
      '127.0.0.1',
      '--port',
      String(ports.redis),
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    lb: [
      ...base('lb'),
      '--user',
      'haproxy',
      '--volume',
      `${path.join(dir, 'haproxy.cfg')}:/etc/dss-lb/haproxy.cfg:ro`,
      '--entrypoint',
      'haproxy',
      infraImage,
      '-db',
      '-f',
      '/etc/dss-lb/haproxy.cfg',
    ],
  };
}

/** Until PostgreSQL in its container accepts connections (a fresh cluster is initialised first). */
async function waitForPostgres(url, container) {
  const { Client } = require('pg');
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    const state = docker('inspect', '--format', '{{.State.Status}}', container).trim();
    if (state !== 'running') throw new Error(`postgres is ${state}:\n${logsOf(container)}`);
    if (Date.now() > deadline)
      throw new Error(`postgres not ready within ${READY_TIMEOUT_MS} ms:\n${logsOf(container)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The files the chart mounts from Secrets, readable by the containers' user. */
function secretFiles(dir) {
  const tokenSigning = path.join(dir, 'token-signing');
  const session = path.join(dir, 'session');
  const webhookSecretKeys = path.join(dir, 'webhook-secret-keys');
  for (const folder of [tokenSigning, session, webhookSecretKeys]) fs.mkdirSync(folder, { recursive: true });
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  fs.writeFileSync(
    path.join(tokenSigning, 'token-signing-key.pem'),
    privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  fs.writeFileSync(path.join(tokenSigning, 'previous-public-keys.pem'), '');
  fs.writeFileSync(path.join(session, 'session-key'), crypto.randomBytes(48).toString('base64'));
  fs.writeFileSync(
    path.join(webhookSecretKeys, 'webhook-secret-keys'),
    `${crypto.randomBytes(48).toString('base64')}\n`,
  );
  // The containers run as 1000, not as the files' owner (a Secret volume's defaultMode does the same).
  for (const entry of [dir, tokenSigning, session, webhookSecretKeys]) fs.chmodSync(entry, 0o755);
  for (const file of [
    'token-signing/token-signing-key.pem',
    'token-signing/previous-public-keys.pem',
    'session/session-key',
    'webhook-secret-keys/webhook-secret-keys',
  ])
    fs.chmodSync(path.join(dir, file), 0o444);
  return { tokenSigning, session, webhookSecretKeys };
}

async function waitUntilReady(name, adminPort, container) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${adminPort}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    const state = docker('inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', container).trim();
    if (!state.startsWith('running')) throw new Error(`${name} is ${state}:\n${logsOf(container)}`);
    if (Date.now() > deadline)
      throw new Error(`${name} not ready within ${READY_TIMEOUT_MS} ms:\n${logsOf(container)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function logsOf(container) {
  const result = spawnSync(DOCKER, ['logs', '--tail', '80', container], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

async function timed(timings, key, work) {
  const mark = Date.now();
  try {
    return await work();
  } finally {
    timings[key] = Date.now() - mark;
  }
}

function runJest(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...args], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const [image, infraImage] = process.argv.slice(2, 4);
  if (!image || !infraImage) throw new Error('usage: node scripts/e2e-containers.js <image> <infra image>');
  const { OwnNats } = require('@dss/platform/testing');
  const runId = crypto.randomBytes(4).toString('hex');
  const timings = {};
  const started = Date.now();
  const cleanups = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse())
      await step().catch((error) => console.error(`cleanup: ${error.message}`));
  };
  let failed = true;
  try {
    const nats = await OwnNats.start();
    cleanups.push(() => nats.destroy());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-e2e-containers-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    cleanups.push(async () => {
      const ids = docker('ps', '--all', '--quiet', '--filter', `label=dss.e2e.run=${runId}`)
        .split('\n')
        .filter(Boolean);
      if (ids.length > 0) spawnSync(DOCKER, ['rm', '--force', ...ids], { stdio: 'ignore' });
    });
    const files = secretFiles(dir);

    const base = chart.chartValues(VALUES_FILES);
    const enabled = Object.entries(chart.componentSettings(base))
      .filter(([, c]) => c.enabled)
      .map(([name]) => name);
    // Free loopback ports; freePort never hands out the same one twice in a process. Each replica has its
    // own; `ports` holds what callers use (the first replica's, and the load balancer's for the gateway).
    const infraPorts = { postgres: await freePort(), redis: await freePort(), lb: await freePort() };
    const instances = [];
    for (const name of enabled) {
      const own = base.components[name].ports ?? {};
      for (let replica = 1; replica <= (REPLICAS[name] ?? 1); replica++) {
        const instancePorts = { admin: await freePort() };
        if (own.grpc) instancePorts.grpc = await freePort();
        if (own.http) instancePorts.http = await freePort();
        const id = replica === 1 ? name : `${name}-${replica}`;
        instances.push({ name, id, replica, ports: instancePorts, container: `dss-e2e-${runId}-${id}` });
      }
    }
    const ports = {};
    const grpcPorts = {};
    for (const instance of instances) {
      ports[instance.name] ??= { ...instance.ports };
      if (instance.ports.grpc)
        grpcPorts[instance.name] = [...(grpcPorts[instance.name] ?? []), instance.ports.grpc];
    }
    ports.gateway.http = infraPorts.lb;

    // The run's own PostgreSQL, Redis and HAProxy.
    const infra = infraSpecs({
      infraImage,
      runId,
      ports: infraPorts,
      dir,
      gatewayReplicas: instances.filter((instance) => instance.name === 'gateway'),
    });
    let mark = Date.now();
    for (const args of Object.values(infra)) docker(...args);
    const adminUrl = `postgres://postgres@127.0.0.1:${infraPorts.postgres}/postgres`;
    await waitForPostgres(adminUrl, `dss-e2e-${runId}-postgres`);
    {
      const { Client } = require('pg');
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query('CREATE DATABASE dss');
      await client.end();
    }
    timings.infra = Date.now() - mark;
    const secrets = {
      'database-url': `postgres://postgres@127.0.0.1:${infraPorts.postgres}/dss`,
      'nats-url': nats.url,
      'redis-url': `redis://127.0.0.1:${infraPorts.redis}`,
      'session-key': fs.readFileSync(path.join(files.session, 'session-key'), 'utf8'),
    };
    const values = runValues(ports, runId);
    const settings = chart.componentSettings(values);

    // The migration Job: its args and environment as templates/migrations-job.yaml gives them.
    const migrated = enabled.filter((name) => settings[name].migrations).sort();
    const security = values.componentDefaults.securityContext;
    log(`migration Job: scripts/migrate.js ${migrated.join(' ')}`);
    mark = Date.now();
    execFileSync(
      DOCKER,
      [
        'run',
        '--rm',
        '--network',
        'host',
        '--user',
        `${security.runAsUser}:${security.runAsGroup}`,
        '--read-only',
        '--tmpfs',
        '/tmp',
        '--env',
        `LOG_LEVEL=${values.logLevel}`,
        '--env',
        `DATABASE_URL=${secrets['database-url']}`,
        image,
        'scripts/migrate.js',
        ...migrated,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    timings.migrate = Date.now() - mark;

    const specs = instances.map((instance) => {
      const own = runValues(ports, runId, { [instance.name]: instance.ports });
      return {
        ...containerSpec({
          name: instance.name,
          container: instance.container,
          c: chart.componentSettings(own)[instance.name],
          values: own,
          grpcPorts,
          secrets,
          files,
          image,
          runId,
        }),
        instance,
      };
    });
    log(`starting ${specs.length} containers from ${image} (run ${runId})`);
    mark = Date.now();
    // First replicas first, then the second ones: thirteen Node.js processes and their pools starting at
    // once on a loaded machine starved PostgreSQL into connection timeouts.
    for (const wave of [
      specs.filter((spec) => spec.instance.replica === 1),
      specs.filter((spec) => spec.instance.replica > 1),
    ]) {
      for (const spec of wave) docker(...spec.args);
      await Promise.all(
        wave.map((spec) => waitUntilReady(spec.instance.id, spec.instance.ports.admin, spec.container)),
      );
    }
    timings.startToReady = Date.now() - mark;
    log(`every container ready in ${timings.startToReady} ms`);

    const stackFile = path.join(dir, 'stack.json');
    const stack = {
      image,
      runId,
      docker: DOCKER,
      baseUrl: `http://127.0.0.1:${ports.gateway.http}/v1`,
      appUrl: values.appUrl,
      mcpUrl: `http://127.0.0.1:${ports.mcp.http}/mcp`,
      databaseUrl: secrets['database-url'],
      components: Object.fromEntries(
        specs.map((spec) => [
          spec.instance.id,
          {
            container: spec.container,
            component: spec.instance.name,
            replica: spec.instance.replica,
            ports: spec.instance.ports,
            env: spec.env,
          },
        ]),
      ),
      infra: {
        postgres: { container: `dss-e2e-${runId}-postgres`, port: infraPorts.postgres },
        redis: { container: `dss-e2e-${runId}-redis`, port: infraPorts.redis },
        lb: { container: `dss-e2e-${runId}-lb`, port: infraPorts.lb },
      },
    };
    fs.writeFileSync(stackFile, JSON.stringify(stack, null, 2));
    const suiteEnv = {
      E2E_BASE_URL: stack.baseUrl,
      DSS_ACCOUNTS_GRPC_ADDR: grpcTargetOf(grpcPorts.accounts),
      DSS_PROPOSALS_GRPC_ADDR: grpcTargetOf(grpcPorts.proposals),
      E2E_CONTAINERS_STACK: stackFile,
    };

    const checksOnly = process.env.E2E_CONTAINERS_CHECKS_ONLY === '1';
    let suite = 0;
    if (!checksOnly) {
      log('the e2e suite through the containerised gateway');
      mark = Date.now();
      suite = await runJest(
        [
          'e2e/test',
          ...process.argv.slice(4),
          '--testPathIgnorePatterns',
          'processes\\.test',
          '/containers/',
        ],
        suiteEnv,
      );
      timings.suite = Date.now() - mark;
    }
    log(
      "the web app's browser tests, container checks: the image, MCP over Streamable HTTP, the web app, faults",
    );
    mark = Date.now();
    // The web app's browser tests against the web container (services/web/test/support/web-system.ts reads
    // the stack file), then the container checks; the fault checks stop and restart containers, so they run
    // last, on their own.
    // The faults (faults, replicas, outages, webhooks) kill, stop and restart containers: they run last, one file
    // after the other, each leaving every container running again.
    const destructive = ['faults', 'replicas', 'outages', 'webhooks'].map(
      (file) => `e2e/test/containers/${file}.test.ts`,
    );
    // `npm test` runs every browser test against the one-process system; here run those whose journeys cross
    // containers: two people's editor saves through the diagrams replicas with live events over NATS between
    // replicas (editor-live), the review conversation through proposals and notifications. The one-person
    // editor and the diagram page's live view take the same paths and stay in `npm test` only. (All 24 files
    // again, in band, took longer than the rest of CI together.)
    const webChecks = ['editor-live', 'review-conversation'].map(
      (file) => `services/web/test/browser/${file}.test.ts`,
    );
    const checks =
      (checksOnly ? 0 : await runJest(['--runInBand', ...webChecks], suiteEnv)) ||
      (await runJest(
        [
          '--runInBand',
          'e2e/test/containers',
          '--testPathIgnorePatterns',
          '(faults|replicas|outages|webhooks)\\.test',
        ],
        suiteEnv,
      )) ||
      (await timed(timings, 'faults', () => runJest(['--runInBand', ...destructive], suiteEnv)));
    timings.checks = Date.now() - mark;

    // Every container stops cleanly on SIGTERM, as a pod does on deletion.
    mark = Date.now();
    const unclean = [];
    await Promise.all(
      specs.map(async ({ container, instance }) => {
        await new Promise((resolve) =>
          spawn(DOCKER, ['stop', '--time', '30', container], { stdio: 'ignore' }).on('close', resolve),
        );
        const code = docker('inspect', '--format', '{{.State.ExitCode}}', container).trim();
        if (code !== '0')
          unclean.push(`${instance.id} exited with ${code} on SIGTERM:\n${logsOf(container)}`);
      }),
    );
    timings.stop = Date.now() - mark;
    for (const message of unclean) console.error(`e2e-containers: ${message}`);
    failed = suite !== 0 || checks !== 0 || unclean.length > 0;
    timings.total = Date.now() - started;
    log(`timings (ms): ${JSON.stringify(timings)}`);
    if (failed) {
      for (const spec of specs) console.error(`--- ${spec.instance.id}\n${logsOf(spec.container)}`);
      for (const name of ['lb', 'postgres', 'redis'])
        console.error(`--- ${name}\n${logsOf(`dss-e2e-${runId}-${name}`)}`);
    }
  } finally {
    if (failed && process.env.E2E_CONTAINERS_KEEP === '1')
      log('keeping the containers (E2E_CONTAINERS_KEEP=1)');
    else await cleanUp();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(`e2e-containers: ${error.stack ?? error.message}`);
  process.exit(1);
});
