// The system under test: the embedded stack started on free ports with a fresh database, or any running
// deployment when E2E_BASE_URL is set (then DSS_ACCOUNTS_GRPC_ADDR must reach its accounts service for
// the operator CLI, for example through a kubectl port-forward).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startTestSystem } from '@dss/system';

export interface Stack {
  /** Base URL of the API, ending in /v1. */
  baseUrl: string;
  /** Environment the operator CLI runs with. */
  cliEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** True when the suite runs against a deployment (E2E_BASE_URL) rather than a stack it starts itself. */
export function isExternalStack(): boolean {
  return Boolean(process.env.E2E_BASE_URL);
}

/**
 * The system under test. `env` configures a dedicated embedded stack (for example a low rate limit); a
 * deployment's configuration cannot be changed from here, so asking for one with E2E_BASE_URL set throws
 * (tests that need it skip themselves with `isExternalStack()`).
 */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    if (Object.keys(env).length > 0) {
      throw new Error(
        `startStack: E2E_BASE_URL is set, so the configuration ${Object.keys(env).join(', ')} cannot be applied`,
      );
    }
    return { baseUrl: external.replace(/\/+$/, ''), cliEnv: { ...process.env }, stop: async () => undefined };
  }
  const system = await startTestSystem(env);
  return {
    baseUrl: system.apiUrl,
    cliEnv: {
      ...process.env,
      DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts,
      DSS_PROPOSALS_GRPC_ADDR: system.grpc.proposals,
      LOG_LEVEL: 'silent',
    },
    stop: () => system.stop(),
  };
}

const CLI = path.resolve(__dirname, '../../scripts/dss.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI as a user would: a separate process, `node scripts/dss.js …`. */
export function dss(stack: Stack, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: stack.cliEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** A fresh team with one member of the given role, and a token for that member, made with the CLI. */
export async function teamMemberToken(
  stack: Stack,
  options: {
    team: string;
    email: string;
    role?: 'owner' | 'editor' | 'viewer';
    plan?: string;
    write?: boolean;
  },
): Promise<string> {
  const run = async (...args: string[]) => {
    const result = await dss(stack, ...args);
    if (result.code !== 0 && !/conflict/.test(result.stderr)) {
      throw new Error(`dss ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
    }
    return result;
  };
  await run(
    'team',
    'create',
    '--slug',
    options.team,
    '--name',
    options.team,
    '--plan',
    options.plan ?? 'team',
  );
  await run('user', 'create', '--email', options.email, '--name', options.email);
  await run(
    'member',
    'add',
    '--team',
    options.team,
    '--email',
    options.email,
    '--role',
    options.role ?? 'editor',
  );
  const created = await run(
    'token',
    'create',
    '--team',
    options.team,
    '--email',
    options.email,
    ...(options.write ? ['--write'] : []),
    '--json',
  );
  return (JSON.parse(created.stdout) as { token: string }).token;
}
