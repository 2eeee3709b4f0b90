// The process entry as `npm run mcp` runs it (the built dist/main.js): stdio mode refuses to start without
// DSS_TOKEN, and HTTP mode starts beside `npm start`, whose admin server holds port 9090.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestStack, type TestStack } from '../../../packages/client/test/support/test-stack';
import { callTool } from './support/mcp-clients';

const MAIN = path.resolve(__dirname, '../dist/main.js');
/** The admin port of `npm start` (packages/system). */
const SYSTEM_ADMIN_PORT = 9090;

/** Runs main.js to its end; answers the exit code and everything written to stderr. */
async function runToExit(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** Holds `port` the way `npm start` does; if something already listens there, it is taken all the same. */
async function holdPort(port: number): Promise<net.Server | null> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(null) : reject(error),
    );
    server.listen(port, () => resolve(server));
  });
}

/** Spawns main.js and waits for its log lines saying the MCP and admin servers listen. */
async function startHttpMode(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; mcpPort: number; adminPort: number }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ports: { mcp?: number; admin?: number } = {};
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      for (const line of stderr.split('\n').slice(0, -1)) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'MCP server listening (Streamable HTTP)') ports.mcp = entry.port;
        if (entry.msg === 'admin server listening') ports.admin = entry.port;
      }
      if (ports.mcp !== undefined && ports.admin !== undefined)
        resolve({ child, mcpPort: ports.mcp, adminPort: ports.admin });
    });
    child.once('exit', (code) => reject(new Error(`main.js exited with ${code}:\n${stderr}`)));
  });
}

describe('dist/main.js', () => {
  describe('stdio mode', () => {
    it('should exit 1 with a one-line message when DSS_TOKEN is not set', async () => {
      const { code, stderr } = await runToExit([], { PATH: process.env.PATH ?? '' });
      expect(code).toBe(1);
      expect(stderr).toBe('config error: DSS_TOKEN is required in stdio mode (a personal access token)\n');
    });
  });

  describe('HTTP mode beside npm start', () => {
    let stack: TestStack;
    let held: net.Server | null;
    let child: ChildProcess | undefined;
    const env = () => ({
      PATH: process.env.PATH ?? '',
      DSS_API_URL: stack.apiUrl,
      DSS_APP_URL: stack.appUrl,
      DSS_SHUTDOWN_DRAIN_MS: '0',
      LOG_LEVEL: 'info',
    });

    beforeAll(async () => {
      stack = await startTestStack();
      held = await holdPort(SYSTEM_ADMIN_PORT);
    });
    afterAll(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      held?.close();
      await stack?.stop();
    });

    it('should start with port 9090 taken, put its admin server on 9091, and serve the SDK client', async () => {
      const started = await startHttpMode(['--http', '--port', '0', '--host', '127.0.0.1'], env());
      child = started.child;
      expect(started.adminPort).toBe(9091);

      const { token } = await stack.member();
      const client = new Client({ name: 'dss-mcp-test', version: '1.0.0' });
      const headers = { authorization: `Bearer ${token}` };
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${started.mcpPort}/mcp`), {
          requestInit: { headers },
        }),
      );
      expect(await callTool(client, 'list_diagrams')).toEqual({
        isError: false,
        text: JSON.stringify({ diagrams: [], next_cursor: null }),
      });
      await client.close();
      const ready = await fetch(`http://127.0.0.1:${started.adminPort}/readyz`);
      expect(ready.status).toBe(200);
    });

    it('should exit 1 naming the address when DSS_ADMIN_PORT is set to a port in use', async () => {
      const busy = net.createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      const port = (busy.address() as net.AddressInfo).port;
      try {
        const { code, stderr } = await runToExit(['--http', '--port', '0', '--host', '127.0.0.1'], {
          ...env(),
          DSS_ADMIN_PORT: String(port),
        });
        expect(code).toBe(1);
        expect(stderr).toContain(`EADDRINUSE`);
        expect(stderr).toContain(String(port));
      } finally {
        busy.close();
      }
    });
  });
});
