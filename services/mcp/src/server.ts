// One MCP server (the SDK's McpServer) with every tool, bound to one REST client. stdio mode makes one for
// the process; HTTP mode makes one per request, with a client carrying that request's token.
import { createDssClient, type DssClient } from '@dss/client';
import type { Logger, Metrics } from '@dss/platform';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpConfig } from './config';
import type { ConversionPool } from '@dss/ddl';
import { registerDiagramTools } from './tools/diagram-tools';
import { registerLintTool } from './tools/lint-tool';
import { registerReadTools } from './tools/read-tools';
import { registerReviewTools } from './tools/review-tools';
import { registerVisualizeTool } from './tools/visualize';
import { registerWriteTools } from './tools/write-tools';

export const SERVER_INFO = { name: 'diagram-schema-service', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Tools over the Diagram Schema Service, which keeps database-schema diagrams. Recommended order for a ' +
  'change: get_schema (read the diagram), get_data_types for its driver and get_patch_contract, then ' +
  'propose_diagram_changes, then wait_for_review (it returns when the reviewer acts; read list_review_threads, ' +
  'answer with add_comment and send revise_proposal when changes are requested). A proposal changes nothing ' +
  'until a person applies it. rename_diagram and duplicate_diagram change a name or copy a diagram, never a schema. Errors start with a code (invalid_schema, editor_required, insufficient_scope, …) and list problems ' +
  'one per line as `path: message`; fix those paths and call again.';

export interface McpServerDependencies {
  client: DssClient;
  appUrl: string;
  importWaitMs: number;
  ddlPool: ConversionPool;
  logger: Logger;
  metrics: Metrics;
}

export function createMcpServer(dependencies: McpServerDependencies): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerReadTools(server, dependencies);
  registerVisualizeTool(server, dependencies);
  registerWriteTools(server, dependencies);
  registerReviewTools(server, dependencies);
  registerDiagramTools(server, dependencies);
  registerLintTool(server, dependencies);
  // The tool list is fixed for the server's life, so the server never sends list_changed: do not offer it.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/**
 * The server acting with `token` (stdio: DSS_TOKEN; HTTP: the request's bearer) against `config.apiUrl`;
 * `ddlPool` is the process's one.
 */
export function createMcpServerWithToken(
  config: McpConfig,
  token: string,
  ddlPool: ConversionPool,
  logger: Logger,
  metrics: Metrics,
  /** HTTP mode: the agent's address, sent to the API as X-Forwarded-For. */
  agentAddress?: string,
): McpServer {
  const headers = agentAddress ? { 'x-forwarded-for': agentAddress } : undefined;
  const client = createDssClient({ baseUrl: config.apiUrl, token, headers });
  return createMcpServer({
    client,
    appUrl: config.appUrl,
    importWaitMs: config.importWaitMs,
    ddlPool,
    logger,
    metrics,
  });
}
