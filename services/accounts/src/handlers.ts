// The gRPC surface of accounts. Each handler validates its request, does its work in one transaction
// when it writes, and answers in the proto's shape. Events leave through the outbox, written in the
// same transaction as the change they announce.
import { randomUUID } from 'node:crypto';
import {
  enqueueEvent,
  hashAccessToken,
  ServiceError,
  signAccessToken,
  verifyAccessTokenSignature,
  withTransaction,
  isUuid,
} from '@dss/platform';
import type { Pool } from 'pg';
import { hashPassword, verifyPassword } from './passwords';
import { type PlanTable, planCaps, requirePlan } from './plans';
import * as repo from './repository';
import type { SigningKeys } from './signing-keys';
import { createSessionHandlers, liveSession } from './sessions';
import * as links from './link-repository';
import { createLinkHandlers } from './links';
import { createSsoHandlers, refuseIfSsoOnly } from './sso';
import { resolveExpiry } from './token-expiry';
import { type AuditQuery, audit, forEachTeamOf, listAuditEvents } from './audit-log';
import { toMembership, toTeam, toTokenRecord, toUser } from './wire';

export const TOKEN_REVOKED_SUBJECT = 'accounts.token.revoked';
export const TEAM_CHANGED_SUBJECT = 'accounts.team.changed';
const ROLES = ['owner', 'editor', 'viewer'];
const DECOY_PASSWORD_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export interface AccountsDeps {
  pool: Pool;
  plans: PlanTable;
  keys: SigningKeys;
  now?: () => Date;
}

