// `npm run mcp` (stdio) and `npm run mcp -- --http --port N` (Streamable HTTP), parsed with commander.
import { Command, InvalidArgumentError } from 'commander';

export type McpMode = { transport: 'stdio' } | { transport: 'http'; port: number; host: string };

export const DEFAULT_HTTP_PORT = 8090;

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}

/** Parses the arguments after `node main.js`; throws commander's errors for a bad command line. */
export function parseArguments(argv: string[], output: { writeErr(text: string): void }): McpMode {
  const program = new Command('dss-mcp')
    .description('MCP server of the Diagram Schema Service: stdio by default, Streamable HTTP with --http')
    .option('--http', 'serve Streamable HTTP at /mcp instead of stdio (token from each request)', false)
    .option('--port <port>', `HTTP port (with --http; 0 picks a free one)`, portNumber, DEFAULT_HTTP_PORT)
    .option('--host <host>', 'HTTP listen address (with --http)', '0.0.0.0')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.writeErr(text),
      writeErr: (text) => output.writeErr(text),
    });
  program.parse(argv, { from: 'user' });
  const options = program.opts<{ http: boolean; port: number; host: string }>();
  return options.http
    ? { transport: 'http', port: options.port, host: options.host }
    : { transport: 'stdio' };
}
