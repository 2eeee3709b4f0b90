// The containerised stack that scripts/e2e-containers.js started, as it describes it in the JSON file named
// by E2E_CONTAINERS_STACK. The tests under e2e/test/containers/ run only from that script; without the
// variable, jest.config.js leaves them out of the run.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { promisify } from 'node:util';
import { dss, type Stack, teamMemberToken } from './stack';

export interface ContainerComponent {
  container: string;
  /** The chart component this is a replica of (`gateway` for `gateway` and `gateway-2`). */
  component: string;
  /** 1 for the first replica. */
  replica: number;
  ports: { admin: number; grpc?: number; http?: number };
  env: Record<string, string>;
}

export interface ContainerStack extends Stack {
  image: string;
  docker: string;
  appUrl: string;
  mcpUrl: string;
  databaseUrl: string;
  /** Every replica by id: the component's name for the first, `<name>-<n>` for the others. */
  components: Record<string, ContainerComponent>;
  /** The run's own servers, each in a container: PostgreSQL, Redis, and HAProxy in front of the gateways. */
  infra: Record<'postgres' | 'redis' | 'lb', { container: string; port: number }>;
}

/** The replicas of a component, first replica first. */
export function replicasOf(stack: ContainerStack, component: string): ContainerComponent[] {
  return Object.values(stack.components)
    .filter((replica) => replica.component === component)
    .sort((a, b) => a.replica - b.replica);
}

const stackFile = process.env.E2E_CONTAINERS_STACK;

export function containerStack(): ContainerStack {
  if (!stackFile) throw new Error('E2E_CONTAINERS_STACK is not set: run scripts/e2e-containers.sh');
  const described = JSON.parse(readFileSync(stackFile, 'utf8')) as Omit<ContainerStack, 'cliEnv' | 'stop'>;
  return {
    ...described,
    cliEnv: { ...process.env, LOG_LEVEL: 'silent' },
    stop: async () => undefined,
  };
}

const run = promisify(execFile);

/** A docker command's standard output. */
export async function docker(stack: ContainerStack, ...args: string[]): Promise<string> {
  return (await run(stack.docker, args, { maxBuffer: 16 * 1024 * 1024 })).stdout;
}

/** Until the component's /readyz answers 200. */
export async function waitUntilReady(component: ContainerComponent, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${component.ports.admin}/readyz`)).status === 200) return;
    } catch {
      // not listening (yet)
    }
    if (Date.now() > deadline) throw new Error(`${component.container} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface Answer {
  status: number;
  body: string;
  retryAfter?: string;
  /** X-RateLimit-Remaining, when the gateway counted the request. */
  remaining?: number;
  /** The gateway replica that answered (X-DSS-Replica, set by the run's load balancer). */
  replica?: string;
  ms: number;
  startedAt: number;
  endedAt: number;
}

/**
 * One request through the load balancer on a connection of its own (no keep-alive reuse: a request either
 * reaches a server or is refused, never races a closing idle socket), from a client address of its own
 * behind the trusted proxy hop (`clientAddress`, else a random 10.x one), so the gateway's per-IP limit
 * counts load requests apart.
 */
export function request(
  stack: ContainerStack,
  method: string,
  path: string,
  token: string,
  json?: unknown,
  clientAddress = `10.${randomBytes(3).join('.')}`,
): Promise<Answer> {
  const url = new URL(`${stack.baseUrl}${path}`);
  const startedAt = Date.now();
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'x-forwarded-for': clientAddress,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          const remaining = res.headers['x-ratelimit-remaining'];
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            retryAfter: res.headers['retry-after'] as string | undefined,
            remaining: remaining === undefined ? undefined : Number(remaining),
            replica: res.headers['x-dss-replica'] as string | undefined,
            ms: Date.now() - startedAt,
            startedAt,
            endedAt: Date.now(),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `count` write tokens of one editor of a fresh team on the enterprise plan (no caps): one member made with
 * the CLI, then a token each (rate limits count per token). One CLI run per extra token, not four: on a
 * loaded machine each run takes seconds.
 */
export async function editorTokens(stack: ContainerStack, team: string, count: number): Promise<string[]> {
  const email = `${team}@containers.test`;
  const tokens = [
    await teamMemberToken(stack, { team, email, role: 'editor', plan: 'enterprise', write: true }),
  ];
  while (tokens.length < count) {
    const created = await dss(
      stack,
      'token',
      'create',
      '--team',
      team,
      '--email',
      email,
      '--write',
      '--json',
    );
    if (created.code !== 0) throw new Error(`dss token create failed (${created.code}): ${created.stderr}`);
    tokens.push((JSON.parse(created.stdout) as { token: string }).token);
  }
  return tokens;
}
