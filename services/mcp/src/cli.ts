// `npm run mcp` (stdio) and `npm run mcp -- --http --port N` (Streamable HTTP), parsed with commander.
// Flags win over the environment (DSS_MCP_TRANSPORT, DSS_MCP_HTTP_PORT, DSS_MCP_HTTP_HOST), which is how
// the Helm chart, whose components all run `node services/<name>/dist/main.js`, picks HTTP mode.
import { Command, InvalidArgumentError } from 'commander';
import type { McpConfig } from './config';

export type McpMode = { transport: 'stdio' } | { transport: 'http'; port: number; host: string };

export interface McpFlags {
  http: boolean;
  port?: number;
  host?: string;
}

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}

/** Parses the arguments after `node main.js`; throws commander's errors for a bad command line. */
export function parseArguments(argv: string[], output: { writeErr(text: string): void }): McpFlags {
  const program = new Command('dss-mcp')
    .description('MCP server of the Diagram Schema Service: stdio by default, Streamable HTTP with --http')
    .option('--http', 'serve Streamable HTTP at /mcp instead of stdio (token from each request)', false)
    .option('--port <port>', 'HTTP port (default DSS_MCP_HTTP_PORT or 8090; 0 picks a free one)', portNumber)
    .option('--host <host>', 'HTTP listen address (default DSS_MCP_HTTP_HOST or 0.0.0.0)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.writeErr(text),
      writeErr: (text) => output.writeErr(text),
    });
  program.parse(argv, { from: 'user' });
  return program.opts<McpFlags>();
}

/** The mode to run: flags first, then the configuration. */
export function chooseMode(flags: McpFlags, config: McpConfig): McpMode {
  if (!flags.http && config.transport === 'stdio') return { transport: 'stdio' };
  return { transport: 'http', port: flags.port ?? config.httpPort, host: flags.host ?? config.httpHost };
}
