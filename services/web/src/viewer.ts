// The signed-in person of a request, resolved from the session cookie through accounts, and the Principal
// the diagrams and proposals services expect, built from the person's membership in one team. The web
// holds no access token, so `token_id` stays empty: diagrams reads it only when creating a diagram (its
// replay key), which the web never does. Plan and caps are left empty for the same reason: they bound
// writes, and the web's writes (apply, decline, reopen) go through the review calls, which check the
// reviewer's role in accounts themselves.
import type { ServiceClient } from '@dss/platform';

type Session = Awaited<ReturnType<ServiceClient<'Accounts'>['GetSession']>>;
export type Membership = Session['memberships'][number];

export interface Viewer {
  sessionId: string;
  user: { id: string; email: string; name: string };
  memberships: Membership[];
}

export function principalFor(viewer: Viewer, membership: Membership) {
  return {
    token_id: '',
    user_id: viewer.user.id,
    user_email: viewer.user.email,
    user_name: viewer.user.name,
    team_id: membership.team_id,
    team_slug: membership.team_slug,
    team_name: membership.team_name,
    role: membership.role,
    write: false,
    plan: '',
    expires_at: '',
  };
}

export const canEdit = (role: string) => role === 'owner' || role === 'editor';

export function membershipOf(viewer: Viewer, teamId: string): Membership | undefined {
  return viewer.memberships.find((membership) => membership.team_id === teamId);
}
