// Database rows to the proto's message shapes (timestamps as ISO 8601 strings).
import type { Plan } from './plans';
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

export function toMembership(membership: MembershipRow) {
  return { ...membership, created_at: membership.created_at.toISOString() };
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
