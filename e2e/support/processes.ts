// The system as a cluster runs it, on this machine: every service its own process, started the way the
// image starts it (`node --require @dss/platform/tracing/preload services/<name>/dist/main.js`) and
// configured only by environment variables, as the Helm chart configures its pods. They share a fresh
// database (one schema each), a nats-server of their own (so the default stream names cannot meet another
// test's) and the test Redis under a key prefix of their own. All start at once, in no order, as pods do.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  freePort,
  OwnNats,
  type TestDatabase,
  testRedisUrl,
  waitFor,
} from '@dss/platform/testing';
import type { Stack } from './stack';

/** The repository: the first folder up from here that holds services/ (from the sources or from dist). */
export const REPO_ROOT = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir))
    if (existsSync(path.join(dir, 'services', 'gateway'))) return dir;
  throw new Error(`no services/ folder above ${__dirname}`);
})();
export const GRPC_SERVICES = [
  'accounts',
  'diagrams',
  'proposals',
  'catalog',
  'importer',
  'notifications',
] as const;
export const HTTP_SERVICES = ['gateway', 'web', 'mcp'] as const;
export type ServiceName = (typeof GRPC_SERVICES)[number] | (typeof HTTP_SERVICES)[number];

export interface ServiceProcess {
  name: ServiceName;
  adminPort: number;
  /** gRPC services: host:port. */
  grpcAddress?: string;
  child: ChildProcess;
  /** Everything it printed (its JSON logs), for the failure message of a test. */
  output(): string;
}

export interface ProcessStack extends Stack {
  appUrl: string;
  /** The stack's own nats-server, to stop and resume (an outage). */
  nats: OwnNats;
  mcpUrl: string;
  services: Record<ServiceName, ServiceProcess>;
  /** SIGTERM to every process; resolves with each one's exit code (null when it had to be killed). */
  terminate(): Promise<Record<ServiceName, number | null>>;
  /**
   * Sends `signal` to the named processes (default all) and waits for them to exit (SIGKILL after 20 s);
   * the database, NATS and Redis stay. Resolves with each one's exit code (null when killed by a signal).
   */
  kill(signal: NodeJS.Signals, names?: readonly ServiceName[]): Promise<Record<string, number | null>>;
  /** Starts the named processes (default all) again with the same configuration and waits until ready. */
  restart(names?: readonly ServiceName[]): Promise<void>;
}

/**
 * Starts every service. `env` adds or overrides variables per service, as a values file does for the chart
 * (for example the kind values' higher rate limits, which the whole e2e suite needs against one stack).
 */
