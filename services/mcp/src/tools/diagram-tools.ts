// Tools that change a diagram's name or copy it, never its schema (that stays proposals-only) and never
// delete one (the API has no delete). They need a token with write access whose user is an owner or editor
// of the team (else insufficient_scope or editor_required).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { jsonResult } from '../tool-results';
import { instrumented, type ToolContext } from './context';
import { diagramSummaryOutput } from './outputs';

export function registerDiagramTools(server: McpServer, context: ToolContext): void {
  const { client } = context;
  const diagramUuid = z.string().min(1).describe("The diagram's uuid.");

  server.registerTool(
    'rename_diagram',
    {
      title: 'Rename a diagram or change its description',
      description:
        'Changes the name and/or the description of an existing diagram; its schema does not change (schema ' +
        'changes go through propose_diagram_changes). Send at least one of name and description; an empty ' +
        'description clears it. Returns the diagram. Needs a token with write access whose user is an owner or ' +
        'editor of the team.',
      inputSchema: {
        diagram_uuid: diagramUuid,
        name: z.string().min(1).max(255).optional().describe('The new name, at most 255 characters.'),
        description: z
          .string()
          .max(2000)
          .optional()
          .describe('The new description, at most 2,000 characters; an empty string clears it.'),
      },
      outputSchema: diagramSummaryOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    instrumented('rename_diagram', context, async ({ diagram_uuid, name, description }) => {
      const diagram = await client.updateDiagram(diagram_uuid, {
        ...(name !== undefined ? { name } : {}),
        ...(description !== undefined ? { description } : {}),
      });
      return jsonResult(summary(diagram));
    }),
  );

  server.registerTool(
    'duplicate_diagram',
    {
      title: 'Duplicate a diagram',
      description:
        "Creates a new private diagram in the token's team with a copy of an existing diagram's schema and " +
        'layout (to try changes on a copy, say); the original does not change. The plan limits of a create apply ' +
        '(plan_limit). Returns the new diagram. Each call makes a new diagram. Needs a token with write access ' +
        'whose user is an owner or editor of the team.',
      inputSchema: {
        diagram_uuid: diagramUuid,
        name: z
          .string()
          .max(255)
          .optional()
          .describe('Name of the copy, at most 255 characters (default "<name> (copy)").'),
      },
      outputSchema: diagramSummaryOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    instrumented('duplicate_diagram', context, async ({ diagram_uuid, name }) => {
      const copy = await client.duplicateDiagram(diagram_uuid, name !== undefined ? { name } : {});
      return jsonResult({ ...summary(copy.data), counts: copy.counts });
    }),
  );
}

function summary(diagram: {
  uuid: string;
  name: string;
  description: string | null;
  status: 'ready' | 'importing' | 'failed';
  table_count: number | null;
  url: string;
}) {
  return {
    uuid: diagram.uuid,
    name: diagram.name,
    description: diagram.description,
    status: diagram.status,
    table_count: diagram.table_count ?? 0,
    url: diagram.url,
  };
}
