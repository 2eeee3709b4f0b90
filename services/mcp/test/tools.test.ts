// The SDK's own client over both transports against the embedded stack: the tool list, every tool's
// result, and the errors a model must be able to act on.
import {
  shopPatch,
  SHOP_DDL,
  startTestStack,
  type TestStack,
} from '../../../packages/client/test/support/test-stack';
import { createDssClient } from '@dss/client';
import { drawFromLocation } from '@dss/diagram-svg';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { callTool, type McpEndpoint, mcpEndpoint, type TransportName } from './support/mcp-clients';

const TOOL_NAMES = [
  'add_comment',
  'create_diagram',
  'diff_versions',
  'duplicate_diagram',
  'export_diagram',
  'get_data_types',
  'get_lint_findings',
  'get_patch_contract',
  'get_proposal_migration',
  'get_proposal_status',
  'get_schema',
  'list_diagrams',
  'list_review_threads',
  'list_revisions',
  'list_versions',
  'propose_diagram_changes',
  'propose_restore',
  'rename_diagram',
  'resolve_thread',
  'revise_proposal',
  'visualize_schema',
  'wait_for_review',
];

/** What the web app's /draw page draws from the link (its own code, as the browser runs it). */
function drawnTables(url: string): number {
  const { hash, search } = new URL(url);
  const drawn = drawFromLocation(hash, search);
  if (!drawn.ok) throw new Error(`the /draw page refuses the link: ${JSON.stringify(drawn)}`);
  return drawn.tableCount;
}

/** The patch inside a /draw link. */
function patchOfDrawUrl(url: string): { strategy: string; tables: { name: string }[] } {
  return JSON.parse(decodeURIComponent(url.slice(url.indexOf('#patch=') + '#patch='.length)));
}

