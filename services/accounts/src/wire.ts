// Database rows to the proto's message shapes (timestamps as ISO 8601 strings).
import type { Plan, PlanTable } from './plans';
import { planCaps } from './plans';
import type { MembershipRow, TeamRow, TokenRow, UserRow } from './repository';

export function toTeam(team: TeamRow, plan: Plan) {
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    plan: team.plan,
    caps: planCaps(plan),
    api_access: plan.api_access,
    created_at: team.created_at.toISOString(),
    sso_only: team.sso_only,
  };
}

export function toUser(user: UserRow) {
  return { id: user.id, email: user.email, name: user.name, created_at: user.created_at.toISOString() };
}

/** A membership with its team's plan; the plan's caps when the plan table is at hand (else unlimited). */
export function toMembership(membership: MembershipRow, plans?: PlanTable) {
  const { team_plan, ...rest } = membership;
  const plan = plans?.get(team_plan);
  return {
    ...rest,
    created_at: membership.created_at.toISOString(),
    plan: team_plan,
    caps: plan ? planCaps(plan) : {},
  };
}

export function toTokenRecord(token: TokenRow) {
  return {
    id: token.id,
    name: token.name,
    team_slug: token.team_slug,
    user_email: token.user_email,
    write: token.write,
    created_at: token.created_at.toISOString(),
    expires_at: token.expires_at.toISOString(),
    ...(token.last_used_at ? { last_used_at: token.last_used_at.toISOString() } : {}),
    ...(token.revoked_at ? { revoked_at: token.revoked_at.toISOString() } : {}),
  };
}
