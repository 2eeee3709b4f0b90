// Configuration of the MCP server, from the environment (the one config loader of packages/platform).
// The token is used in stdio mode only: in HTTP mode every request brings its own.
import { env } from '@dss/platform';

export const TRANSPORTS = ['stdio', 'http'] as const;

export interface McpConfig {
  /** stdio (default) or http (DSS_MCP_TRANSPORT; `--http` on the command line says the same). */
  transport: (typeof TRANSPORTS)[number];
  /** HTTP mode: listen port and address (DSS_MCP_HTTP_PORT, DSS_MCP_HTTP_HOST; `--port`, `--host` win). */
  httpPort: number;
  httpHost: string;
  /** The REST API's versioned root (DSS_API_URL). */
  apiUrl: string;
  /** The web app, for the /draw links of visualize_schema (DSS_APP_URL). */
  appUrl: string;
  /** stdio mode: the personal access token every call uses (DSS_TOKEN). */
  token: string | undefined;
  /** HTTP mode: health, readiness and metrics port (DSS_ADMIN_PORT). */
  adminPort: number;
  /** visualize_schema: a DDL conversion running longer is stopped with `ddl_timeout` (DSS_MCP_DDL_TIMEOUT_MS). */
  ddlTimeoutMs: number;
  /** visualize_schema: heap cap of the conversion worker thread, in MB (DSS_MCP_DDL_MAX_HEAP_MB). */
  ddlMaxHeapMb: number;
  /** How long create_diagram waits for a DDL import before answering `importing` (DSS_MCP_IMPORT_WAIT_MS). */
  importWaitMs: number;
  /**
   * HTTP mode: Express `trust proxy` (DSS_TRUST_PROXY), so the agent's address is known behind an ingress;
   * it is passed to the API as X-Forwarded-For, so the gateway's per-IP limit counts each agent, not this
   * server.
   */
  trustProxy: boolean | number | string;
}

export function readMcpConfig(source: NodeJS.ProcessEnv = process.env): McpConfig {
  return {
    transport: env.string('DSS_MCP_TRANSPORT', { default: 'stdio', allowed: TRANSPORTS }, source),
    httpPort: env.int('DSS_MCP_HTTP_PORT', { default: 8090, min: 0, max: 65535 }, source),
    httpHost: env.string('DSS_MCP_HTTP_HOST', { default: '0.0.0.0' }, source),
    apiUrl: env.url(
      'DSS_API_URL',
      { default: 'http://localhost:8080/v1', protocols: ['http', 'https'] },
      source,
    ),
    appUrl: env.url(
      'DSS_APP_URL',
      { default: 'http://localhost:8081', protocols: ['http', 'https'] },
      source,
    ),
    token: env.optionalString('DSS_TOKEN', source),
    // Not 9090: that is the admin port of `npm start`, which runs on the same machine as a local MCP server.
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9091, min: 0, max: 65535 }, source),
    // The importer's conversion limit. A 200KB SQL Server script takes ~1-2 s and ~150-190MB of heap.
    ddlTimeoutMs: env.int('DSS_MCP_DDL_TIMEOUT_MS', { default: 30_000, min: 1, max: 600_000 }, source),
    ddlMaxHeapMb: env.int('DSS_MCP_DDL_MAX_HEAP_MB', { default: 512, min: 16, max: 16_384 }, source),
    // Longer than the importer's own 30 s conversion limit, shorter than a proxy's usual 60 s read timeout.
    importWaitMs: env.int('DSS_MCP_IMPORT_WAIT_MS', { default: 45_000, min: 0, max: 3_600_000 }, source),
    trustProxy: env.trustProxy('DSS_TRUST_PROXY', source),
  };
}