export function createAccountsHandlers(deps: AccountsDeps) {
  const { pool, plans, keys } = deps;
  const now = deps.now ?? (() => new Date());

  async function liveTeam(slug: string) {
    const team = await repo.findLiveTeamBySlug(pool, required('team_slug', slug));
    if (!team) throw new ServiceError('not_found', `no team with slug "${slug}"`);
    return team;
  }

  async function existingUser(email: string) {
    const user = await repo.findUserByEmail(pool, required('user_email', email));
    if (!user) throw new ServiceError('not_found', `no user with email "${email}"`);
    return user;
  }

  /**
   * A token made from a web session: the session must be the user's, and a team that signs in with single
   * sign-on only takes tokens from sessions of single sign-on alone (a password session from before the
   * setting, an invitation's session), so a token never outlives the company's control of who signs in.
   */
  async function requireTokenSession(team: repo.TeamRow, user: repo.UserRow, sessionId: string) {
    const session = await liveSession(pool, sessionId, now());
    if (!session || session.user_id !== user.id)
      throw new ServiceError('unauthenticated', 'the session has ended; sign in again');
    if (!team.sso_only || session.method === 'sso') return;
    await audit(pool, {
      action: 'token.create_refused',
      team_id: team.id,
      actor: { kind: 'user', id: user.id, user_id: user.id },
      target: { kind: 'user', id: user.id, name: user.email },
      details: { reason: 'sso_required', session_method: session.method },
    });
    throw new ServiceError(
      'forbidden',
      `${team.name} requires single sign-on: sign in with SSO to create a token for it`,
    );
  }

  return {
    ...createSessionHandlers(pool, now, plans),
    ...createLinkHandlers(pool, now),
    ...createSsoHandlers(pool, plans),

    async Authenticate(request: { token: string }) {
      const check = verifyAccessTokenSignature(request.token, keys.verification, now());
      if (!check.ok) throw unauthenticated(check.reason);
      const subject = await repo.findTokenSubject(pool, check.claims.tokenId);
      if (!subject || subject.token_hash !== hashAccessToken(request.token)) throw unauthenticated('unknown');
      // Team and membership first: removing a member also revokes their tokens of the team (so joining
      // again revives none), yet the spec answers such a token invalid_token, not a plain revocation.
      if (subject.team_deleted_at)
        throw new ServiceError('invalid_token', 'the token’s team no longer exists');
      if (!subject.role)
        throw new ServiceError('invalid_token', 'the token’s user is no longer a member of the team');
      if (subject.revoked_at) throw unauthenticated('revoked');
      if (subject.expires_at.getTime() <= now().getTime()) throw unauthenticated('expired');
      const plan = plans.get(subject.team_plan);
      if (!plan?.api_access) {
        throw new ServiceError('plan_required', 'the team must be on a paid plan to use the API');
      }
      await repo.touchTokenLastUsed(pool, subject.id);
      return {
        token_id: subject.id,
        user_id: subject.user_id,
        user_email: subject.user_email,
        user_name: subject.user_name,
        team_id: subject.team_id,
        team_slug: subject.team_slug,
        team_name: subject.team_name,
        role: subject.role,
        write: subject.write,
        plan: plan.name,
        caps: planCaps(plan),
        expires_at: subject.expires_at.toISOString(),
      };
    },

    async GetSigningKeys() {
      return {
        keys: keys.verification.map((key) => ({
          kid: key.kid,
          public_key_pem: key.publicKeyPem,
          algorithm: 'ES256',
        })),
      };
    },

    async IssueToken(request: {
      team_slug: string;
      user_email: string;
      name: string;
      write: boolean;
      expires_in: string;
      expires_at: string;
      session_id?: string;
    }) {
      const team = await liveTeam(request.team_slug);
      const user = await existingUser(request.user_email);
      if (!(await repo.findMembership(pool, team.id, user.id))) {
        throw new ServiceError('forbidden', `${user.email} is not a member of team "${team.slug}"`);
      }
      if (request.session_id) await requireTokenSession(team, user, request.session_id);
      const expiresAt = resolveExpiry(request.expires_in, request.expires_at, now());
      const id = randomUUID();
      const token = signAccessToken(
        { tokenId: id, userId: user.id, teamId: team.id, expiresAt },
        keys.signing.privateKeyPem,
        keys.signing.kid,
      );
      const name = (request.name || 'API token').slice(0, 100);
      await withTransaction(pool, async (client) => {
        await repo.insertToken(client, {
          id,
          team_id: team.id,
          user_id: user.id,
          name,
          token_hash: hashAccessToken(token),
          write: request.write,
          expires_at: expiresAt,
        });
        await audit(client, {
          action: 'token.created',
          team_id: team.id,
          target: { kind: 'token', id, name },
          user_id: user.id,
          details: { owner_email: user.email, write: request.write, expires_at: expiresAt.toISOString() },
        });
      });
      const record = await repo.findToken(pool, id);
      return { record: toTokenRecord(record!), token };
    },

    async RevokeToken(request: { id: string; user_id: string }) {
      const token = isUuid(request.id) ? await repo.findToken(pool, request.id) : null;
      if (!token || (request.user_id && token.user_id !== request.user_id)) {
        throw new ServiceError('not_found', `no token with id "${request.id}"`);
      }
      await withTransaction(pool, async (client) => {
        await repo.markTokenRevoked(client, token.id);
        await enqueueEvent(client, repo.SCHEMA, TOKEN_REVOKED_SUBJECT, { token_id: token.id });
        await audit(client, {
          action: 'token.revoked',
          team_id: token.team_id,
          target: { kind: 'token', id: token.id, name: token.name },
          user_id: request.user_id || null,
          details: { owner_email: token.user_email },
        });
      });
      return toTokenRecord((await repo.findToken(pool, token.id))!);
    },

    async ListTokens(request: { team_slug: string; user_email: string }) {
      const team = await liveTeam(request.team_slug);
      const user = request.user_email?.trim() ? await existingUser(request.user_email) : null;
      return { tokens: (await repo.listTokens(pool, team.id, user?.id ?? null)).map(toTokenRecord) };
    },

    async ListTeams() {
      const teams = await repo.listLiveTeams(pool);
      return { teams: teams.map((team) => toTeam(team, requirePlan(plans, team.plan))) };
    },

    async ListUsers(request: { team_slug: string }) {
      const team = request.team_slug?.trim() ? await liveTeam(request.team_slug) : null;
      return { users: (await repo.listLiveUsers(pool, team?.id ?? null)).map(toUser) };
    },

    async SetPassword(request: { email: string; password: string }) {
      const user = await existingUser(request.email);
      if ((request.password ?? '').length < 8) {
        throw new ServiceError('invalid_request', 'password must have at least 8 characters');
      }
      const passwordHash = await hashPassword(request.password);
      const updated = await withTransaction(pool, async (client) => {
        const row = await repo.updatePasswordHash(client, user.id, passwordHash);
        await repo.deleteSessionsOfUser(client, user.id);
        return row;
      });
      return toUser(updated);
    },

    async DeleteUser(request: { email: string }) {
      const user = await existingUser(request.email);
      await withTransaction(pool, async (client) => {
        const entries = await forEachTeamOf(client, user.id, {
          action: 'user.deleted',
          target: { kind: 'user', id: user.id, name: user.email },
        });
        const { teamIds, tokenIds } = await repo.markUserDeleted(client, user.id);
        await audit(client, ...entries);
        // The same events as a revocation and a member's removal, so gateways drop cached answers at once.
        for (const tokenId of tokenIds) {
          await enqueueEvent(client, repo.SCHEMA, TOKEN_REVOKED_SUBJECT, { token_id: tokenId });
        }
        for (const teamId of teamIds) {
          await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, {
            team_id: teamId,
            user_id: user.id,
          });
        }
      });
      return toUser(user);
    },

    async ListTeamMembers(request: { team_slug: string }) {
      const team = await liveTeam(request.team_slug);
      return {
        memberships: (await repo.listMembersOfTeam(pool, team.id)).map((membership) =>
          toMembership(membership, plans),
        ),
      };
    },

    async SetMemberRole(request: { team_slug: string; user_email: string; role: string }) {
      const team = await liveTeam(request.team_slug);
      const user = await existingUser(request.user_email);
      requireRole(request.role);
      if (!(await repo.findMembership(pool, team.id, user.id))) {
        throw new ServiceError('not_found', `${user.email} is not a member of team "${team.slug}"`);
      }
      await withTransaction(pool, async (client) => {
        await links.lockTeam(client, team.id);
        const current = await repo.findMembership(client, team.id, user.id);
        if (current?.role === 'owner' && request.role !== 'owner') await keepAnOwner(client, team.id);
        await repo.upsertMembership(client, team.id, user.id, request.role);
        if (current?.role !== request.role)
          await audit(client, {
            action: 'member.role_changed',
            team_id: team.id,
            target: { kind: 'user', id: user.id, name: user.email },
            details: { from: current?.role ?? null, to: request.role },
          });
        await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, { team_id: team.id, user_id: user.id });
      });
      return toMembership((await repo.findMembership(pool, team.id, user.id))!, plans);
    },

    async CreateTeam(request: { slug: string; name: string; plan: string }) {
      const slug = required('slug', request.slug);
      if (!SLUG_PATTERN.test(slug)) {
        throw new ServiceError(
          'invalid_request',
          'slug must be 1-64 lowercase letters, digits and inner hyphens',
        );
      }
      const plan = requirePlan(plans, request.plan || 'free');
      if (await repo.findLiveTeamBySlug(pool, slug)) {
        throw new ServiceError('conflict', `a team with slug "${slug}" already exists`);
      }
      const team = await conflictIfTaken(
        repo.insertTeam(pool, { id: randomUUID(), slug, name: request.name || slug, plan: plan.name }),
        `a team with slug "${slug}" already exists`,
      );
      return toTeam(team, plan);
    },

    async GetTeam(request: { slug: string; id: string }) {
      const team = request.id
        ? isUuid(request.id)
          ? await repo.findLiveTeamById(pool, request.id)
          : null
        : await repo.findLiveTeamBySlug(pool, request.slug);
      if (!team) throw new ServiceError('not_found', 'no such team');
      return toTeam(team, requirePlan(plans, team.plan));
    },

    async SetPlan(request: { team_slug: string; plan: string }) {
      const team = await liveTeam(request.team_slug);
      const plan = requirePlan(plans, request.plan);
      const updated = await withTransaction(pool, async (client) => {
        const row = await repo.updateTeamPlan(client, team.id, plan.name);
        await audit(client, {
          action: 'team.plan_changed',
          team_id: team.id,
          target: { kind: 'team', id: team.id, name: team.slug },
          details: { from: team.plan, to: plan.name },
        });
        await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, { team_id: team.id, user_id: null });
        return row;
      });
      return toTeam(updated, plan);
    },

    async DeleteTeam(request: { slug: string }) {
      const team = await liveTeam(request.slug);
      const deleted = await withTransaction(pool, async (client) => {
        const row = await repo.markTeamDeleted(client, team.id);
        await audit(client, {
          action: 'team.deleted',
          team_id: team.id,
          target: { kind: 'team', id: team.id, name: team.slug },
        });
        await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, { team_id: team.id, user_id: null });
        return row;
      });
      return toTeam(deleted, requirePlan(plans, deleted.plan));
    },

    async CreateUser(request: { email: string; name: string; password: string }) {
      const email = required('email', request.email).toLowerCase();
      if (!EMAIL_PATTERN.test(email))
        throw new ServiceError('invalid_request', `"${email}" is not an email address`);
      if (request.password && request.password.length < 8) {
        throw new ServiceError('invalid_request', 'password must have at least 8 characters');
      }
      if (await repo.findUserByEmail(pool, email)) {
        throw new ServiceError('conflict', `a user with email "${email}" already exists`);
      }
      const user = await conflictIfTaken(
        repo.insertUser(pool, {
          id: randomUUID(),
          email,
          name: request.name || email,
          password_hash: request.password ? await hashPassword(request.password) : null,
        }),
        `a user with email "${email}" already exists`,
      );
      return toUser(user);
    },

    async GetUser(request: { email: string; id: string }) {
      const user = request.id
        ? isUuid(request.id)
          ? await repo.findUserById(pool, request.id)
          : null
        : await repo.findUserByEmail(pool, request.email ?? '');
      if (!user) throw new ServiceError('not_found', 'no such user');
      return toUser(user);
    },

    async VerifyPassword(request: { email: string; password: string }) {
      const user = await repo.findUserByEmail(pool, request.email ?? '');
      // An unknown email costs one scrypt too, so response time does not reveal which emails exist.
      const stored = user?.password_hash ?? DECOY_PASSWORD_HASH;
      const matches = (await verifyPassword(request.password ?? '', stored)) && Boolean(user?.password_hash);
      if (!user || !matches) {
        // Who tried is unknown; the team is known only when the email has an account.
        await audit(
          pool,
          ...(await forEachTeamOf(pool, user?.id ?? null, {
            action: 'user.sign_in_failed',
            actor: { kind: 'anonymous', id: null, user_id: null },
            target: { kind: 'user', id: user?.id ?? null, name: (request.email ?? '').trim().slice(0, 320) },
            details: { method: 'password', reason: user ? 'wrong_password' : 'unknown_email' },
          })),
        );
        throw new ServiceError('unauthenticated', 'wrong email or password');
      }
      await refuseIfSsoOnly(pool, user);
      return toUser(user);
    },

    async AddMember(request: { team_slug: string; user_email: string; role: string }) {
      const team = await liveTeam(request.team_slug);
      const user = await existingUser(request.user_email);
      requireRole(request.role);
      await withTransaction(pool, async (client) => {
        const current = await repo.findMembership(client, team.id, user.id);
        await repo.upsertMembership(client, team.id, user.id, request.role);
        await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, { team_id: team.id, user_id: user.id });
        await audit(client, {
          action: current ? 'member.role_changed' : 'member.added',
          team_id: team.id,
          target: { kind: 'user', id: user.id, name: user.email },
          details: current ? { from: current.role, to: request.role } : { role: request.role },
        });
      });
      return toMembership((await repo.findMembership(pool, team.id, user.id))!, plans);
    },

    async RemoveMember(request: { team_slug: string; user_email: string }) {
      const team = await liveTeam(request.team_slug);
      const user = await existingUser(request.user_email);
      const membership = await repo.findMembership(pool, team.id, user.id);
      if (!membership)
        throw new ServiceError('not_found', `${user.email} is not a member of team "${team.slug}"`);
      await withTransaction(pool, async (client) => {
        await links.lockTeam(client, team.id);
        if (membership.role === 'owner') await keepAnOwner(client, team.id);
        await repo.deleteMembership(client, team.id, user.id);
        // Their tokens of this team end too, announced like a revocation so gateways drop cached answers.
        const revoked = await links.revokeTokensOfMember(client, team.id, user.id);
        for (const tokenId of revoked) {
          await enqueueEvent(client, repo.SCHEMA, TOKEN_REVOKED_SUBJECT, { token_id: tokenId });
        }
        await audit(client, {
          action: 'member.removed',
          team_id: team.id,
          target: { kind: 'user', id: user.id, name: user.email },
          details: { role: membership.role, tokens_revoked: revoked.length },
        });
        await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, { team_id: team.id, user_id: user.id });
      });
      return toMembership(membership, plans);
    },

    async ListAuditEvents(request: AuditQuery) {
      return listAuditEvents(pool, request);
    },

    async GetMembership(request: { team_id: string; user_id: string }) {
      const membership =
        isUuid(request.team_id) && isUuid(request.user_id)
          ? await repo.findMembership(pool, request.team_id, request.user_id)
          : null;
      if (!membership) throw new ServiceError('not_found', 'no such membership');
      return toMembership(membership, plans);
    },

    async ListMemberships(request: { user_id: string }) {
      if (!isUuid(request.user_id)) return { memberships: [] };
      return {
        memberships: (await repo.listMembershipsOfUser(pool, request.user_id)).map((membership) =>
          toMembership(membership, plans),
        ),
      };
    },
  };
}

