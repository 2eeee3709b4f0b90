'use strict';
// Finds or provides the PostgreSQL, Redis and NATS (with JetStream) that the tests need. For each, in order:
//   1. the URL from the environment (DSS_TEST_*_URL, then *_URL), which must answer;
//   2. the default local port, if the right server answers there;
//   3. a server we start: the embedded PostgreSQL, or redis-server / nats-server from PATH on a free port;
//   4. as root with apt-get (CI images): install Debian's redis-server / nats-server, then start it;
//   5. otherwise an InfraError whose message is one line saying what is missing and how to provide it.
// Nothing is ever silently skipped.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { freePort, redisPing, natsInfo, waitFor, hostPort } = require('./net');
const { findExecutable, canAptInstall, aptInstall, lastLine } = require('./system');
const { startChild } = require('./child-service');
const { startEmbeddedPostgres } = require('./embedded-postgres');
const { dataDir: defaultDataDir, displayPath } = require('./paths');

const READY_TIMEOUT_MS = 15_000;
// The test cluster's preferred port: next to, not on, embedded mode's 15432, so `npm start` and `npm test`
// can run side by side and each keeps its persisted port; both below the ephemeral range (32768-60999).
const TEST_POSTGRES_PORT = 15442;

/** The message is one line meant for the user as is. */
class InfraError extends Error {}

/**
 * @typedef {object} Service
 * @property {'postgres' | 'redis' | 'nats'} name
 * @property {string} url
 * @property {string} where  e.g. "127.0.0.1:5432 (already running)"
 * @property {'env' | 'running' | 'started'} origin
 * @property {() => Promise<void>} [stop]  present when we started it
 */

/**
 * @typedef {object} EnsureOptions
 * @property {NodeJS.ProcessEnv} [env]  where the URL variables are read (process.env)
 * @property {string} [host]  host of the default local port (127.0.0.1)
 * @property {number} [defaultPort]  the usual local port (5432, 6379, 4222); tests point it elsewhere
 * @property {boolean} [install]  allow installing with apt-get as root (true)
 * @property {(line: string) => void} [logger]
 * @property {number} [readyTimeoutMs]
 * @property {string} [dataDir]  postgres only: data of the embedded test cluster (<DSS_DATA_DIR>/test)
 */

/**
 * @param {NodeJS.ProcessEnv} env
 * @param {string[]} names
 * @returns {{ name: string, value: string } | null}
 */
function urlFromEnv(env, names) {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return null;
}

/**
 * Connects for real and runs a query; returns null on success or the reason it failed.
 * @param {string} url
 * @returns {Promise<string | null>}
 */
async function postgresProblem(url) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message || String(err) : String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * @param {EnsureOptions} [options]
 * @returns {Promise<Service>}
 */
async function ensurePostgres(options = {}) {
  const { env = process.env, host = '127.0.0.1', defaultPort = 5432, logger = () => {} } = options;
  const fromEnv = urlFromEnv(env, ['DSS_TEST_DATABASE_URL', 'DATABASE_URL']);
  if (fromEnv) {
    const { host: h, port: p } = hostPort(fromEnv.value, 5432);
    const problem = await postgresProblem(fromEnv.value);
    if (problem)
      throw new InfraError(`PostgreSQL at ${fromEnv.name} (${h}:${p}) does not answer: ${problem}`);
    return { name: 'postgres', url: fromEnv.value, where: `${h}:${p} (from ${fromEnv.name})`, origin: 'env' };
  }

  // Tests create and drop their own databases, so they get the maintenance database of a superuser.
  const localUrl = `postgres://postgres@${host}:${defaultPort}/postgres`;
  const problem = await postgresProblem(localUrl);
  if (!problem)
    return {
      name: 'postgres',
      url: localUrl,
      where: `${host}:${defaultPort} (already running)`,
      origin: 'running',
    };
  logger(
    `postgres: nothing usable on ${host}:${defaultPort} as user postgres (${problem}); using the embedded one`,
  );

  const dir = options.dataDir ?? path.join(defaultDataDir(env), 'test');
  try {
    const pg = await startEmbeddedPostgres({
      dataDir: dir,
      defaultPort: TEST_POSTGRES_PORT,
      durable: false,
      logger: (line) => logger(`postgres: ${line}`),
    });
    const how = pg.reused ? 'embedded, reused the running server' : 'embedded';
    return {
      name: 'postgres',
      url: pg.adminUrl,
      where: `127.0.0.1:${pg.port} (${how}, data in ${displayPath(dir)})`,
      origin: 'started',
      stop: pg.stop,
    };
  } catch (err) {
    const reason = oneLine(err);
    throw new InfraError(
      `PostgreSQL is required: set DSS_TEST_DATABASE_URL, start PostgreSQL on ${host}:${defaultPort} (user postgres, trust auth), or fix the embedded one (${reason})`,
    );
  }
}

/**
 * @param {EnsureOptions} [options]
 * @returns {Promise<Service>}
 */
