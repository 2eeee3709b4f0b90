// What only the HTTP mode has: the token comes from each request and is required, and /healthz.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, createMetrics } from '@dss/platform';
import { freePort } from '@dss/platform/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readMcpConfig, startHttpServer } from '../src';

/** The JSON-RPC error answer of a request the transport refuses. */
interface RpcErrorBody {
  error: { code: number; message: string };
}

describe('MCP Streamable HTTP transport', () => {
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    // No API behind it (a port nothing listens on): these requests are answered before any tool would
    // reach one, or show what a tool answers when the API is down.
    const config = readMcpConfig({ DSS_API_URL: `http://127.0.0.1:${await freePort()}/v1` });
    http = await startHttpServer(
      config,
      { port: 0, host: '127.0.0.1' },
      createLogger('mcp', { level: 'silent' }),
      createMetrics('mcp', { processMetrics: false }),
    );
  });
  afterAll(async () => {
    await http.stop();
  });

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('should answer 401 with a JSON-RPC error and WWW-Authenticate when no bearer token is sent', async () => {
    const response = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="dss", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: expect.stringMatching(/^unauthenticated: /) },
    });
  });

  it('should make the SDK client fail to connect without a token', async () => {
    const client = new Client({ name: 't', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(http.url)))).rejects.toThrow();
  });

  it('should initialize with a token and report the API as unavailable when a tool cannot reach it', async () => {
    const client = new Client({ name: 't', version: '1' });
    const headers = { authorization: 'Bearer some-token' };
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
    const result = await client.callTool({ name: 'get_patch_contract', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(/^unavailable: .*ECONNREFUSED/);
    await client.close();
  });

  it('should answer a body that is not JSON with a JSON-RPC parse error, not an HTML page', async () => {
    const response = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });

  it('should answer a body over the limit with 413', async () => {
    const response = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body: JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as RpcErrorBody).error.code).toBe(-32600);
  });

  it('should answer other paths with a JSON 404 naming /mcp', async () => {
    const response = await fetch(http.url.replace('/mcp', '/'));
    expect(response.status).toBe(404);
    expect(((await response.json()) as RpcErrorBody).error.message).toContain('/mcp');
  });

  it('should answer GET /healthz', async () => {
    const response = await fetch(http.url.replace('/mcp', '/healthz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('should refuse GET /mcp with 405: the server keeps no sessions', async () => {
    const response = await fetch(http.url, { headers: { authorization: 'Bearer x' } });
    expect(response.status).toBe(405);
  });
});

describe('MCP Streamable HTTP transport: the agent’s address', () => {
  // A stand-in for the REST API that records the X-Forwarded-For of each call and answers the contract.
  let api: Server;
  const forwarded: (string | undefined)[] = [];
  const mcpServers: Awaited<ReturnType<typeof startHttpServer>>[] = [];
  beforeAll(async () => {
    api = createServer((req, res) => {
      forwarded.push(req.headers['x-forwarded-for'] as string | undefined);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ type: 'object', properties: {} }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const server of mcpServers) await server.stop();
    await new Promise((resolve) => api.close(resolve));
  });

  async function callThrough(trustProxy: string, agentHeaders: Record<string, string>) {
    const { port } = api.address() as AddressInfo;
    const config = readMcpConfig({ DSS_API_URL: `http://127.0.0.1:${port}/v1`, DSS_TRUST_PROXY: trustProxy });
    const http = await startHttpServer(
      config,
      { port: 0, host: '127.0.0.1' },
      createLogger('mcp', { level: 'silent' }),
      createMetrics('mcp', { processMetrics: false }),
    );
    mcpServers.push(http);
    const client = new Client({ name: 't', version: '1' });
    const headers = { authorization: 'Bearer some-token', ...agentHeaders };
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
    forwarded.length = 0;
    const result = await client.callTool({ name: 'get_patch_contract', arguments: {} });
    await client.close();
    expect(result.isError).toBeFalsy();
    return [...forwarded];
  }

  it('should send the API the agent’s address from a trusted proxy as X-Forwarded-For', async () => {
    expect(await callThrough('loopback', { 'x-forwarded-for': '203.0.113.7' })).toEqual(['203.0.113.7']);
  });

  it('should send its own peer’s address when it trusts no proxy, whatever the agent claims', async () => {
    const sent = await callThrough('false', { 'x-forwarded-for': '203.0.113.7' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });
});
