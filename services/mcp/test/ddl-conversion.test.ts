// visualize_schema converts DDL in a worker thread under DSS_MCP_DDL_TIMEOUT_MS and DSS_MCP_DDL_MAX_HEAP_MB:
// a conversion over either limit answers a tool error, the server answers other calls meanwhile, and the
// next conversion gets a fresh worker.
import {
  SHOP_DDL,
  shopPatch,
  startTestStack,
  type TestStack,
} from '../../../packages/client/test/support/test-stack';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, type McpEndpoint, mcpEndpoint, type TransportName } from './support/mcp-clients';

/**
 * A SQL Server script just under the 200KB DDL limit: ~1-2 s to convert in a fresh worker (the first T-SQL
 * parse of a thread warms ANTLR), ~150-190MB of heap.
 */
function largeSqlServerScript(): string {
  const tables: string[] = [];
  for (let i = 0, size = 0; size < 190_000; i++) {
    const table =
      `CREATE TABLE [dbo].[t${i}] ([id] INT IDENTITY(1,1) NOT NULL, [name] NVARCHAR(100) NULL, ` +
      `[amount] DECIMAL(10,2) DEFAULT 0, [created] DATETIME2 NOT NULL, ` +
      `CONSTRAINT [pk_t${i}] PRIMARY KEY CLUSTERED ([id] ASC));\nGO\n`;
    tables.push(table);
    size += table.length;
  }
  return tables.join('');
}

/** The table names inside a visualize_schema answer's /draw link. */
function drawnTableNames(text: string): string[] {
  const url = text.split('\n')[1]!;
  const patch = JSON.parse(decodeURIComponent(url.slice(url.indexOf('#patch=') + '#patch='.length)));
  return patch.tables.map((table: { name: string }) => table.name).sort();
}

describe.each<TransportName>(['stdio', 'http'])('visualize_schema DDL limits over %s', (transport) => {
  const slowDdl = largeSqlServerScript();
  let stack: TestStack;
  const endpoints: McpEndpoint[] = [];
  let token: string;

  beforeAll(async () => {
    stack = await startTestStack();
    ({ token } = await stack.member());
  });
  afterAll(async () => {
    for (const endpoint of endpoints) await endpoint.stop();
    await stack?.stop();
  });

  async function connect(env: Record<string, string>): Promise<Client> {
    const endpoint = await mcpEndpoint(transport, stack, env);
    endpoints.push(endpoint);
    return endpoint.connect(token);
  }

  it('should answer ddl_timeout past DSS_MCP_DDL_TIMEOUT_MS, serve other calls meanwhile, and convert the next DDL', async () => {
    const client = await connect({ DSS_MCP_DDL_TIMEOUT_MS: '400' });
    const finished: string[] = [];
    const slow = callTool(client, 'visualize_schema', { driver: 'sqlsrv', ddl: slowDdl }).finally(() =>
      finished.push('ddl'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // the conversion is under way
    const quick = await callTool(client, 'visualize_schema', { driver: 'pgsql', patch: shopPatch() });
    finished.push('patch');

    expect(await slow).toEqual({
      isError: true,
      text: 'ddl_timeout: the DDL could not be converted within 0.4 s; send fewer tables at a time',
    });
    expect(quick.isError).toBe(false);
    expect(finished).toEqual(['patch', 'ddl']);

    // The next DDL gets a fresh worker. A loaded machine can need more than 0.4 s for a cold worker's first
    // parse, so it may answer ddl_timeout too: up to three tries, and a broken worker never converts.
    let next = await callTool(client, 'visualize_schema', { driver: 'mysql', ddl: SHOP_DDL });
    for (let tries = 1; tries < 3 && next.text.startsWith('ddl_timeout'); tries += 1)
      next = await callTool(client, 'visualize_schema', { driver: 'mysql', ddl: SHOP_DDL });
    expect(next.isError).toBe(false);
    expect(drawnTableNames(next.text)).toEqual(['customers', 'orders']);
    expect((await callTool(client, 'list_diagrams')).isError).toBe(false);
  });

  it('should answer ddl_internal_error when the conversion outgrows DSS_MCP_DDL_MAX_HEAP_MB, and convert the next DDL', async () => {
    // 32 MB holds the MySQL reader and a small script, not a 190KB SQL Server script (since the T-SQL reader
    // became lighter, 64 MB holds that too).
    // No time limit in the way: a worker near its heap cap collects garbage for a long time before it gives
    // up, well past the default 30 s on a loaded machine.
    const client = await connect({ DSS_MCP_DDL_MAX_HEAP_MB: '32', DSS_MCP_DDL_TIMEOUT_MS: '100000' });
    const result = await callTool(client, 'visualize_schema', { driver: 'sqlsrv', ddl: slowDdl });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^ddl_internal_error: the conversion stopped \(.*memory.*\)/);

    const next = await callTool(client, 'visualize_schema', { driver: 'mysql', ddl: SHOP_DDL });
    expect(drawnTableNames(next.text)).toEqual(['customers', 'orders']);
  });
});
