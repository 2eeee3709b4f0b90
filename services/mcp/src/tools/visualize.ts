// visualize_schema: a link to the web app's /draw page, which renders a patch client-side with no account.
// Nothing is stored and the API is not called: a patch is checked locally, DDL is converted locally.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MAX_DDL_BYTES, MAX_SCHEMA_BYTES } from '@dss/schema';
import { driverSchema, patchSchema } from '../patch-schema';
import { checkPatchLocally, exactlyOne, patchFromDdl } from '../schema-input';
import { errorResult } from '../tool-results';
import { visualizeOutput } from './outputs';
import { instrumented, type ToolContext } from './context';

export function drawUrl(appUrl: string, driver: string, patch: object): string {
  const base = appUrl.replace(/\/+$/, '');
  return `${base}/draw?driver=${encodeURIComponent(driver)}#patch=${encodeURIComponent(JSON.stringify(patch))}`;
}

export function registerVisualizeTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'visualize_schema',
    {
      title: 'Draw a schema',
      description:
        'Returns a link that draws a schema as a diagram in the web app at once, with no account and nothing ' +
        'stored. Give either `patch` (a schema patch; see get_patch_contract) or `ddl` (CREATE TABLE statements ' +
        'in the dialect of `driver`), not both. The patch or DDL is checked first; problems come back as ' +
        'errors, one per line. Use it to show a user a schema or a proposed design before saving anything.',
      inputSchema: {
        driver: driverSchema,
        patch: patchSchema.optional(),
        ddl: z.string().max(MAX_DDL_BYTES).optional().describe('SQL DDL, at most 200KB.'),
      },
      outputSchema: visualizeOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    instrumented('visualize_schema', context, async ({ driver, patch, ddl }) => {
      const wrong = exactlyOne(patch, ddl);
      if (wrong) return wrong;
      // The bounds of the API and of the /draw page, in UTF-8 bytes.
      if (ddl !== undefined && Buffer.byteLength(ddl) > MAX_DDL_BYTES)
        return errorResult('payload_too_large', `ddl is over ${MAX_DDL_BYTES / 1024}KB`);
      if (patch !== undefined && Buffer.byteLength(JSON.stringify(patch)) > MAX_SCHEMA_BYTES)
        return errorResult('payload_too_large', `patch is over ${MAX_SCHEMA_BYTES / 1024}KB`);
      const local =
        ddl !== undefined
          ? await patchFromDdl(ddl, driver, context.ddlPool)
          : checkPatchLocally(patch as object, driver);
      if (!local.ok) return local.result;
      const url = drawUrl(context.appUrl, driver, local.patch);
      const notes = local.warnings.length > 0 ? `\n\nNotes:\n${local.warnings.join('\n')}` : '';
      return {
        content: [{ type: 'text', text: `Open this link to see the diagram:\n${url}${notes}` }],
        structuredContent: { url, notes: local.warnings },
      };
    }),
  );
}
