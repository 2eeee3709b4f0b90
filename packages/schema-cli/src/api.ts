// The REST API for the commands that run where the database is: a personal access token and the API's
// root, from the command line (the developer CLI's --token-file and --api-url) or from DSS_TOKEN and
// DSS_API_URL (default the local `npm start`), as the MCP server reads them.
import { readFileSync } from 'node:fs';
import { createDssClient, type DssClient } from '@dss/client';
import { UsageError } from './usage-error';

export const DEFAULT_API_URL = 'http://127.0.0.1:8080/v1';

export interface ApiSettings {
  /** The API's root, e.g. https://dss.example/v1 (else DSS_API_URL, else the local default). */
  apiUrl?: string;
  /** A file holding the token on its first line (else DSS_TOKEN): a token in argv would show in `ps`. */
  tokenFile?: string;
}

export function apiClient(env: NodeJS.ProcessEnv, settings: ApiSettings = {}): DssClient {
  let token = env.DSS_TOKEN;
  if (settings.tokenFile !== undefined) {
    try {
      token = readFileSync(settings.tokenFile, 'utf8').split(/\r?\n/)[0]?.trim();
    } catch (error) {
      throw new UsageError(
        `cannot read --token-file ${settings.tokenFile}: ${(error as NodeJS.ErrnoException).code}`,
      );
    }
  }
  if (!token)
    throw new UsageError('set DSS_TOKEN (or --token-file) to a personal access token of the diagram’s team');
  return createDssClient({ baseUrl: settings.apiUrl ?? env.DSS_API_URL ?? DEFAULT_API_URL, token });
}
