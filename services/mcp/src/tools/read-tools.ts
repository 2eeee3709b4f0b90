// Tools that only read: diagrams, a schema as Markdown, the data types of a driver, the patch contract and
// a proposal's state. All call the REST API with the caller's token.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { driverSchema } from '../patch-schema';
import { jsonResult } from '../tool-results';
import {
  dataTypesOutput,
  diffVersionsOutput,
  exportDiagramOutput,
  proposalMigrationOutput,
  listVersionsOutput,
  listDiagramsOutput,
  patchContractOutput,
  proposalStatusOutput,
  schemaOutput,
} from './outputs';
import { instrumented, type ToolContext } from './context';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const uuid = (what: string) => z.string().min(1).describe(`The ${what}'s uuid.`);

export function registerReadTools(server: McpServer, context: ToolContext): void {
  const { client } = context;

  server.registerTool(
    'list_diagrams',
    {
      title: 'List diagrams',
      description:
        'Lists the database-schema diagrams this token can see, most recently updated first, one page at a time. ' +
        'Each entry has uuid (used by every other tool), name, status (ready, importing or failed), table_count, ' +
        'updated_at and url (the diagram in the web app). When next_cursor is not null, call again with it as ' +
        '`cursor` for the next page.',
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional().describe('Page size, 1 to 100 (default 25).'),
        cursor: z.string().optional().describe('next_cursor of the previous page; omit for the first page.'),
      },
      outputSchema: listDiagramsOutput,
      annotations: READ_ONLY,
    },
    instrumented('list_diagrams', context, async ({ limit, cursor }) => {
      const page = await client.listDiagrams({ ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) });
      return jsonResult({
        diagrams: page.data.map((d) => ({
          uuid: d.uuid,
          name: d.name,
          description: d.description,
          status: d.status,
          table_count: d.table_count,
          updated_at: d.updated_at,
          url: d.url,
          ...(d.error ? { error: d.error } : {}),
        })),
        next_cursor: page.meta.next_cursor,
      });
    }),
  );

  server.registerTool(
    'get_schema',
    {
      title: "Read a diagram's schema",
      description:
        "Returns a diagram's schema (tables, columns, indexes, relationships) as compact Markdown, the same text " +
        'as GET /diagrams/{uuid}/schema?format=ai. Level `detailed` (default) carries types and constraints; ' +
        '`simple` carries column names only and is much shorter. Read this before proposing a change. A diagram ' +
        'still importing DDL answers diagram_not_ready.',
      inputSchema: {
        diagram_uuid: uuid('diagram'),
        level: z.enum(['detailed', 'simple']).optional().describe('detailed (default) or simple.'),
      },
      outputSchema: schemaOutput,
      annotations: READ_ONLY,
    },
    instrumented('get_schema', context, async ({ diagram_uuid, level }) => {
      const markdown = await client.getSchemaMarkdown(diagram_uuid, { level: level ?? 'detailed' });
      // The Markdown itself is the text (not JSON-quoted): that is what a model reads best.
      return { content: [{ type: 'text', text: markdown }], structuredContent: { markdown } };
    }),
  );

  server.registerTool(
    'get_data_types',
    {
      title: 'Data types of a driver',
      description:
        'The column data types of one database driver: name, aliases, the parameters each takes (length, ' +
        'precision, scale, values…), options (auto_increment, identity, unsigned, array) and a cross-driver ' +
        "family. A patch column's `type` must resolve against the catalog of the diagram's driver.",
      inputSchema: { driver: driverSchema },
      outputSchema: dataTypesOutput,
      annotations: READ_ONLY,
    },
    instrumented('get_data_types', context, async ({ driver }) => {
      const catalog = await client.listDataTypes(driver);
      return jsonResult({ driver, data_types: (catalog[driver] ?? []) as Record<string, unknown>[] });
    }),
  );

  server.registerTool(
    'get_patch_contract',
    {
      title: 'Schema patch contract',
      description:
        'The machine-readable contract of the schema patch that create_diagram, propose_diagram_changes and ' +
        'visualize_schema accept: every section and field with its type, description, enum values, whether it ' +
        'is required (a boolean per field), the tolerance rules and example patches. It looks like JSON Schema ' +
        'but is not one.',
      inputSchema: {},
      outputSchema: patchContractOutput,
      annotations: READ_ONLY,
    },
    instrumented('get_patch_contract', context, async () =>
      jsonResult({ contract: (await client.getSchemaPatchContract()) as Record<string, unknown> }),
    ),
  );

  server.registerTool(
    'get_proposal_status',
    {
      title: "A proposal's state",
      description:
        'The state of a proposal made with propose_diagram_changes: pending (awaiting review), applied (a person ' +
        'applied it; applied_version_uuid names the new diagram version), declined (decline_reason may say why) ' +
        'or expired (unreviewed after 30 days); with the review conversation: comment_count, open_thread_count, ' +
        'latest_revision and review (set when a reviewer requested changes; the state stays pending). To wait ' +
        'for the reviewer use wait_for_review instead of calling this repeatedly.',
      inputSchema: { proposal_uuid: uuid('proposal') },
      outputSchema: proposalStatusOutput,
      annotations: READ_ONLY,
    },
    instrumented('get_proposal_status', context, async ({ proposal_uuid }) =>
      jsonResult({ ...(await client.getProposal(proposal_uuid)) }),
    ),
  );

  server.registerTool(
    'list_versions',
    {
      title: "A diagram's versions",
      description:
        "Lists a diagram's versions, newest first: every change is one numbered version (1 is the oldest) " +
        'with its source (import, create, proposal, paste, layout), the applied proposal when there is one, ' +
        'and its author. Use the numbers with diff_versions to see what changed, for example what a proposal ' +
        'applied. When next_cursor is not null, call again with it as `cursor`.',
      inputSchema: {
        diagram_uuid: uuid('diagram'),
        limit: z.number().int().min(1).max(100).optional().describe('Page size, 1 to 100 (default 25).'),
        cursor: z.string().optional().describe('next_cursor of the previous page; omit for the first page.'),
      },
      outputSchema: listVersionsOutput,
      annotations: READ_ONLY,
    },
    instrumented('list_versions', context, async ({ diagram_uuid, limit, cursor }) => {
      const page = await client.listVersions(diagram_uuid, {
        ...(limit ? { limit } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return jsonResult({ versions: page.data, next_cursor: page.meta.next_cursor });
    }),
  );

  server.registerTool(
    'diff_versions',
    {
      title: 'What changed between two versions',
      description:
        'Shows what changed in a diagram between version `from` and version `to` (numbers from list_versions; ' +
        'default: the previous version to the current one) as compact Markdown: tables, columns with every ' +
        'attribute before and after, indexes and relationships added, changed (renames as renames) or removed.',
      inputSchema: {
        diagram_uuid: uuid('diagram'),
        from: z.number().int().min(1).optional().describe('The older version (default: to − 1).'),
        to: z.number().int().min(1).optional().describe('The newer version (default: the current one).'),
      },
      outputSchema: diffVersionsOutput,
      annotations: READ_ONLY,
    },
    instrumented('diff_versions', context, async ({ diagram_uuid, from, to }) => {
      const query = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
      const [data, markdown] = await Promise.all([
        client.diffVersions(diagram_uuid, query),
        client.diffVersionsMarkdown(diagram_uuid, query),
      ]);
      return {
        content: [{ type: 'text', text: markdown }],
        structuredContent: { from: data.from, to: data.to, markdown },
      };
    }),
  );

  server.registerTool(
    'export_diagram',
    {
      title: 'Export a diagram',
      description:
        "Writes a diagram out as code or as a picture: `sql` is a CREATE script for the diagram's database " +
        '(tables in dependency order, keys, indexes, foreign keys, defaults, comments) that runs on an empty ' +
        'database; `dbml` and `mermaid` (erDiagram) are text for docs and pull requests; `svg` is the drawing ' +
        'and `png` comes back as an image. `version` exports an older version (numbers from list_versions).',
      inputSchema: {
        diagram_uuid: uuid('diagram'),
        format: z.enum(['sql', 'dbml', 'mermaid', 'svg', 'png']).describe('What to write.'),
        version: z.number().int().min(1).optional().describe('The version (default: the current one).'),
      },
      outputSchema: exportDiagramOutput,
      annotations: READ_ONLY,
    },
    instrumented('export_diagram', context, async ({ diagram_uuid, format, version }) => {
      const query = version ? { version } : {};
      if (format === 'png') {
        const bytes = await client.exportDiagramPng(diagram_uuid, query);
        return {
          content: [{ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: 'image/png' }],
          structuredContent: { format, version: version ?? null, text: null },
        };
      }
      const text = await client.exportDiagram(diagram_uuid, format, query);
      return {
        content: [{ type: 'text', text }],
        structuredContent: { format, version: version ?? null, text },
      };
    }),
  );

  server.registerTool(
    'get_proposal_migration',
    {
      title: 'Migration SQL of a proposal',
      description:
        "The SQL a person would run to bring a database at the proposal's base version to the proposed " +
        'schema (renames as renames, ALTER TABLE statements in a safe order), with warnings for statements ' +
        'that drop data, narrow a type, add NOT NULL or change a primary key. Applying a proposal changes the ' +
        'diagram only; use this to hand the person the migration with the proposal.',
      inputSchema: { proposal_uuid: uuid('proposal') },
      outputSchema: proposalMigrationOutput,
      annotations: READ_ONLY,
    },
    instrumented('get_proposal_migration', context, async ({ proposal_uuid }) => {
      const migration = await client.getProposalMigration(proposal_uuid);
      const warnings = migration.warnings.map(
        (w) => `-- warning ${w.code} (statement ${w.statement}): ${w.message}`,
      );
      return {
        content: [{ type: 'text', text: [...warnings, migration.sql].join('\n') }],
        structuredContent: {
          sql: migration.sql,
          statements: migration.statements,
          warnings: migration.warnings,
        },
      };
    }),
  );
}
