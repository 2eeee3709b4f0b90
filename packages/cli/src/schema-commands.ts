// The operator's side of the schema commands (packages/schema-cli): `introspect --create` and `--propose`
// act as the member `--email` (of `--team` for a new diagram) over gRPC; drift, lint and check talk to the
// REST API with DSS_TOKEN (DSS_API_URL).
import type { ServiceClient } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import {
  apiClient,
  type IntrospectPublisher,
  introspectionProposal,
  patchToLive,
  registerSchemaCommands,
  UsageError,
} from '@dss/schema-cli';
import { createScript } from '@dss/sql';
import type { Command } from 'commander';
import type { Clients } from './clients';

type Principal = Parameters<ServiceClient<'Diagrams'>['GetDiagram']>[0]['principal'];

/** The principal of `email` in a team, as the gateway would resolve it from one of their tokens. */
async function principalIn(clients: Clients, teamSlug: string, email: string): Promise<Principal> {
  const team = await clients.accounts.GetTeam({ slug: teamSlug, id: '' });
  const user = await clients.accounts.GetUser({ email, id: '' });
  const membership = await clients.accounts.GetMembership({ team_id: team.id, user_id: user.id });
  return {
    token_id: '',
    user_id: user.id,
    user_email: user.email,
    user_name: user.name,
    team_id: team.id,
    team_slug: team.slug,
    team_name: team.name,
    role: membership.role,
    write: true,
    plan: team.plan,
    caps: team.caps,
    expires_at: '',
  };
}

/** The principal of `email` in whichever of their teams holds the diagram. */
async function principalForDiagram(clients: Clients, email: string, diagramUuid: string) {
  const user = await clients.accounts.GetUser({ email, id: '' });
  const { memberships } = await clients.accounts.ListMemberships({ user_id: user.id });
  for (const membership of memberships) {
    const principal = await principalIn(clients, membership.team_slug, email);
    const found = await clients.diagrams.GetDiagram({ principal, uuid: diagramUuid }).catch(() => null);
    if (found) return principal;
  }
  throw new UsageError(`no diagram ${diagramUuid} in any team of ${email}`);
}

function operatorPublisher(clients: () => Clients): IntrospectPublisher {
  return {
    options: (command) =>
      command
        .option('--team <slug>', 'the team of the new diagram (with --create)')
        .option('--email <email>', 'the user acting (with --create or --propose)'),
    check(options, mode) {
      if (!options.email) throw new UsageError('--email is required');
      if (mode === 'create' && !options.team) throw new UsageError('--team is required with --create');
    },
    async create(read, name, options) {
      const principal = await principalIn(clients(), String(options.team), String(options.email));
      // The CREATE script of what was read goes through the importer, as a DDL upload does: the diagram
      // keeps foreign-key names and actions, which a schema patch cannot carry.
      const created = await clients().diagrams.CreateDiagram({
        principal,
        name,
        driver: read.document.driver,
        ddl: createScript(read.document).sql,
        wait_ms: 60_000,
      });
      return { uuid: created.diagram?.uuid ?? '', status: created.diagram?.status ?? '' };
    },
    async propose(read, diagramUuid, options) {
      const principal = await principalForDiagram(clients(), String(options.email), diagramUuid);
      const full = await clients().diagrams.GetFullDocument({ principal, uuid: diagramUuid });
      const current = (JSON.parse(full.body) as { data: DiagramDocument }).data;
      const proposal = await clients().proposals.CreateProposal({
        principal,
        diagram_uuid: diagramUuid,
        schema_json: JSON.stringify(patchToLive(current, read.document)),
        ...introspectionProposal(read.source),
      });
      return { uuid: proposal.uuid, review_url: proposal.review_url };
    },
  };
}

export function registerOperatorSchemaCommands(
  program: Command,
  context: {
    clients: () => Clients;
    io: { stdout: (text: string) => void; stderr: (text: string) => void; env: NodeJS.ProcessEnv };
    exit: (code: number) => void;
  },
): void {
  registerSchemaCommands(program, {
    io: context.io,
    api: () => apiClient(context.io.env),
    publisher: operatorPublisher(context.clients),
    exit: context.exit,
  });
}
