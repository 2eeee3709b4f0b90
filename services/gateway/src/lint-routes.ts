// The /v1 lint routes: findings of a diagram (linted here with the team's settings, the same engine as
// everywhere) and of a proposal (stored by proposals when it, or its latest revision, was sent), the team's
// settings (owners write them), and the documented rule list.
import { ServiceError, type ServiceClient } from '@dss/platform';
import {
  type DiagramDocument,
  type LintFinding,
  lintRuleList,
  lintSchema,
  parseLintConfig,
} from '@dss/schema';
import type { Principal } from './authenticator';
import type { RouteSpec } from './app';
import { objectBody } from './app';
import { uuidOf, wirePrincipal } from './diagram-routes';

type Finding = { rule: string; severity: string; message: string; table: string; column?: string | null };

/** The API's finding: `column` only where the finding is about one. */
export function findingOut(finding: Finding): LintFinding {
  return {
    rule: finding.rule,
    severity: finding.severity as LintFinding['severity'],
    message: finding.message,
    table: finding.table,
    ...(finding.column ? { column: finding.column } : {}),
  };
}

export function lintRoutes(
  diagrams: ServiceClient<'Diagrams'>,
  proposals: ServiceClient<'Proposals'>,
): RouteSpec[] {
  const teamSettings = async (principal: Principal) => {
    const { settings_json } = await proposals.GetLintSettings({ principal: wirePrincipal(principal) });
    const parsed = parseLintConfig(settings_json);
    if (!parsed.ok) throw new ServiceError('internal', 'the team’s stored lint settings could not be read');
    return parsed.config;
  };
  const settingsAnswer = (answer: { settings_json: string; updated_at: string }) => ({
    data: { settings: JSON.parse(answer.settings_json), updated_at: answer.updated_at || null },
  });

  return [
    {
      method: 'get',
      path: '/diagrams/:uuid/lint',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        const [full, config] = await Promise.all([
          diagrams.GetFullDocument({ principal: wirePrincipal(principal), uuid: uuidOf(req) }),
          teamSettings(principal),
        ]);
        const document = (JSON.parse(full.body) as { data: DiagramDocument }).data;
        res.status(200).json({ data: lintSchema(document, { config }) });
      },
    },
    {
      method: 'get',
      path: '/proposals/:uuid/lint',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const { findings } = await proposals.LintProposal({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
        });
        res.status(200).json({ data: findings.map(findingOut) });
      },
    },
    {
      method: 'get',
      path: '/lint-settings',
      operation: 'read',
      write: false,
      handler: async (_req, res, principal) => {
        res
          .status(200)
          .json(settingsAnswer(await proposals.GetLintSettings({ principal: wirePrincipal(principal) })));
      },
    },
    {
      method: 'post',
      path: '/lint-settings',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const answer = await proposals.SetLintSettings({
          principal: wirePrincipal(principal),
          settings_json: JSON.stringify(objectBody(req)),
        });
        res.status(200).json(settingsAnswer(answer));
      },
    },
    {
      method: 'get',
      path: '/lint-rules',
      operation: 'read',
      write: false,
      handler: async (_req, res) => {
        res.status(200).json({ data: lintRuleList() });
      },
    },
  ];
}
