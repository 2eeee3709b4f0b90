// The lint tool: the findings of a diagram or of a proposal under the team's lint rules, the same list
// as GET /diagrams/{uuid}/lint and GET /proposals/{uuid}/lint.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { errorResult, jsonResult } from '../tool-results';
import { instrumented, type ToolContext } from './context';

export const lintOutput = {
  findings: z.array(
    z.object({
      rule: z.string(),
      severity: z.enum(['error', 'warning']),
      message: z.string(),
      table: z.string(),
      column: z.string().optional(),
    }),
  ),
  errors: z.number().int(),
  warnings: z.number().int(),
};

export function registerLintTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'get_lint_findings',
    {
      title: 'Lint findings',
      description:
        "Checks a diagram (diagram_uuid) or a proposal (proposal_uuid) against the team's lint rules: tables " +
        'without a primary key, foreign keys without an index or with a differing type, nullable foreign keys, ' +
        'naming convention, reserved words, too-wide tables and, for proposals, destructive changes. Each ' +
        'finding has rule, severity (error or warning), message, table and column. Give exactly one uuid. ' +
        'Fix errors before proposing: a team may refuse to apply proposals with lint errors.',
      inputSchema: {
        diagram_uuid: z.string().min(1).optional().describe("The diagram's uuid."),
        proposal_uuid: z.string().min(1).optional().describe("The proposal's uuid."),
      },
      outputSchema: lintOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    instrumented('get_lint_findings', context, async ({ diagram_uuid, proposal_uuid }) => {
      if ((diagram_uuid === undefined) === (proposal_uuid === undefined))
        return errorResult('invalid_request', 'give exactly one of diagram_uuid and proposal_uuid');
      const findings =
        diagram_uuid !== undefined
          ? await context.client.getDiagramLint(diagram_uuid)
          : await context.client.getProposalLint(proposal_uuid as string);
      const errors = findings.filter((finding) => finding.severity === 'error').length;
      return jsonResult({ findings, errors, warnings: findings.length - errors });
    }),
  );
}
