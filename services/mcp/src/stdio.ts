// stdio mode, for an agent that starts the server as a child process: JSON-RPC on stdin/stdout, so every log
// line goes to stderr. One REST client for the process, with the token from DSS_TOKEN.
import type { Logger, Metrics } from '@dss/platform';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpConfig } from './config';
import { ddlConversionPool } from './schema-input';
import { createMcpServerWithToken } from './server';

export async function runStdio(config: McpConfig & { token: string }, logger: Logger, metrics: Metrics) {
  const ddlPool = ddlConversionPool(config);
  const server = createMcpServerWithToken(config, config.token, ddlPool, logger, metrics);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  logger.info({ apiUrl: config.apiUrl }, 'MCP server listening on stdio');
  return {
    async stop() {
      await server.close();
      await ddlPool.close();
    },
  };
}
