// The containerised stack that scripts/e2e-containers.js started, as it describes it in the JSON file named
// by E2E_CONTAINERS_STACK. The tests under e2e/test/containers/ run only from that script; without the
// variable, jest.config.js leaves them out of the run.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Stack } from './stack';

export interface ContainerComponent {
  container: string;
  ports: { admin: number; grpc?: number; http?: number };
  env: Record<string, string>;
}

export interface ContainerStack extends Stack {
  image: string;
  docker: string;
  appUrl: string;
  mcpUrl: string;
  databaseUrl: string;
  components: Record<string, ContainerComponent>;
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
