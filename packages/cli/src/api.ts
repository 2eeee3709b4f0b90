// The REST API for commands that run where the database is (drift, lint): a personal access token from
// DSS_TOKEN, the API's root from DSS_API_URL (default the local `npm start`), as the MCP server reads them.
import { createDssClient, type DssClient } from '@dss/client';
import { UsageError } from './usage-error';

export function apiClient(env: NodeJS.ProcessEnv): DssClient {
  const token = env.DSS_TOKEN;
  if (!token) throw new UsageError('set DSS_TOKEN to a personal access token of the diagram’s team');
  return createDssClient({ baseUrl: env.DSS_API_URL ?? 'http://127.0.0.1:8080/v1', token });
}