async function ensureRedis(options = {}) {
  const { env = process.env, host = '127.0.0.1', defaultPort = 6379, logger = () => {} } = options;
  const fromEnv = urlFromEnv(env, ['DSS_TEST_REDIS_URL', 'REDIS_URL']);
  if (fromEnv) {
    const { host: h, port: p } = hostPort(fromEnv.value, 6379);
    // A password-protected server answers PING with -NOAUTH: it is there, and the URL carries the password.
    // rediss:// is TLS, which a plain-text PING cannot check; the client will tell.
    if (!fromEnv.value.startsWith('rediss:') && !(await redisPing(h, p))) {
      throw new InfraError(`Redis at ${fromEnv.name} (${h}:${p}) does not answer PING`);
    }
    return { name: 'redis', url: fromEnv.value, where: `${h}:${p} (from ${fromEnv.name})`, origin: 'env' };
  }

  const reply = await redisPing(host, defaultPort);
  if (reply === '+PONG') {
    return {
      name: 'redis',
      url: `redis://${host}:${defaultPort}`,
      where: `${host}:${defaultPort} (already running)`,
      origin: 'running',
    };
  }
  if (reply)
    logger(`redis: ${host}:${defaultPort} answers PING with "${reply}"; starting a local redis-server`);

  const { binary, how } = await provideBinary({
    binary: 'redis-server',
    pkg: 'redis-server',
    install: options.install ?? true,
    logger,
    missing: `Redis is required: set DSS_TEST_REDIS_URL, start redis-server on ${host}:${defaultPort}, or install it`,
  });
  const port = await freePort();
  const child = await startChild({
    name: 'redis-server',
    command: binary,
    // Nothing is written to disk: test data is throw-away.
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
    ],
  }).catch((err) => {
    throw new InfraError(`Redis is required but ${binary} could not be run: ${oneLine(err)}`);
  });
  try {
    await waitFor(async () => ((await redisPing('127.0.0.1', port, 500)) === '+PONG' ? true : null), {
      timeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
      what: `redis-server on port ${port}`,
      abort: child.throwIfExited,
    });
  } catch (err) {
    await child.stop();
    throw new InfraError(`Redis is required but ${binary} did not start: ${oneLine(err)}`);
  }
  return {
    name: 'redis',
    url: `redis://127.0.0.1:${port}`,
    where: `127.0.0.1:${port} (${how} ${binary}, pid ${child.pid})`,
    origin: 'started',
    stop: child.stop,
  };
}

/**
 * @param {EnsureOptions} [options]
 * @returns {Promise<Service>}
 */
async function ensureNats(options = {}) {
  const { env = process.env, host = '127.0.0.1', defaultPort = 4222, logger = () => {} } = options;
  const fromEnv = urlFromEnv(env, ['DSS_TEST_NATS_URL', 'NATS_URL']);
  if (fromEnv) {
    const { host: h, port: p } = hostPort(fromEnv.value, 4222);
    const info = await natsInfo(h, p);
    if (!info) throw new InfraError(`NATS at ${fromEnv.name} (${h}:${p}) does not answer`);
    if (!info.jetstream) {
      throw new InfraError(
        `NATS at ${fromEnv.name} (${h}:${p}) has no JetStream: start it with nats-server -js`,
      );
    }
    return { name: 'nats', url: fromEnv.value, where: `${h}:${p} (from ${fromEnv.name})`, origin: 'env' };
  }

  const info = await natsInfo(host, defaultPort);
  if (info?.jetstream) {
    return {
      name: 'nats',
      url: `nats://${host}:${defaultPort}`,
      where: `${host}:${defaultPort} (already running)`,
      origin: 'running',
    };
  }
  if (info) logger(`nats: ${host}:${defaultPort} runs without JetStream; starting a local nats-server -js`);

  const { binary, how } = await provideBinary({
    binary: 'nats-server',
    pkg: 'nats-server',
    install: options.install ?? true,
    logger,
    missing: `NATS with JetStream is required: set DSS_TEST_NATS_URL, start nats-server -js on ${host}:${defaultPort}, or install it`,
  });
  const port = await freePort();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-nats-'));
  const removeStore = () => fs.rmSync(storeDir, { recursive: true, force: true });
  const child = await startChild({
    name: 'nats-server',
    command: binary,
    args: ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir],
    afterStop: removeStore,
  }).catch((err) => {
    removeStore();
    throw new InfraError(`NATS is required but ${binary} could not be run: ${oneLine(err)}`);
  });
  try {
    await waitFor(async () => ((await natsInfo('127.0.0.1', port, 500))?.jetstream ? true : null), {
      timeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
      what: `nats-server on port ${port}`,
      abort: child.throwIfExited,
    });
  } catch (err) {
    await child.stop();
    throw new InfraError(`NATS is required but ${binary} did not start: ${oneLine(err)}`);
  }
  return {
    name: 'nats',
    url: `nats://127.0.0.1:${port}`,
    where: `127.0.0.1:${port} (${how} ${binary} -js, pid ${child.pid})`,
    origin: 'started',
    stop: child.stop,
  };
}

/**
 * The server binary from PATH, else installed with apt-get when we may, else an InfraError built from
 * `missing` plus the install hint.
 * @param {{ binary: string, pkg: string, install: boolean, logger: (line: string) => void, missing: string }} o
 * @returns {Promise<{ binary: string, how: string }>}
 */
async function provideBinary({ binary, pkg, install, logger, missing }) {
  const found = findExecutable(binary);
  if (found) return { binary: found, how: 'started' };
  const hint = `apt-get install ${pkg}`;
  if (!install || !canAptInstall()) throw new InfraError(`${missing} (${hint})`);
  try {
    await aptInstall(pkg, (line) => logger(`${binary} not found; ${line}`));
  } catch (err) {
    throw new InfraError(`${missing} (${hint} failed here: ${oneLine(err)})`);
  }
  const installed = findExecutable(binary);
  if (!installed) throw new InfraError(`${missing} (${hint} succeeded but ${binary} is still not found)`);
  return { binary: installed, how: 'installed with apt-get and started' };
}

/**
 * @param {unknown} err
 * @returns {string}
 */
function oneLine(err) {
  const text = err instanceof Error ? err.message : String(err);
  return text.includes('\n') ? `${text.split('\n')[0].trim()} … ${lastLine(text)}` : text;
}

// provideBinary is exported for its test (the "nothing to start" message).
module.exports = { ensurePostgres, ensureRedis, ensureNats, InfraError, provideBinary };
