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
//   node scripts/e2e-containers.js <image>      (after `npm run build`; docker must answer)
// Environment: DOCKER (client binary), E2E_CONTAINERS_KEEP=1 leaves the containers running on failure.
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { repoRoot } = require('./lib/paths');
const chart = require('../deploy/lib/chart-env');

const DOCKER = process.env.DOCKER || 'docker';
const VALUES_FILES = ['ci/kind-values.yaml', 'ci/containers-values.yaml'];
const READY_TIMEOUT_MS = 120_000;

const log = (message) => console.log(`==> e2e-containers: ${message}`);
const docker = (...args) =>
  execFileSync(DOCKER, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The chart's values for this run: the ci files, then free loopback ports and this run's app URL. */
function runValues(ports, runId) {
  const values = chart.chartValues(VALUES_FILES);
  for (const [name, own] of Object.entries(ports)) {
    values.components[name].ports = { ...values.components[name].ports, ...own };
  }
  values.appUrl = `http://127.0.0.1:${ports.web.http}`;
  // The gateway's shared rate-limit counters live in the test Redis: a prefix of this run's own.
  values.components.gateway.env = {
    ...values.components.gateway.env,
    DSS_RATE_LIMIT_KEY_PREFIX: `e2e-containers:${runId}`,
  };
  return values;
}

/** What `docker run` needs for one component, from the chart: args, user, filesystem, environment. */
function containerSpec({ name, c, values, secrets, files, image, runId }) {
  const grpcTarget = (callee) => `127.0.0.1:${values.components[callee].ports.grpc}`;
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
    `dss-e2e-${runId}-${name}`,
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
  for (const variable of variables) args.push('--env', variable);
  args.push(image, ...c.args);
  return {
    name,
    args,
    env: Object.fromEntries(variables.map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)])),
  };
}

