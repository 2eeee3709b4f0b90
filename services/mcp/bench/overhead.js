#!/usr/bin/env node
// What the MCP layer adds to a call: the same read (the patch contract) made N times in a row through
// @dss/client directly and as the get_patch_contract tool over Streamable HTTP (one McpServer per request),
// against the embedded stack. Needs the build (`npm run build`) and the test PostgreSQL (see the README).
//   node services/mcp/bench/overhead.js [N]
const { startTestSystem, TestPeople } = require('@dss/system');
const { createLogger, createMetrics } = require('@dss/platform');
const { createDssClient } = require('@dss/client');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { readMcpConfig, startHttpServer } = require('../dist');

const N = Number(process.argv[2] ?? 300);

/** A read-only token of an editor of a fresh team, made over accounts gRPC as the tests make theirs. */
async function tokenFor(system) {
  const people = new TestPeople(system.grpc.accounts);
  try {
    return (await people.member({ team: 'bench', role: 'editor' })).token;
  } finally {
    people.close();
  }
}

async function timed(name, call) {
  for (let i = 0; i < 20; i++) await call(); // warm-up
  const times = [];
  for (let i = 0; i < N; i++) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))].toFixed(2);
  console.log(`${name}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (${N} sequential calls)`);
}

async function main() {
  const system = await startTestSystem();
  const token = await tokenFor(system);
  const rest = createDssClient({ baseUrl: system.apiUrl, token });
  const logger = createLogger('mcp', { level: 'silent' });
  const http = await startHttpServer(
    readMcpConfig({ DSS_API_URL: system.apiUrl }),
    { port: 0, host: '127.0.0.1' },
    logger,
    createMetrics('mcp', { processMetrics: false }),
  );
  const mcp = new Client({ name: 'bench', version: '1.0.0' });
  const headers = { authorization: `Bearer ${token}` };
  await mcp.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
  try {
    await timed('REST through @dss/client', () => rest.getSchemaPatchContract());
    await timed('MCP get_patch_contract over HTTP', () =>
      mcp.callTool({ name: 'get_patch_contract', arguments: {} }),
    );
  } finally {
    await mcp.close();
    await http.stop();
    await system.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
