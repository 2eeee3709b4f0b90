// The system as `npm start` runs it: one Node process (scripts/start.js), every service inside it, the
// in-process bus, on a database of its own (DATABASE_URL, so no embedded server has to be initialised)
// and a data directory of its own (its signing keys). It can be killed or stopped and started again on
// the same database and data directory, as an operator restarts it. The demo token the first start
// prints is kept.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, waitFor } from '@dss/platform/testing';
import { REPO_ROOT } from './processes';

export interface OneProcessSystem {
  baseUrl: string;
  adminPort: number;
  /** The write token of the demo user the first start created. */
  token: string;
  child(): ChildProcess;
  output(): string;
  /** Sends `signal`; resolves when the process has exited, with its code and how long it took (ms). */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  /** Starts it again on the same database, data directory and ports; resolves when it is ready. */
  restart(): Promise<void>;
  /** Kills it if it runs, drops the database and removes the data directory. */
  destroy(): Promise<void>;
  /** Its data directory (with `embeddedPostgres`, the PostgreSQL cluster is in `postgres/` there). */
  dataDir: string;
}

export interface OneProcessOptions {
  /**
   * Run on the embedded PostgreSQL that `npm start` starts in its data directory, as a newcomer's first
   * start does (initdb included), instead of a database of the shared test server.
   */
  embeddedPostgres?: boolean;
  /**
   * Run on this existing database (e.g. one restored from a backup or written by an earlier release) instead
   * of a new one; it is left in place. No demo token is printed then: `token` is empty.
   */
  databaseUrl?: string;
  /** Copy these files into the data directory's keys/ first (the signing and session keys of a backup). */
  keysDir?: string;
}

export async function startOneProcessSystem(
  env: NodeJS.ProcessEnv = {},
  options: OneProcessOptions = {},
): Promise<OneProcessSystem> {
  const database: TestDatabase | null =
    options.embeddedPostgres || options.databaseUrl ? null : await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dss-one-process-'));
  if (options.keysDir) cpSync(options.keysDir, path.join(dataDir, 'keys'), { recursive: true });
  const [httpPort, webPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const fullEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    DSS_DATA_DIR: dataDir,
    DSS_HTTP_HOST: '127.0.0.1',
    DSS_HTTP_PORT: String(httpPort),
    DSS_WEB_HOST: '127.0.0.1',
    DSS_WEB_PORT: String(webPort),
    DSS_APP_URL: `http://127.0.0.1:${webPort}`,
    DSS_ADMIN_PORT: String(adminPort),
    ...Object.fromEntries(
      ['ACCOUNTS', 'CATALOG', 'DIAGRAMS', 'PROPOSALS', 'IMPORTER', 'NOTIFICATIONS'].map((name) => [
        `DSS_${name}_GRPC_ADDR`,
        '127.0.0.1:0',
      ]),
    ),
    DSS_RATE_LIMIT_IP_PER_MIN: '100000',
    DSS_RATE_LIMIT_READ_PER_MIN: '100000',
    DSS_RATE_LIMIT_SCHEMA_PER_MIN: '100000',
    DSS_RATE_LIMIT_WRITE_PER_MIN: '100000',
    ...env,
  };
  let child: ChildProcess;
  let printed = '';
  const spawnIt = () => {
    printed = '';
    child = spawn(process.execPath, ['scripts/start.js'], {
      cwd: REPO_ROOT,
      env: fullEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      printed = (printed + chunk.toString()).slice(-40_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  };
  const running = () => child.exitCode === null && child.signalCode === null;
  const untilReady = async () => {
    try {
      await waitFor(
        'the one-process system is ready',
        async () => {
          if (!running()) throw new Error(`it exited with ${child.exitCode ?? child.signalCode}`);
          // The banner comes after the demo seed, which needs every service.
          if (!/Press Ctrl-C to stop/.test(printed)) return false;
          return (await fetch(`http://127.0.0.1:${adminPort}/readyz`).catch(() => null))?.status === 200;
        },
        90_000,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${printed}`);
    }
  };
  const kill = (signal: NodeJS.Signals) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>((resolve) => {
      const started = Date.now();
      if (!running()) {
        resolve({ code: child.exitCode, signal: child.signalCode, ms: 0 });
        return;
      }
      // Bounded: a process that does not stop within 30 s is killed (and reported as killed).
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', (code, by) => {
        clearTimeout(timer);
        resolve({ code, signal: by, ms: Date.now() - started });
      });
      child.kill(signal);
    });

  spawnIt();
  try {
    await untilReady();
  } catch (error) {
    await end();
    throw error;
  }
  const token = /^\s*TOKEN=(\S+)$/m.exec(printed)?.[1];
  async function end() {
    // With its own PostgreSQL, a graceful stop stops that server too; a SIGKILL would leave it running.
    await kill(options.embeddedPostgres ? 'SIGTERM' : 'SIGKILL');
    if (options.embeddedPostgres) killLeftoverPostmaster(dataDir);
    await database?.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!token && !options.databaseUrl) throw new Error(`the first start printed no TOKEN= line:\n${printed}`);
  return {
    baseUrl: `http://127.0.0.1:${httpPort}/v1`,
    adminPort,
    token: token ?? '',
    child: () => child,
    output: () => printed,
    kill,
    async restart() {
      if (running()) throw new Error('it is still running; kill it first');
      spawnIt();
      await untilReady();
    },
    destroy: end,
    dataDir,
  };
}

/** The embedded server's postmaster, from its pid file, or null when none runs. */
export function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!(pid > 0)) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function killLeftoverPostmaster(dataDir: string): void {
  const pid = postmasterPid(dataDir);
  if (pid !== null) process.kill(pid, 'SIGQUIT');
}
