// Lint in the proposals context: the team's settings (review policy: they decide whether a proposal may
// be applied, so they live here rather than with accounts), the findings of a proposed change, and the
// gRPC calls that read and write them.
import {
  invalidField,
  isUuid,
  recordAudit,
  ServiceError,
  type ServiceClient,
  type ServiceHandlers,
  withTransaction,
} from '@dss/platform';
import {
  type DiagramDocument,
  type LintConfig,
  type LintFinding,
  lintCounts,
  lintSchema,
  parseLintConfig,
} from '@dss/schema';
import type { Pool } from 'pg';
import { findLintSettings, saveLintSettings } from './lint-repository';
import * as repo from './repository';
import { callerOf, proposalNotFound } from './requests';

/** The team's effective settings: what it saved, else the defaults. */
export async function teamLintConfig(pool: Pool, teamId: string): Promise<LintConfig> {
  const saved = await findLintSettings(pool, teamId);
  const parsed = parseLintConfig(saved?.settings ?? null);
  // Saved settings were checked when written; a rule removed since then must not break proposals.
  return parsed.ok ? parsed.config : (parseLintConfig(null) as { ok: true; config: LintConfig }).config;
}

export function lintChange(
  before: DiagramDocument,
  after: DiagramDocument,
  config: LintConfig,
): LintFinding[] {
  return lintSchema(after, { config, before });
}

/** The refusal of an apply when the team requires a change without lint errors. */
export function lintGate(findings: LintFinding[], config: LintConfig): ServiceError | null {
  if (!config.require_no_errors || lintCounts(findings).errors === 0) return null;
  const errors = findings.filter((finding) => finding.severity === 'error');
  return new ServiceError(
    'conflict',
    `the team requires no lint errors before a proposal is applied, and this one has ${errors.length}`,
    { errors: errors.map((finding) => ({ path: `lint.${finding.rule}`, message: finding.message })) },
  );
}

const toWire = (finding: LintFinding) => ({ ...finding });

interface LintDeps {
  pool: Pool;
  accounts: ServiceClient<'Accounts'>;
}

type LintHandlers = Pick<
  ServiceHandlers<'Proposals'>,
  'LintProposal' | 'GetLintSettings' | 'SetLintSettings'
>;

export function createLintHandlers({ pool, accounts }: LintDeps): LintHandlers {
  /** The team and role of a settings call: the REST principal, or a web/CLI user's membership. */
  async function member(request: { principal?: unknown; team_id: string; user_id: string }) {
    if (request.principal) {
      const caller = callerOf(request.principal as Parameters<typeof callerOf>[0]);
      return { teamId: caller.teamId, userId: caller.userId, role: caller.role };
    }
    if (!isUuid(request.team_id)) throw invalidField('team_id', 'must be a UUID');
    if (!isUuid(request.user_id)) throw invalidField('user_id', 'must be a UUID');
    const membership = await accounts
      .GetMembership({ team_id: request.team_id.toLowerCase(), user_id: request.user_id.toLowerCase() })
      .catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'not_found')
          throw new ServiceError('forbidden', 'the user is not a member of the team');
        throw error;
      });
    return {
      teamId: request.team_id.toLowerCase(),
      userId: request.user_id.toLowerCase(),
      role: membership.role,
    };
  }

  async function answer(teamId: string) {
    const saved = await findLintSettings(pool, teamId);
    return {
      settings_json: JSON.stringify(await teamLintConfig(pool, teamId)),
      updated_at: saved ? saved.updated_at.toISOString() : '',
    };
  }

  return {
    async LintProposal(request) {
      const caller = callerOf(request.principal);
      if (!isUuid(request.uuid)) throw proposalNotFound();
      const row = await repo.findProposal(pool, request.uuid.toLowerCase());
      if (!row || row.team_id !== caller.teamId) throw proposalNotFound();
      return { findings: row.lint.map(toWire) };
    },

    async GetLintSettings(request) {
      const { teamId } = await member(request);
      return answer(teamId);
    },

    async SetLintSettings(request) {
      const { teamId, userId, role } = await member(request);
      if (role !== 'owner')
        throw new ServiceError('forbidden', 'only an owner of the team can change its lint settings');
      const parsed = parseLintConfig(request.settings_json);
      if (!parsed.ok)
        throw new ServiceError(
          'invalid_request',
          `the lint settings are not valid: ${parsed.problems[0]?.path || 'settings'} ${parsed.problems[0]?.message}`,
          {
            errors: parsed.problems.map((problem) => ({
              path: problem.path === '' ? 'settings' : problem.path,
              message: problem.message,
            })),
          },
        );
      await withTransaction(pool, async (client) => {
        const before = await findLintSettings(client, teamId);
        await saveLintSettings(client, teamId, userId, parsed.config);
        await recordAudit(client, repo.SCHEMA, {
          action: 'lint_settings.changed',
          team_id: teamId,
          target: { kind: 'lint_settings', id: teamId, name: 'Lint settings' },
          user_id: userId,
          details: { before: before?.settings ?? null, after: parsed.config },
        });
      });
      return answer(teamId);
    },
  };
}
