// Invitation and password-reset links. Each link carries a random secret shown once to the caller (which
// puts it in a URL); accounts keeps only its SHA-256. An invitation lasts 7 days, a reset link 1 hour;
// both are single use. A reset request answers alike for unknown emails (an empty secret) so it reveals
// no accounts, and makes at most RESETS_PER_HOUR links per account.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { enqueueEvent, isUuid, ServiceError, withTransaction } from '@dss/platform';
import type { Pool } from 'pg';
import * as links from './link-repository';
import { hashPassword } from './passwords';
import * as repo from './repository';
import { toMembership, toUser } from './wire';
import { audit, forEachTeamOf } from './audit-log';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_LIFETIME_MS = 60 * 60 * 1000;
export const RESETS_PER_HOUR = 3;
const TEAM_CHANGED_SUBJECT = 'accounts.team.changed';
const ROLES = ['owner', 'editor', 'viewer'];
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

function linkNotFound(): ServiceError {
  return new ServiceError('not_found', 'this link is not valid: it was used, revoked or has expired');
}

function toInvitation(row: links.InvitationRow) {
  return {
    id: row.id,
    team_id: row.team_id,
    team_slug: row.team_slug,
    team_name: row.team_name,
    email: row.email,
    role: row.role,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    account_exists: row.account_exists,
    invited_by_email: row.invited_by_email ?? '',
    sso_only: row.sso_only,
  };
}

function requirePassword(password: string | undefined): string {
  if ((password ?? '').length < 8)
    throw new ServiceError('invalid_request', 'password must have at least 8 characters');
  if (password!.length > 1024) throw new ServiceError('invalid_request', 'password is too long');
  return password!;
}