describe.each<TransportName>(['stdio', 'http'])('MCP server over %s', (transport) => {
  let stack: TestStack;
  let endpoint: McpEndpoint;
  let editor: { token: string; team: string; email: string };
  let client: Client;
  let diagramUuid: string;

  beforeAll(async () => {
    // DSS_IMPORT_WAIT_MS=0: every DDL create answers 202 importing, so create_diagram has to wait.
    stack = await startTestStack({ DSS_IMPORT_WAIT_MS: '0' });
    endpoint = await mcpEndpoint(transport, { apiUrl: stack.apiUrl, appUrl: stack.appUrl });
    editor = await stack.member({ role: 'editor', write: true });
    client = await endpoint.connect(editor.token);
  });
  afterAll(async () => {
    await endpoint?.stop();
    await stack?.stop();
  });

  describe('tools/list', () => {
    it('should list the tools with descriptions and input schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
      for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(80);
      const propose = tools.find((tool) => tool.name === 'propose_diagram_changes')!;
      expect(propose.inputSchema.required?.sort()).toEqual(['diagram_uuid', 'message', 'patch', 'title']);
      const patch = propose.inputSchema.properties?.patch as { properties: Record<string, unknown> };
      expect(Object.keys(patch.properties)).toEqual(
        expect.arrayContaining(['strategy', 'tables', 'relationships', 'deletions']),
      );
      const dataTypes = tools.find((tool) => tool.name === 'get_data_types')!;
      expect(dataTypes.inputSchema.properties?.driver).toMatchObject({ enum: ['mysql', 'pgsql', 'sqlsrv'] });
    });
  });

  describe('protocol', () => {
    it('should offer the newest protocol version and not advertise tools.listChanged', () => {
      expect(client.getServerCapabilities()?.tools?.listChanged).not.toBe(true);
      // The SDK's client asks for the newest version it knows; the server agrees to it.
      expect(
        (client as unknown as { _transport?: { protocolVersion?: string } })._transport?.protocolVersion ??
          LATEST_PROTOCOL_VERSION,
      ).toBe(LATEST_PROTOCOL_VERSION);
    });

    it('should give every tool closed input schemas (no open additionalProperties) and an output schema', async () => {
      const { tools } = await client.listTools();
      const open: string[] = [];
      const visit = (node: unknown, at: string) => {
        if (Array.isArray(node)) {
          for (const [index, item] of node.entries()) visit(item, `${at}[${index}]`);
        } else if (node && typeof node === 'object') {
          const additional = (node as { additionalProperties?: unknown }).additionalProperties;
          // A map's typed values (`{"<table>": [names]}`) are fine; an open object (`{}` or true) is not.
          const isOpen =
            additional === true ||
            (typeof additional === 'object' && additional !== null && Object.keys(additional).length === 0);
          if (isOpen) open.push(at);
          for (const [key, child] of Object.entries(node)) visit(child, `${at}.${key}`);
        }
      };
      for (const tool of tools) visit(tool.inputSchema, tool.name);
      expect(open).toEqual([]);
      expect(tools.filter((tool) => !tool.outputSchema).map((tool) => tool.name)).toEqual([]);
    });

    it('should return structuredContent beside the text', async () => {
      const result = (await client.callTool({ name: 'list_diagrams', arguments: {} })) as {
        structuredContent?: { diagrams: unknown[] };
        content: { text: string }[];
      };
      expect(result.structuredContent?.diagrams).toEqual(expect.any(Array));
      expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    });

    if (transport === 'http') {
      it('should refuse a bad token at initialize with 401 and a resource_metadata challenge', async () => {
        const response = await fetch(endpoint.url!, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: 'Bearer not.a.token',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: LATEST_PROTOCOL_VERSION,
              capabilities: {},
              clientInfo: { name: 't', version: '1' },
            },
          }),
        });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(
          /^Bearer realm="dss", error="invalid_token", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
        );
      });

      it('should serve Protected Resource Metadata (RFC 9728) naming where a token comes from', async () => {
        const base = new URL(endpoint.url!);
        for (const path of [
          '/.well-known/oauth-protected-resource',
          '/.well-known/oauth-protected-resource/mcp',
        ]) {
          const response = await fetch(new URL(path, base));
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual({
            resource: endpoint.url,
            resource_name: expect.any(String),
            bearer_methods_supported: ['header'],
            resource_documentation: `${stack.appUrl.replace(/\/+$/, '')}/settings/tokens`,
          });
        }
      });
    }
  });

  describe('list_versions and diff_versions', () => {
    it("lists a new diagram's first version and shows what it added", async () => {
      const created = await callTool(client, 'create_diagram', {
        name: 'Versioned',
        driver: 'pgsql',
        patch: shopPatch(),
      });
      const { uuid } = JSON.parse(created.text) as { uuid: string };
      const versions = JSON.parse((await callTool(client, 'list_versions', { diagram_uuid: uuid })).text);
      expect(versions).toEqual({
        versions: [expect.objectContaining({ number: 1, source: 'create', proposal_uuid: null })],
        next_cursor: null,
      });
      const changes = await callTool(client, 'diff_versions', { diagram_uuid: uuid });
      expect(changes.isError).toBe(false);
      expect(changes.text).toMatch(/## Tables\n- added `/);
    });
  });

  describe('propose_restore', () => {
    it('should propose going back to a version; applied, the diagram is as it was', async () => {
      const created = await callTool(client, 'create_diagram', {
        name: 'Restorable',
        driver: 'pgsql',
        patch: shopPatch(),
      });
      const { uuid } = JSON.parse(created.text) as { uuid: string };
      const added = await callTool(client, 'propose_diagram_changes', {
        diagram_uuid: uuid,
        title: 'Add a table',
        message: 'To restore away.',
        patch: {
          strategy: 'additive',
          tables: [{ name: 'refunds', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
        },
      });
      await stack.review(JSON.parse(added.text).proposal_uuid, editor.email, 'apply');
      expect((await callTool(client, 'get_schema', { diagram_uuid: uuid })).text).toContain('refunds');

      const proposed = await callTool(client, 'propose_restore', {
        diagram_uuid: uuid,
        version: 1,
        title: 'Back to version 1',
        message: 'Undo what came after.',
      });
      expect(proposed.text).not.toMatch(/^\w+: /);
      const proposal = JSON.parse(proposed.text);
      expect(proposal).toMatchObject({ status: 'pending', counts: { deletions: 1 } });
      await stack.review(proposal.proposal_uuid, editor.email, 'apply');
      expect((await callTool(client, 'get_schema', { diagram_uuid: uuid })).text).not.toContain('refunds');
      const versions = JSON.parse((await callTool(client, 'list_versions', { diagram_uuid: uuid })).text);
      expect(versions.versions.map((version: { number: number }) => version.number)).toEqual([3, 2, 1]);

      const missing = await callTool(client, 'propose_restore', {
        diagram_uuid: uuid,
        version: 5,
        title: 'Back',
        message: 'No such version.',
      });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^not_found: /);
    });
  });

  describe('export_diagram and get_proposal_migration', () => {
    it('exports SQL, Mermaid and a PNG image, and gives a proposal its migration with warnings', async () => {
      const created = await callTool(client, 'create_diagram', {
        name: 'Exported',
        driver: 'pgsql',
        patch: shopPatch(),
      });
      const { uuid } = JSON.parse(created.text) as { uuid: string };
      const sql = await callTool(client, 'export_diagram', { diagram_uuid: uuid, format: 'sql' });
      expect(sql.isError).toBe(false);
      expect(sql.text).toMatch(/^CREATE TABLE "/m);
      const mermaid = await callTool(client, 'export_diagram', { diagram_uuid: uuid, format: 'mermaid' });
      expect(mermaid.text.startsWith('erDiagram\n')).toBe(true);
      const png = (await client.callTool({
        name: 'export_diagram',
        arguments: { diagram_uuid: uuid, format: 'png' },
      })) as { content: { type: string; mimeType?: string; data?: string }[] };
      expect(png.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(Buffer.from(png.content[0]!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

      const schema = (await callTool(client, 'get_schema', { diagram_uuid: uuid })).text;
      const firstTable = /^## (\S+)/m.exec(schema)?.[1] ?? '';
      const proposed = await callTool(client, 'propose_diagram_changes', {
        diagram_uuid: uuid,
        title: 'Drop a table',
        message: 'For the migration tool.',
        patch: { strategy: 'merge', deletions: { tables: [firstTable.replaceAll('`', '')] } },
      });
      const { proposal_uuid: proposal } = JSON.parse(proposed.text) as { proposal_uuid: string };
      const migration = await callTool(client, 'get_proposal_migration', { proposal_uuid: proposal });
      expect(migration.isError).toBe(false);
      expect(migration.text).toMatch(/^-- warning drops_table/);
      expect(migration.text).toContain('DROP TABLE');
    });
  });

  describe('create_diagram', () => {
    it('should create a ready diagram from a patch', async () => {
      const result = await callTool(client, 'create_diagram', {
        name: 'Shop',
        driver: 'pgsql',
        patch: shopPatch(),
      });
      expect(result.isError).toBe(false);
      const created = JSON.parse(result.text);
      expect(created).toMatchObject({
        status: 'ready',
        table_count: 2,
        replayed: false,
        counts: { tables: 2 },
      });
      expect(created.url).toMatch(/^http/);
      diagramUuid = created.uuid;
    });

    it('should wait for a DDL import that the API answered 202 and return the ready diagram', async () => {
      const result = await callTool(client, 'create_diagram', {
        name: 'Imported',
        driver: 'mysql',
        ddl: SHOP_DDL,
      });
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.text)).toMatchObject({ status: 'ready', table_count: 2 });
    });
  });

  describe('rename_diagram and duplicate_diagram', () => {
    it('should rename a diagram and describe it, its schema unchanged', async () => {
      const before = await callTool(client, 'get_schema', { diagram_uuid: diagramUuid });
      const result = await callTool(client, 'rename_diagram', {
        diagram_uuid: diagramUuid,
        name: 'Shop renamed',
        description: 'Renamed by an agent',
      });
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.text)).toMatchObject({
        uuid: diagramUuid,
        name: 'Shop renamed',
        description: 'Renamed by an agent',
      });
      expect((await callTool(client, 'get_schema', { diagram_uuid: diagramUuid })).text).toBe(before.text);
    });

    it('should duplicate a diagram into a new one with the same schema', async () => {
      const result = await callTool(client, 'duplicate_diagram', {
        diagram_uuid: diagramUuid,
        name: 'Shop copy',
      });
      expect(result.isError).toBe(false);
      const copy = JSON.parse(result.text);
      expect(copy).toMatchObject({
        name: 'Shop copy',
        status: 'ready',
        table_count: 2,
        counts: { tables: 2 },
      });
      expect(copy.uuid).not.toBe(diagramUuid);
      const original = await callTool(client, 'get_schema', { diagram_uuid: diagramUuid });
      expect((await callTool(client, 'get_schema', { diagram_uuid: copy.uuid })).text).toBe(original.text);
    });

    it('should refuse a viewer with editor_required and an unknown diagram with not_found', async () => {
      const viewer = await stack.member({ role: 'viewer', write: true, team: editor.team });
      const viewerClient = await endpoint.connect(viewer.token);
      const refused = await callTool(viewerClient, 'rename_diagram', {
        diagram_uuid: diagramUuid,
        name: 'No',
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^editor_required: /);
      const unknown = await callTool(client, 'duplicate_diagram', {
        diagram_uuid: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknown.text).toMatch(/^not_found: /);
    });
  });

  describe('read tools', () => {
    it('list_diagrams should list the created diagram', async () => {
      const result = await callTool(client, 'list_diagrams', { limit: 100 });
      const listed = JSON.parse(result.text);
      expect(listed.diagrams.map((d: { uuid: string }) => d.uuid)).toContain(diagramUuid);
      expect(listed.next_cursor).toBeNull();
    });

    it('get_schema should answer exactly the REST Markdown rendering at both levels', async () => {
      const rest = async (level: string) => {
        const response = await fetch(
          `${stack.apiUrl}/diagrams/${diagramUuid}/schema?format=ai&level=${level}`,
          {
            headers: { authorization: `Bearer ${editor.token}`, accept: 'text/markdown' },
          },
        );
        expect(response.status).toBe(200);
        return response.text();
      };
      const detailed = await callTool(client, 'get_schema', { diagram_uuid: diagramUuid });
      const simple = await callTool(client, 'get_schema', { diagram_uuid: diagramUuid, level: 'simple' });
      expect(detailed).toEqual({ isError: false, text: await rest('detailed') });
      expect(simple).toEqual({ isError: false, text: await rest('simple') });
      expect(detailed.text).toMatch(/bigint/i);
      expect(simple.text).not.toMatch(/bigint/i);
    });

    it("get_data_types should answer one driver's entries", async () => {
      const { driver, data_types: entries } = JSON.parse(
        (await callTool(client, 'get_data_types', { driver: 'sqlsrv' })).text,
      );
      expect(driver).toBe('sqlsrv');
      expect(entries.map((entry: { name: string }) => entry.name)).toEqual(
        expect.arrayContaining(['nvarchar', 'int']),
      );
    });

    it('get_patch_contract should answer the contract document', async () => {
      const { contract } = JSON.parse((await callTool(client, 'get_patch_contract')).text);
      expect(contract.type).toBe('object');
      expect(Object.keys(contract.properties)).toContain('deletions');
    });
  });

  describe('visualize_schema', () => {
    it('should link to /draw with the checked patch in the fragment', async () => {
      const patch = shopPatch();
      const result = await callTool(client, 'visualize_schema', { driver: 'pgsql', patch });
      expect(result.isError).toBe(false);
      const url = result.text.split('\n')[1]!;
      expect(url.startsWith(`${stack.appUrl}/draw?driver=pgsql#patch=`)).toBe(true);
      expect(patchOfDrawUrl(url)).toEqual(patch);
      expect(drawnTables(url)).toBe(2);
    });

    it('should convert DDL locally into a patch with its tables', async () => {
      const result = await callTool(client, 'visualize_schema', { driver: 'mysql', ddl: SHOP_DDL });
      const url = result.text.split('\n')[1]!;
      const patch = patchOfDrawUrl(url);
      expect(patch.strategy).toBe('merge');
      expect(patch.tables.map((t) => t.name).sort()).toEqual(['customers', 'orders']);
      expect(drawnTables(url)).toBe(2);
    });

    it('should answer a DDL syntax error with its code', async () => {
      const result = await callTool(client, 'visualize_schema', {
        driver: 'pgsql',
        ddl: 'CREATE TABLE broken (id int',
      });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^ddl_syntax_error: /);
    });
  });

  describe('proposals', () => {
    it('propose_diagram_changes should answer the review URL and counts, and get_proposal_status its state', async () => {
      const result = await callTool(client, 'propose_diagram_changes', {
        diagram_uuid: diagramUuid,
        title: 'Add status',
        message: 'Support filters orders by status',
        patch: {
          strategy: 'additive',
          tables: [{ name: 'orders', columns: [{ name: 'status', type: 'text' }] }],
        },
      });
      expect(result.isError).toBe(false);
      const proposal = JSON.parse(result.text);
      expect(proposal).toMatchObject({ status: 'pending', counts: { tables: 1, columns: 1, deletions: 0 } });
      expect(proposal.review_url).toMatch(/^http/);

      const status = JSON.parse(
        (await callTool(client, 'get_proposal_status', { proposal_uuid: proposal.proposal_uuid })).text,
      );
      expect(status).toMatchObject({ uuid: proposal.proposal_uuid, state: 'pending', applied_at: null });

      // The same findings as the API, and counts that match the status.
      const lint = JSON.parse(
        (await callTool(client, 'get_lint_findings', { proposal_uuid: proposal.proposal_uuid })).text,
      );
      const api = createDssClient({ baseUrl: stack.apiUrl, token: editor.token });
      expect(lint.findings).toEqual(await api.getProposalLint(proposal.proposal_uuid));
      expect({ errors: lint.errors, warnings: lint.warnings }).toEqual(status.lint);
      const diagramLint = JSON.parse(
        (await callTool(client, 'get_lint_findings', { diagram_uuid: diagramUuid })).text,
      );
      expect(diagramLint.findings).toEqual(await api.getDiagramLint(diagramUuid));
      const neither = await callTool(client, 'get_lint_findings', {});
      expect(neither.isError).toBe(true);
      expect(neither.text).toMatch(/^invalid_request: give exactly one/);
    });

    it('propose_diagram_changes should answer invalid_schema with one line per problem for a bad patch', async () => {
      const result = await callTool(client, 'propose_diagram_changes', {
        diagram_uuid: diagramUuid,
        title: 'Bad types',
        message: 'Two columns of unknown types',
        patch: {
          strategy: 'additive',
          tables: [
            {
              name: 'orders',
              columns: [
                { name: 'a', type: 'no_such_type' },
                { name: 'b', type: 'nor_this' },
              ],
            },
          ],
        },
      });
      expect(result.isError).toBe(true);
      expect(result.text.split('\n')).toEqual([
        expect.stringMatching(/^invalid_schema: /),
        expect.stringMatching(/^tables\[0\]\.columns\[0\]\.type: .+/),
        expect.stringMatching(/^tables\[0\]\.columns\[1\]\.type: .+/),
      ]);
    });
  });

  describe('tolerance rules', () => {
    it('should accept string booleans and numbers, which the API coerces', async () => {
      const result = await callTool(client, 'create_diagram', {
        name: 'Coerced',
        driver: 'pgsql',
        patch: {
          strategy: 'merge',
          tables: [
            {
              name: 'codes',
              columns: [
                { name: 'id', type: 'bigint', is_primary_key: 'true' },
                { name: 'code', type: 'varchar', length: '12', is_nullable: 'true' },
              ],
            },
          ],
        },
      });
      expect(result.isError).toBe(false);
      const rest = createDssClient({ baseUrl: stack.apiUrl, token: editor.token });
      const schema = await rest.getSchema(JSON.parse(result.text).uuid);
      const columns = schema.tables[0]!.columns;
      expect(columns.map((c) => [c.name, c.is_primary_key, c.is_nullable])).toEqual([
        ['id', true, false],
        ['code', false, true],
      ]);
      expect(columns[1]!.driver_data_type_params).toMatchObject({ length: 12 });
    });

    it('should leave a column without type to the API, which answers invalid_schema one problem per line', async () => {
      const result = await callTool(client, 'create_diagram', {
        driver: 'mysql',
        patch: {
          strategy: 'merge',
          tables: [{ name: 'things', columns: [{ name: 'a' }, { name: 'b', type: 'int' }, { name: 'c' }] }],
        },
      });
      expect(result.isError).toBe(true);
      expect(result.text.split('\n')).toEqual([
        expect.stringMatching(/^invalid_schema: /),
        expect.stringMatching(/^tables\[0\]\.columns\[0\]\.type: .+/),
        expect.stringMatching(/^tables\[0\]\.columns\[2\]\.type: .+/),
      ]);
    });

    it('should take a create_diagram name of 255 characters, the API limit', async () => {
      const name = 'n'.repeat(255);
      const result = await callTool(client, 'create_diagram', { name, patch: shopPatch() });
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.text).name).toBe(name);
    });
  });

  describe('errors', () => {
    it('should list invalid_schema problems one per line for a bad patch', async () => {
      const result = await callTool(client, 'create_diagram', {
        patch: {
          strategy: 'merge',
          tables: [
            {
              name: 'things',
              columns: [
                { name: 'a', type: 'no_such_type' },
                { name: 'b', type: 'nor_this' },
              ],
            },
          ],
        },
      });
      expect(result.isError).toBe(true);
      const [first, ...problems] = result.text.split('\n');
      expect(first).toMatch(/^invalid_schema: /);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^tables\[0\]\.columns\[0\]\.type: .+/);
      expect(problems[1]).toMatch(/^tables\[0\]\.columns\[1\]\.type: .+/);
    });

    it('should list the same problems from visualize_schema, checked without the API', async () => {
      const result = await callTool(client, 'visualize_schema', {
        driver: 'mysql',
        patch: {
          strategy: 'merge',
          tables: [{ name: 'things', columns: [{ name: 'a', type: 'no_such_type' }] }],
        },
      });
      expect(result.isError).toBe(true);
      expect(result.text.split('\n')).toEqual([
        expect.stringMatching(/^invalid_schema: /),
        expect.stringMatching(/^tables\[0\]\.columns\[0\]\.type: /),
      ]);
    });

    it('should refuse a DDL over 200KB before converting it', async () => {
      const ddl = `CREATE TABLE big (id int); -- ${'x'.repeat(205_000)}`;
      const result = await callTool(client, 'visualize_schema', { driver: 'mysql', ddl });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/ddl/);
    });

    it('should refuse a multi-byte DDL whose UTF-8 size is over 200KB with payload_too_large', async () => {
      const ddl = `CREATE TABLE big (id int); -- ${'é'.repeat(110_000)}`;
      const result = await callTool(client, 'visualize_schema', { driver: 'mysql', ddl });
      expect(result).toEqual({ isError: true, text: 'payload_too_large: ddl is over 200KB' });
    });

    it('should refuse both patch and ddl with invalid_request', async () => {
      const result = await callTool(client, 'create_diagram', { patch: shopPatch(), ddl: SHOP_DDL });
      expect(result).toEqual({
        isError: true,
        text: 'invalid_request: send exactly one of `patch` and `ddl`',
      });
    });

    it('should answer not_found for an unknown diagram', async () => {
      const result = await callTool(client, 'get_schema', {
        diagram_uuid: '00000000-0000-4000-8000-000000000000',
      });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^not_found: /);
    });

    it('should refuse the write tools to a read-only token with insufficient_scope', async () => {
      const reader = await stack.member({ role: 'editor', write: false, team: editor.team });
      const readOnly = await endpoint.connect(reader.token);
      expect((await callTool(readOnly, 'list_diagrams')).isError).toBe(false);
      const created = await callTool(readOnly, 'create_diagram', { patch: shopPatch() });
      expect(created.isError).toBe(true);
      expect(created.text).toMatch(/^insufficient_scope: /);
      const proposed = await callTool(readOnly, 'propose_diagram_changes', {
        diagram_uuid: diagramUuid,
        title: 'Add status',
        message: 'Read-only tokens cannot propose',
        patch: { strategy: 'additive', tables: [{ name: 'orders', columns: [{ name: 's', type: 'text' }] }] },
      });
      expect(proposed.isError).toBe(true);
      expect(proposed.text).toMatch(/^insufficient_scope: /);
    });

    it("should refuse a viewer's proposal with editor_required", async () => {
      const viewer = await stack.member({ role: 'viewer', write: true, team: editor.team });
      const viewerClient = await endpoint.connect(viewer.token);
      const result = await callTool(viewerClient, 'propose_diagram_changes', {
        diagram_uuid: diagramUuid,
        title: 'Drop orders',
        message: 'Not needed',
        patch: { strategy: 'merge', deletions: { tables: ['orders'] } },
      });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^editor_required: /);
    });
  });
});
