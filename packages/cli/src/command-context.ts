// What the live-database commands share: their context (clients, output, the exit code) and one-line errors.
import type { Clients } from './clients';

export interface SchemaCommandContext {
  clients: () => Clients;
  io: { stdout: (text: string) => void; stderr: (text: string) => void; env: NodeJS.ProcessEnv };
  exit: (code: number) => void;
}

/** One line for any failure: the API's code and message, or the error's first line. */
export function errorLine(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const first = (message ?? String(error)).split('\n')[0];
  return code && !/^E[A-Z]/.test(code) ? `${code}: ${first}` : (first ?? 'failed');
}
