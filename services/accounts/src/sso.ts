// Single sign-on. The web app speaks OpenID Connect with the company's provider and hands accounts the
// person it vouched for: issuer, subject (the provider's stable id), a verified email and a name. The
// identity signs in the user it is linked to; a first sign-in links the live user with the same email (so
// nobody gets a second account), or makes a user who joins the deployment's teams for new members.
// Teams may require single sign-on: VerifyPassword then refuses their members.
import { randomUUID } from 'node:crypto';
import { enqueueEvent, isServiceError, ServiceError, withTransaction } from '@dss/platform';
import type { Pool } from 'pg';
import { requirePlan, type PlanTable } from './plans';
import * as repo from './repository';
import * as sso from './sso-repository';
import { audit, forEachTeamOf } from './audit-log';
import { hashSessionId } from './sessions';
import { toTeam, toUser } from './wire';

const TEAM_CHANGED_SUBJECT = 'accounts.team.changed';
const ROLES = ['owner', 'editor', 'viewer'];
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
/** Why the web app refused a single sign-on (RecordSsoRefusal); identity_conflict is accounts' own. */
const SSO_REFUSAL_REASONS = [
  'no_pending_sign_in',
  'provider_refused',
  'email_unverified',
  'email_domain_not_allowed',
];

export interface SsoSignInRequest {
  issuer: string;
  subject: string;
  email: string;
  name: string;
  join_team_slugs: string[];
  join_role: string;
}

function requiredText(field: string, value: string | undefined, max: number): string {
  const text = (value ?? '').trim();
  if (!text) throw new ServiceError('invalid_request', `${field} is required`);
  if (text.length > max) throw new ServiceError('invalid_request', `${field} is too long`);
  return text;
}

export function createSsoHandlers(pool: Pool, plans: PlanTable) {
  async function signInWithSso(request: SsoSignInRequest) {
    const issuer = requiredText('issuer', request.issuer, 2000);
    const subject = requiredText('subject', request.subject, 255);
    const email = requiredText('email', request.email, 320).toLowerCase();
    if (!EMAIL_PATTERN.test(email))
      throw new ServiceError('invalid_request', `"${email}" is not an email address`);
    const role = request.join_role || 'viewer';
    if (!ROLES.includes(role))
      throw new ServiceError('invalid_request', `join_role must be one of ${ROLES.join(', ')}`);

    return withTransaction(pool, async (client) => {
      // One sign-in at a time per identity, so two first sign-ins do not both make a user.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sso:${issuer}:${subject}`]);
      const linked = await sso.findIdentity(client, issuer, subject);
      if (linked) {
        const user = await repo.findUserById(client, linked.user_id);
        if (user && !user.deleted_at) {
          await sso.touchIdentity(client, issuer, subject, email);
          return { user: toUser(user), created: false, linked: false };
        }
        await sso.deleteIdentity(client, issuer, subject);
      }
      const existing = await repo.findUserByEmail(client, email);
      if (existing) {
        if (await sso.findIdentityOfUser(client, existing.id, issuer))
          throw new ServiceError(
            'forbidden',
            `the account of ${email} is linked to another identity of this provider; ask an operator`,
          );
        await sso.insertIdentity(client, { issuer, subject, user_id: existing.id, email });
        return { user: toUser(existing), created: false, linked: true };
      }
      const user = await repo.insertUser(client, {
        id: randomUUID(),
        email,
        name: (request.name ?? '').trim().slice(0, 100) || email,
        password_hash: null,
      });
      await sso.insertIdentity(client, { issuer, subject, user_id: user.id, email });
      for (const slug of new Set(request.join_team_slugs ?? [])) {
        const team = await repo.findLiveTeamBySlug(client, slug);
        if (!team) continue;
        await repo.upsertMembership(client, team.id, user.id, role);
        await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, {
          team_id: team.id,
          user_id: user.id,
        });
      }
      return { user: toUser(user), created: true, linked: false };
    });
  }

  return {
    async RecordSsoRefusal(request: { email: string; reason: string }) {
      const reason = request.reason ?? '';
      if (!SSO_REFUSAL_REASONS.includes(reason))
        throw new ServiceError('invalid_request', `reason must be one of ${SSO_REFUSAL_REASONS.join(', ')}`);
      const email = (request.email ?? '').trim().toLowerCase().slice(0, 320);
      const user = email ? await repo.findUserByEmail(pool, email) : null;
      await recordSsoFailure(pool, user?.id ?? null, email, reason);
      return {};
    },

    async SignInWithSso(request: SsoSignInRequest) {
      try {
        return await signInWithSso(request);
      } catch (error) {
        if (isServiceError(error) && error.code === 'forbidden') {
          const email = (request.email ?? '').trim().toLowerCase();
          const user = await repo.findUserByEmail(pool, email);
          await recordSsoFailure(pool, user?.id ?? null, email, 'identity_conflict');
        }
        throw error;
      }
    },

    async SetTeamSsoOnly(request: { team_slug: string; sso_only: boolean; acting_session_id?: string }) {
      const team = await repo.findLiveTeamBySlug(pool, (request.team_slug ?? '').trim());
      if (!team) throw new ServiceError('not_found', `no team with slug "${request.team_slug}"`);
      const updated = await withTransaction(pool, async (client) => {
        const row = await sso.updateTeamSsoOnly(client, team.id, Boolean(request.sso_only));
        // Turning it on signs out whoever is in without single sign-on; their tokens keep working.
        const endedSessions =
          request.sso_only && !team.sso_only
            ? await sso.endSessionsWithoutSso(client, team.id, hashSessionId(request.acting_session_id ?? ''))
            : 0;
        await audit(client, {
          action: 'team.sso_only_changed',
          team_id: team.id,
          target: { kind: 'team', id: team.id, name: team.slug },
          details: { sso_only: Boolean(request.sso_only), ended_sessions: endedSessions },
        });
        return row;
      });
      return toTeam(updated, requirePlan(plans, updated.plan));
    },
  };
}

/** A refused sign-in, for every team of the user (one entry without a team when unknown), like a wrong password. */
async function recordSignInFailure(
  pool: Pool,
  user: { id: string | null; email: string },
  details: { method: 'sso' | 'password'; reason: string },
): Promise<void> {
  await audit(
    pool,
    ...(await forEachTeamOf(pool, user.id, {
      action: 'user.sign_in_failed',
      actor: { kind: 'anonymous', id: null, user_id: null },
      target: { kind: 'user', id: user.id, name: user.email || null },
      details,
    })),
  );
}

function recordSsoFailure(pool: Pool, userId: string | null, email: string, reason: string) {
  return recordSignInFailure(pool, { id: userId, email }, { method: 'sso', reason });
}

/** Refuses (and records) a password sign-in of a member of a team that signs in with single sign-on only. */
export async function refuseIfSsoOnly(pool: Pool, user: { id: string; email: string }): Promise<void> {
  const teams = await sso.ssoOnlyTeamsOfUser(pool, user.id);
  if (teams.length === 0) return;
  await recordSignInFailure(pool, user, { method: 'password', reason: 'sso_required' });
  throw new ServiceError(
    'forbidden',
    `${teams.map((team) => team.name).join(', ')} ${teams.length === 1 ? 'requires' : 'require'} single sign-on: sign in with SSO`,
  );
}
