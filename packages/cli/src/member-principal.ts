// The principal of a team member as the web app builds a person's (no token), from accounts' team, user
// and membership records: what the operator acts as in `diagram …` and `webhook …` (`--team`, `--email`).
import type { Clients } from './clients';

/** The proto's Principal as a client sends it. */
export type WirePrincipal = NonNullable<Parameters<Clients['diagrams']['UpdateDiagram']>[0]['principal']>;

export async function memberPrincipal(
  clients: Clients,
  options: { team: string; email: string },
): Promise<WirePrincipal> {
  const { accounts } = clients;
  const team = await accounts.GetTeam({ slug: options.team, id: '' });
  const user = await accounts.GetUser({ email: options.email, id: '' });
  const membership = await accounts.GetMembership({ team_id: team.id, user_id: user.id });
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
    caps: team.caps ?? {},
    expires_at: '',
  };
}