export async function startProcessStack(
  env: Partial<Record<ServiceName, NodeJS.ProcessEnv>> = {},
): Promise<ProcessStack> {
  const nats = await OwnNats.start();
  const database: TestDatabase = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dss-processes-'));
  const ports = async (n: number) => Promise.all(Array.from({ length: n }, () => freePort()));
  const [httpPort, webPort, mcpPort] = await ports(3);
  const grpcPorts = await ports(GRPC_SERVICES.length);
  const grpc = Object.fromEntries(GRPC_SERVICES.map((name, i) => [name, `127.0.0.1:${grpcPorts[i]}`]));
  const appUrl = `http://127.0.0.1:${webPort}`;
  const baseUrl = `http://127.0.0.1:${httpPort}/v1`;

  // What the chart gives every pod: the bus, the app URL, where each gRPC service listens or is reached.
  const common: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    NATS_URL: nats.url,
    DSS_APP_URL: appUrl,
    DSS_DATA_DIR: dataDir,
    DSS_SHUTDOWN_DRAIN_MS: '200',
    ...Object.fromEntries(GRPC_SERVICES.map((name) => [`DSS_${name.toUpperCase()}_GRPC_ADDR`, grpc[name]])),
  };
  const own: Record<ServiceName, NodeJS.ProcessEnv> = {
    accounts: { DATABASE_URL: database.url },
    diagrams: { DATABASE_URL: database.url },
    proposals: { DATABASE_URL: database.url },
    catalog: {},
    importer: {},
    // Receivers of tests listen on loopback.
    notifications: { DATABASE_URL: database.url, DSS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    gateway: {
      DSS_HTTP_HOST: '127.0.0.1',
      DSS_HTTP_PORT: String(httpPort),
      REDIS_URL: testRedisUrl(),
      DSS_RATE_LIMIT_KEY_PREFIX: `e2e-processes:${randomUUID()}`,
      DSS_IMPORT_WAIT_MS: '10000',
    },
    web: { DSS_WEB_HOST: '127.0.0.1', DSS_WEB_PORT: String(webPort) },
    mcp: {
      DSS_MCP_TRANSPORT: 'http',
      DSS_MCP_HTTP_HOST: '127.0.0.1',
      DSS_MCP_HTTP_PORT: String(mcpPort),
      DSS_API_URL: baseUrl,
    },
  };

  const names = [...GRPC_SERVICES, ...HTTP_SERVICES];
  const adminPorts = await ports(names.length);
  const spawnService = (name: ServiceName, adminPort: number): ServiceProcess => {
    const child = spawn(
      process.execPath,
      ['--require', '@dss/platform/tracing/preload', `services/${name}/dist/main.js`],
      {
        cwd: REPO_ROOT,
        env: { ...common, ...own[name], ...env[name], DSS_ADMIN_PORT: String(adminPort) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let printed = '';
    const keep = (chunk: Buffer) => {
      printed = (printed + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    return {
      name,
      adminPort,
      grpcAddress: (grpc as Record<string, string | undefined>)[name],
      child,
      output: () => printed,
    };
  };
  const services = Object.fromEntries(
    names.map((name, i) => [name, spawnService(name, adminPorts[i] as number)]),
  ) as Record<ServiceName, ServiceProcess>;

  const cleanUp = async () => {
    await nats.destroy();
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const terminate = async () => {
    const codes = await Promise.all(
      names.map(async (name) => [name, await stopProcess(services[name].child)] as const),
    );
    return Object.fromEntries(codes) as Record<ServiceName, number | null>;
  };

  try {
    await Promise.all(names.map((name) => waitUntilReady(services[name])));
  } catch (error) {
    await terminate();
    await cleanUp();
    throw error;
  }
  return {
    baseUrl,
    appUrl,
    mcpUrl: `http://127.0.0.1:${mcpPort}/mcp`,
    nats,
    cliEnv: {
      ...process.env,
      DSS_ACCOUNTS_GRPC_ADDR: grpc.accounts,
      DSS_PROPOSALS_GRPC_ADDR: grpc.proposals,
      LOG_LEVEL: 'silent',
    },
    services,
    terminate,
    async kill(signal, which = names) {
      const codes = await Promise.all(
        which.map(async (name) => [name, await stopProcess(services[name].child, signal)] as const),
      );
      return Object.fromEntries(codes);
    },
    async restart(which = names) {
      for (const name of which) {
        if (services[name].child.exitCode === null && services[name].child.signalCode === null)
          throw new Error(`${name} is still running; kill it first`);
        services[name] = spawnService(name, services[name].adminPort);
      }
      await Promise.all(which.map((name) => waitUntilReady(services[name])));
    },
    async stop() {
      await terminate();
      await cleanUp();
    },
  };
}

/** Until its /readyz answers 200 (migrations done, dependencies reachable), or why not. */
async function waitUntilReady(service: ServiceProcess): Promise<void> {
  const ready = async () => {
    if (service.child.exitCode !== null)
      throw new Error(`${service.name} exited with ${service.child.exitCode}:\n${service.output()}`);
    try {
      return (await fetch(`http://127.0.0.1:${service.adminPort}/readyz`)).status === 200;
    } catch {
      return false;
    }
  };
  try {
    await waitFor(`${service.name} is ready`, ready, 90_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${service.output()}`);
  }
}

/** SIGTERM (or `signal`), then the exit code; SIGKILL (and null) if it has not exited within 20 s. */
function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill(signal);
  });
}
