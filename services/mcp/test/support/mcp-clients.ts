// The SDK's own MCP client, connected to our server over either transport: stdio (the built server spawned
// as a child process, token in its environment) or Streamable HTTP (the server started in this process on a
// free port, token in each request's Authorization header).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger, createMetrics } from '@dss/platform';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readMcpConfig, startHttpServer } from '../../src';

export type TransportName = 'stdio' | 'http';

const BUILT_SERVER = path.resolve(__dirname, '../../dist/main.js');

export interface McpEndpoint {
  /** A connected SDK client acting with `token`. */
  connect(token: string): Promise<Client>;
  stop(): Promise<void>;
  /** HTTP mode: the MCP endpoint's URL (for requests outside the SDK client). */
  url?: string;
}

export async function mcpEndpoint(
  transport: TransportName,
  urls: { apiUrl: string; appUrl: string },
  env: Record<string, string> = {},
): Promise<McpEndpoint> {
  const clients: Client[] = [];
  const track = (client: Client) => {
    clients.push(client);
    return client;
  };
  const closeAll = () => Promise.all(clients.map((client) => client.close()));

  if (transport === 'stdio') {
    if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run npm run build first`);
    return {
      async connect(token) {
        const client = track(new Client({ name: 'dss-mcp-test', version: '1.0.0' }));
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [BUILT_SERVER],
            env: {
              PATH: process.env.PATH ?? '',
              DSS_API_URL: urls.apiUrl,
              DSS_APP_URL: urls.appUrl,
              DSS_TOKEN: token,
              LOG_LEVEL: 'silent',
              ...env,
            },
            stderr: 'inherit',
          }),
        );
        return client;
      },
      async stop() {
        await closeAll();
      },
    };
  }

  const config = readMcpConfig({ DSS_API_URL: urls.apiUrl, DSS_APP_URL: urls.appUrl, ...env });
  const logger = createLogger('mcp', { level: 'silent' });
  const http = await startHttpServer(
    config,
    { port: 0, host: '127.0.0.1' },
    logger,
    createMetrics('mcp', { processMetrics: false }),
  );
  return {
    url: http.url,
    async connect(token) {
      const client = track(new Client({ name: 'dss-mcp-test', version: '1.0.0' }));
      const headers = { authorization: `Bearer ${token}` };
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }),
      );
      return client;
    },
    async stop() {
      await closeAll();
      await http.stop();
    },
  };
}

/** The text of a tool result (every tool answers one text item). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  if (content.length !== 1 || first?.type !== 'text')
    throw new Error(`expected one text item: ${JSON.stringify(content)}`);
  return first.text;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, text: textOf(result) };
}
