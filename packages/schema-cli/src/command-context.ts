// What the live-database commands share: their context (the REST API, output, the exit code, how this CLI
// creates a diagram or proposes a change) and one-line errors.
import type { DssClient } from '@dss/client';
import type { Command } from 'commander';
import type { Introspection } from './introspect';

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/**
 * How `introspect --create` and `--propose` reach the service: the operator CLI over gRPC as the member
 * `--email` (of `--team`), the developer CLI over the REST API as its token's user and team.
 */
export interface IntrospectPublisher {
  /** Adds the options this CLI needs for --create and --propose (the operator's --team and --email). */
  options(command: Command): Command;
  /** Checks them before the database is read; throws UsageError. */
  check(options: Record<string, unknown>, mode: 'create' | 'propose'): void;
  create(
    read: Introspection,
    name: string,
    options: Record<string, unknown>,
  ): Promise<{ uuid: string; status: string }>;
  propose(
    read: Introspection,
    diagramUuid: string,
    options: Record<string, unknown>,
  ): Promise<{ uuid: string; review_url: string }>;
}

export interface SchemaCommandContext {
  io: CommandIo;
  /** The REST API client (drift, lint --diagram, check); throws UsageError without a token. */
  api: () => DssClient;
  publisher: IntrospectPublisher;
  exit: (code: number) => void;
}

/** One line for any failure: the API's code and message, or the error's first line. */
export function errorLine(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const first = (message ?? String(error)).split('\n')[0];
  return code && !/^E[A-Z]/.test(code) ? `${code}: ${first}` : (first ?? 'failed');
}