export type AccountsHandlers = ReturnType<typeof createAccountsHandlers>;

const UNAUTHENTICATED_MESSAGES: Record<string, string> = {
  missing: 'an access token is required: send Authorization: Bearer <token>',
  expired: 'the access token has expired',
  revoked: 'the access token has been revoked',
};

function unauthenticated(reason: string): ServiceError {
  return new ServiceError(
    'unauthenticated',
    UNAUTHENTICATED_MESSAGES[reason] ?? 'the access token is not valid',
  );
}

/** Refuses a change that would leave the team without an owner (called with the team locked). */
async function keepAnOwner(client: repo.Queryable, teamId: string): Promise<void> {
  if ((await links.countOwners(client, teamId)) <= 1)
    throw new ServiceError('conflict', 'a team must keep at least one owner: make someone else owner first');
}

function requireRole(role: string): void {
  if (!ROLES.includes(role)) {
    throw new ServiceError('invalid_request', `role must be one of ${ROLES.join(', ')}, got "${role}"`);
  }
}

function required(field: string, value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (!trimmed) throw new ServiceError('invalid_request', `${field} is required`);
  return trimmed;
}

/**
 * An insert whose unique key another request took between our look-up and the insert (two creates of the same
 * email or slug at once): the same conflict the look-up answers, not an internal error.
 */
async function conflictIfTaken<T>(insert: Promise<T>, message: string): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23505') throw new ServiceError('conflict', message);
    throw error;
  }
}
