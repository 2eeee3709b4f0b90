// The signed-in person of a request, resolved from the session cookie through accounts, and the Principal
// the diagrams and proposals services expect, built from the person's membership in one team. The web
// holds no access token, so `token_id` stays empty: diagrams reads it only when creating a diagram (its
// replay key), which the web never does. Plan and caps are the team's (accounts puts them on each
// membership), so a person's writes in the web app (new diagrams, duplicates, editor saves) are bounded by
// the plan as a token's are.
import type { ServiceClient } from '@dss/platform';

type Session = Awaited<ReturnType<ServiceClient<'Accounts'>['GetSession']>>;
export type Membership = Session['memberships'][number];

export interface Viewer {
  sessionId: string;
  user: { id: string; email: string; name: string };
  memberships: Membership[];
}

/** The Principal message as the diagrams and proposals services read it. */
export interface WebPrincipal {
  token_id: string;
  user_id: string;
  user_email: string;
  user_name: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  role: string;
  write: boolean;
  plan: string;
  caps: { max_tables_per_diagram?: number; max_private_diagrams?: number };
  expires_at: string;
}

export function principalFor(viewer: Viewer, membership: Membership): WebPrincipal {
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
    plan: membership.plan ?? '',
    caps: {
      ...(typeof membership.caps?.max_tables_per_diagram === 'number'
        ? { max_tables_per_diagram: membership.caps.max_tables_per_diagram }
        : {}),
      ...(typeof membership.caps?.max_private_diagrams === 'number'
        ? { max_private_diagrams: membership.caps.max_private_diagrams }
        : {}),
    },
    expires_at: '',
  };
}

export const canEdit = (role: string) => role === 'owner' || role === 'editor';

export function membershipOf(viewer: Viewer, teamId: string): Membership | undefined {
  return viewer.memberships.find((membership) => membership.team_id === teamId);
}