export function createLinkHandlers(pool: Pool, now: () => Date) {
  async function openInvitation(secret: string) {
    if (!SECRET_PATTERN.test(secret ?? '')) throw linkNotFound();
    const invitation = await links.findOpenInvitationByHash(pool, hashSecret(secret), now());
    if (!invitation) throw linkNotFound();
    return invitation;
  }

  async function liveTeam(slug: string) {
    const team = await repo.findLiveTeamBySlug(pool, (slug ?? '').trim());
    if (!team) throw new ServiceError('not_found', `no team with slug "${slug}"`);
    return team;
  }

  return {
    async CreateInvitation(request: {
      team_slug: string;
      email: string;
      role: string;
      invited_by_user_id: string;
    }) {
      const team = await liveTeam(request.team_slug);
      const email = (request.email ?? '').trim().toLowerCase();
      if (!EMAIL_PATTERN.test(email) || email.length > 320)
        throw new ServiceError('invalid_request', `"${email}" is not an email address`);
      if (!ROLES.includes(request.role))
        throw new ServiceError('invalid_request', `role must be one of ${ROLES.join(', ')}`);
      const existing = await repo.findUserByEmail(pool, email);
      if (existing && (await repo.findMembership(pool, team.id, existing.id)))
        throw new ServiceError('conflict', `${email} is already a member of team "${team.slug}"`);
      const inviter = isUuid(request.invited_by_user_id) ? request.invited_by_user_id : null;
      const secret = newSecret();
      const id = randomUUID();
      await withTransaction(pool, async (client) => {
        await links.revokeOpenInvitationsOf(client, team.id, email);
        await links.insertInvitation(client, {
          id,
          team_id: team.id,
          email,
          role: request.role,
          token_hash: hashSecret(secret),
          invited_by: inviter,
          expires_at: new Date(now().getTime() + INVITATION_LIFETIME_MS),
        });
        await audit(client, {
          action: 'member.invited',
          team_id: team.id,
          target: { kind: 'invitation', id, name: email },
          user_id: inviter,
          details: { role: request.role },
        });
      });
      return { invitation: toInvitation((await links.findInvitationById(pool, id))!), secret };
    },

    async ListInvitations(request: { team_slug: string }) {
      const team = await liveTeam(request.team_slug);
      return { invitations: (await links.listOpenInvitations(pool, team.id, now())).map(toInvitation) };
    },

    async RevokeInvitation(request: { id: string; team_slug: string }) {
      const invitation = isUuid(request.id) ? await links.findInvitationById(pool, request.id) : null;
      if (!invitation || (request.team_slug && invitation.team_slug !== request.team_slug))
        throw new ServiceError('not_found', `no invitation with id "${request.id}"`);
      await withTransaction(pool, async (client) => {
        await links.markInvitationRevoked(client, invitation.id);
        await audit(client, {
          action: 'invitation.revoked',
          team_id: invitation.team_id,
          target: { kind: 'invitation', id: invitation.id, name: invitation.email },
          details: { role: invitation.role },
        });
      });
      return toInvitation(invitation);
    },

    async GetInvitation(request: { secret: string }) {
      return toInvitation(await openInvitation(request.secret));
    },

    async AcceptInvitation(request: { secret: string; password: string; name: string; user_id: string }) {
      const invitation = await openInvitation(request.secret);
      const account = await repo.findUserByEmail(pool, invitation.email);
      if (account && request.user_id !== account.id)
        throw new ServiceError(
          'forbidden',
          `sign in as ${invitation.email} to accept this invitation (it was sent to that address)`,
        );
      if (!account && request.user_id)
        throw new ServiceError('forbidden', `this invitation is for ${invitation.email}, not for you`);
      if (!account && invitation.sso_only)
        throw new ServiceError(
          'forbidden',
          `team ${invitation.team_name} signs in with single sign-on only: sign in with SSO as ${invitation.email}, then open this link again`,
        );
      const passwordHash = account ? null : await hashPassword(requirePassword(request.password));
      const userId = await withTransaction(pool, async (client) => {
        if (!(await links.markInvitationAccepted(client, invitation.id, now()))) throw linkNotFound();
        const user =
          account ??
          (await repo.insertUser(client, {
            id: randomUUID(),
            email: invitation.email,
            name: (request.name ?? '').trim().slice(0, 100) || invitation.email,
            password_hash: passwordHash,
          }));
        // A member already (joined since the invitation was sent): the invitation does not change their role.
        if (!(await repo.findMembership(client, invitation.team_id, user.id))) {
          await repo.upsertMembership(client, invitation.team_id, user.id, invitation.role);
          await enqueueEvent(client, repo.SCHEMA, TEAM_CHANGED_SUBJECT, {
            team_id: invitation.team_id,
            user_id: user.id,
          });
          await audit(client, {
            action: 'member.joined',
            team_id: invitation.team_id,
            actor: { kind: 'user', id: user.id, user_id: user.id },
            target: { kind: 'user', id: user.id, name: user.email },
            details: { role: invitation.role, invitation_id: invitation.id, new_account: !account },
          });
        }
        return user.id;
      });
      return toMembership((await repo.findMembership(pool, invitation.team_id, userId))!);
    },

    async RequestPasswordReset(request: { email: string }) {
      const email = (request.email ?? '').trim().toLowerCase();
      const user = email ? await repo.findUserByEmail(pool, email) : null;
      const expiresAt = new Date(now().getTime() + RESET_LIFETIME_MS);
      const none = { secret: '', email, expires_at: expiresAt.toISOString() };
      const requested = (linkSent: boolean) => ({
        action: 'password_reset.requested',
        actor: { kind: 'anonymous' as const, id: null, user_id: null },
        target: { kind: 'user', id: user?.id ?? null, name: email.slice(0, 320) },
        details: { link_sent: linkSent },
      });
      if (!user) {
        if (email) await audit(pool, ...(await forEachTeamOf(pool, null, requested(false))));
        return none;
      }
      const hourAgo = new Date(now().getTime() - 60 * 60 * 1000);
      if ((await links.countRecentPasswordResets(pool, user.id, hourAgo)) >= RESETS_PER_HOUR) {
        await audit(pool, ...(await forEachTeamOf(pool, user.id, requested(false))));
        return none;
      }
      const secret = newSecret();
      await withTransaction(pool, async (client) => {
        await links.insertPasswordReset(client, {
          token_hash: hashSecret(secret),
          user_id: user.id,
          expires_at: expiresAt,
        });
        await audit(client, ...(await forEachTeamOf(client, user.id, requested(true))));
      });
      return { secret, email: user.email, expires_at: expiresAt.toISOString() };
    },

    async ResetPassword(request: { secret: string; password: string }) {
      if (!SECRET_PATTERN.test(request.secret ?? '')) throw linkNotFound();
      const passwordHash = await hashPassword(requirePassword(request.password));
      const user = await withTransaction(pool, async (client) => {
        const userId = await links.consumePasswordReset(client, hashSecret(request.secret), now());
        const found = userId ? await repo.findUserById(client, userId) : null;
        if (!found || found.deleted_at) throw linkNotFound();
        const row = await repo.updatePasswordHash(client, found.id, passwordHash);
        await repo.deleteSessionsOfUser(client, found.id);
        await audit(
          client,
          ...(await forEachTeamOf(client, found.id, {
            action: 'password_reset.completed',
            actor: { kind: 'user', id: found.id, user_id: found.id },
            target: { kind: 'user', id: found.id, name: found.email },
          })),
        );
        return row;
      });
      return toUser(user);
    },
  };
}