/** The files the chart mounts from Secrets, readable by the containers' user. */
function secretFiles(dir) {
  const tokenSigning = path.join(dir, 'token-signing');
  const session = path.join(dir, 'session');
  fs.mkdirSync(tokenSigning, { recursive: true });
  fs.mkdirSync(session, { recursive: true });
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  fs.writeFileSync(
    path.join(tokenSigning, 'token-signing-key.pem'),
    privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  fs.writeFileSync(path.join(tokenSigning, 'previous-public-keys.pem'), '');
  fs.writeFileSync(path.join(session, 'session-key'), crypto.randomBytes(48).toString('base64'));
  // The containers run as 1000, not as the files' owner (a Secret volume's defaultMode does the same).
  for (const entry of [dir, tokenSigning, session]) fs.chmodSync(entry, 0o755);
  for (const file of [
    'token-signing/token-signing-key.pem',
    'token-signing/previous-public-keys.pem',
    'session/session-key',
  ])
    fs.chmodSync(path.join(dir, file), 0o444);
  return { tokenSigning, session };
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
  const image = process.argv[2];
  if (!image) throw new Error('usage: node scripts/e2e-containers.js <image>');
  const { createTestDatabase, freePort, OwnNats, testRedisUrl } = require('@dss/platform/testing');
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
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-e2e-containers-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const files = secretFiles(dir);
    const secrets = {
      'database-url': database.url,
      'nats-url': nats.url,
      'redis-url': testRedisUrl(),
      'session-key': fs.readFileSync(path.join(files.session, 'session-key'), 'utf8'),
    };

    const base = chart.chartValues(VALUES_FILES);
    const enabled = Object.entries(chart.componentSettings(base))
      .filter(([, c]) => c.enabled)
      .map(([name]) => name);
    // Free loopback ports; freePort never hands out the same one twice in a process.
    const ports = {};
    for (const name of enabled) {
      const own = base.components[name].ports ?? {};
      ports[name] = { admin: await freePort() };
      if (own.grpc) ports[name].grpc = await freePort();
      if (own.http) ports[name].http = await freePort();
    }
    const values = runValues(ports, runId);
    const settings = chart.componentSettings(values);

    // The migration Job: its args and environment as templates/migrations-job.yaml gives them.
    const migrated = enabled.filter((name) => settings[name].migrations).sort();
    const security = values.componentDefaults.securityContext;
    log(`migration Job: scripts/migrate.js ${migrated.join(' ')}`);
    let mark = Date.now();
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

    const specs = enabled.map((name) =>
      containerSpec({ name, c: settings[name], values, secrets, files, image, runId }),
    );
    cleanups.push(async () => {
      const ids = docker('ps', '--all', '--quiet', '--filter', `label=dss.e2e.run=${runId}`)
        .split('\n')
        .filter(Boolean);
      if (ids.length > 0) spawnSync(DOCKER, ['rm', '--force', ...ids], { stdio: 'ignore' });
    });
    log(`starting ${specs.length} containers from ${image} (run ${runId})`);
    mark = Date.now();
    for (const spec of specs) docker(...spec.args);
    await Promise.all(
      specs.map((spec) => waitUntilReady(spec.name, ports[spec.name].admin, `dss-e2e-${runId}-${spec.name}`)),
    );
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
      databaseUrl: database.url,
      components: Object.fromEntries(
        specs.map((spec) => [
          spec.name,
          { container: `dss-e2e-${runId}-${spec.name}`, ports: ports[spec.name], env: spec.env },
        ]),
      ),
    };
    fs.writeFileSync(stackFile, JSON.stringify(stack, null, 2));
    const suiteEnv = {
      E2E_BASE_URL: stack.baseUrl,
      DSS_ACCOUNTS_GRPC_ADDR: `127.0.0.1:${ports.accounts.grpc}`,
      DSS_PROPOSALS_GRPC_ADDR: `127.0.0.1:${ports.proposals.grpc}`,
      E2E_CONTAINERS_STACK: stackFile,
    };

    log('the e2e suite through the containerised gateway');
    mark = Date.now();
    const suite = await runJest(
      ['e2e/test', ...process.argv.slice(3), '--testPathIgnorePatterns', 'processes\\.test', '/containers/'],
      suiteEnv,
    );
    timings.suite = Date.now() - mark;
    log(
      "the web app's browser tests, container checks: the image, MCP over Streamable HTTP, the web app, faults",
    );
    mark = Date.now();
    // The web app's browser tests against the web container (services/web/test/support/web-system.ts reads
    // the stack file), then the container checks; the fault checks stop and restart containers, so they run
    // last, on their own.
    const checks =
      (await runJest(['--runInBand', 'services/web/test/browser'], suiteEnv)) ||
      (await runJest(
        ['--runInBand', 'e2e/test/containers', '--testPathIgnorePatterns', 'faults\\.test'],
        suiteEnv,
      )) ||
      (await runJest(['--runInBand', 'e2e/test/containers/faults.test.ts'], suiteEnv));
    timings.checks = Date.now() - mark;

    // Every container stops cleanly on SIGTERM, as a pod does on deletion.
    mark = Date.now();
    const unclean = [];
    await Promise.all(
      specs.map(async (spec) => {
        const container = `dss-e2e-${runId}-${spec.name}`;
        await new Promise((resolve) =>
          spawn(DOCKER, ['stop', '--time', '30', container], { stdio: 'ignore' }).on('close', resolve),
        );
        const code = docker('inspect', '--format', '{{.State.ExitCode}}', container).trim();
        if (code !== '0') unclean.push(`${spec.name} exited with ${code} on SIGTERM:\n${logsOf(container)}`);
      }),
    );
    timings.stop = Date.now() - mark;
    for (const message of unclean) console.error(`e2e-containers: ${message}`);
    failed = suite !== 0 || checks !== 0 || unclean.length > 0;
    timings.total = Date.now() - started;
    log(`timings (ms): ${JSON.stringify(timings)}`);
    if (failed) {
      for (const spec of specs) console.error(`--- ${spec.name}\n${logsOf(`dss-e2e-${runId}-${spec.name}`)}`);
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
