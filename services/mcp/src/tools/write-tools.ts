// Tools that write, and so need a token with write access (else insufficient_scope): creating a diagram and
// proposing a change to one for a person to review.
import { type Diagram, DssWaitTimeoutError } from '@dss/client';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MAX_DDL_BYTES } from '@dss/schema';
import { driverSchema, patchSchema } from '../patch-schema';
import { exactlyOne } from '../schema-input';
import { errorResult, jsonResult } from '../tool-results';
import { createDiagramOutput, proposeOutput } from './outputs';
import { instrumented, type ToolContext } from './context';

export function registerWriteTools(server: McpServer, context: ToolContext): void {
  const { client } = context;

  server.registerTool(
    'create_diagram',
    {
      title: 'Create a diagram',
      description:
        "Creates a new private diagram in the token's team from a schema patch (`patch`) or from SQL DDL (`ddl`), " +
        'not both, and waits until a DDL import has finished. A patch must define at least one table and must not ' +
        'carry left/top (the layout is computed). Returns the new diagram (uuid, url, table_count) and counts. ' +
        'Needs a token with write access. Repeating an identical call within two minutes returns the same ' +
        'diagram (replayed: true) rather than a second one. Only accepted calls count against the write limit ' +
        '(10 a minute per token): a refused patch costs nothing, so fix it from the returned errors and retry, or ' +
        'check it first with visualize_schema, which validates without writing.',
      inputSchema: {
        name: z
          .string()
          .max(255)
          .optional()
          .describe('Diagram name, at most 255 characters (default "Untitled").'),
        driver: driverSchema
          .optional()
          .describe('SQL dialect of the diagram: mysql (default), pgsql or sqlsrv.'),
        patch: patchSchema.optional(),
        ddl: z
          .string()
          .max(MAX_DDL_BYTES)
          .optional()
          .describe('SQL DDL (CREATE TABLE statements), at most 200KB.'),
      },
      outputSchema: createDiagramOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    instrumented('create_diagram', context, async ({ name, driver, patch, ddl }) => {
      const wrong = exactlyOne(patch, ddl);
      if (wrong) return wrong;
      const created = await client.createDiagram({
        ...(name !== undefined ? { name } : {}),
        ...(driver !== undefined ? { driver } : {}),
        ...(ddl !== undefined ? { ddl } : { schema: patch as never }),
      });
      let diagram: Pick<Diagram, 'uuid' | 'name' | 'status' | 'table_count' | 'url' | 'error'> = created.data;
      if (diagram.status === 'importing') {
        try {
          diagram = await client.waitForImport(created, { timeoutMs: context.importWaitMs });
        } catch (error) {
          if (!(error instanceof DssWaitTimeoutError)) throw error;
          return jsonResult({
            uuid: diagram.uuid,
            name: diagram.name,
            status: 'importing',
            url: diagram.url,
            next_step:
              'The import is still running. Call create_diagram again with exactly the same arguments within ' +
              'two minutes to keep waiting (the same diagram is returned, not a new one), or look for its ' +
              'status with list_diagrams.',
          });
        }
      }
      if (diagram.status === 'failed')
        return errorResult(
          diagram.error?.code ?? 'import_failed',
          `${diagram.error?.message ?? 'the DDL could not be imported'} (diagram ${diagram.uuid} was kept with status failed)`,
        );
      return jsonResult({
        uuid: diagram.uuid,
        name: diagram.name,
        status: diagram.status,
        table_count: diagram.table_count,
        url: diagram.url,
        counts: created.counts,
        warnings: created.warnings.map((w) => `${w.path || '(patch)'}: ${w.message}`),
        replayed: created.replayed,
      });
    }),
  );

  server.registerTool(
    'propose_restore',
    {
      title: 'Propose restoring an older version',
      description:
        'Proposes taking a diagram back to an older version (numbers from list_versions). A token cannot change ' +
        'an existing diagram, so this stores a proposal whose patch restores that version (its tables, columns, ' +
        'indexes, relationships, groups and positions; what was added since is deleted); nothing changes until ' +
        'a person with edit rights opens review_url and applies it. Check first what it undoes with ' +
        'diff_versions (from: that version, to: the newest). Needs a token with write access whose user may ' +
        'edit the diagram (else editor_required). Counts against the write limit like propose_diagram_changes.',
      inputSchema: {
        diagram_uuid: z.string().min(1).describe("The diagram's uuid."),
        version: z.number().int().min(1).describe('The version to go back to (1 is the oldest).'),
        title: z
          .string()
          .min(1)
          .max(100)
          .describe('Short title for the reviewer (plain text, at most 100 characters).'),
        message: z
          .string()
          .min(1)
          .max(500)
          .describe('Why the diagram should go back, for the reviewer (plain text, at most 500 characters).'),
      },
      outputSchema: proposeOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    instrumented('propose_restore', context, async ({ diagram_uuid, version, title, message }) => {
      const proposal = await client.proposeRestore(diagram_uuid, { version, title, message });
      return jsonResult({
        proposal_uuid: proposal.uuid,
        status: proposal.status,
        review_url: proposal.review_url,
        expires_at: proposal.expires_at,
        counts: proposal.counts,
        next_step:
          'Ask a person with edit rights to open review_url and apply or decline it; poll get_proposal_status.',
      });
    }),
  );

  server.registerTool(
    'propose_diagram_changes',
    {
      title: 'Propose a change to a diagram',
      description:
        'Proposes a schema patch to an existing diagram. Nothing changes until a person with edit rights opens ' +
        'review_url and applies it; give them that link. Before proposing: read the schema (get_schema), the data ' +
        "types of the diagram's driver (get_data_types) and the patch contract (get_patch_contract). Afterwards " +
        'poll get_proposal_status. Returns the proposal uuid, review_url and how many entries each section of the ' +
        'patch names. Needs a token with write access whose user may edit the diagram (else editor_required). ' +
        'Only accepted proposals count against the write limit (10 a minute per token): a refused patch costs ' +
        'nothing, so fix it from the returned errors and retry, or check it first with visualize_schema.',
      inputSchema: {
        diagram_uuid: z.string().min(1).describe("The diagram's uuid."),
        title: z
          .string()
          .min(1)
          .max(100)
          .describe('Short title for the reviewer (plain text, at most 100 characters).'),
        message: z
          .string()
          .min(1)
          .max(500)
          .describe('Why the change is needed, for the reviewer (plain text, at most 500 characters).'),
        patch: patchSchema,
      },
      outputSchema: proposeOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    instrumented('propose_diagram_changes', context, async ({ diagram_uuid, title, message, patch }) => {
      const proposal = await client.proposeChanges(diagram_uuid, { title, message, schema: patch as never });
      return jsonResult({
        proposal_uuid: proposal.uuid,
        status: proposal.status,
        review_url: proposal.review_url,
        expires_at: proposal.expires_at,
        counts: proposal.counts,
        next_step:
          'Ask a person with edit rights to open review_url and apply or decline it; poll get_proposal_status.',
      });
    }),
  );
}
