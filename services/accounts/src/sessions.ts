// Web sessions, owned by accounts. A session id is 32 random bytes shown once to the web app (which signs
// it into its cookie); only its SHA-256 is stored. A session lasts a fixed 12 hours from sign-in: a
// sliding window would keep a forgotten browser signed in for ever, and a reviewer's visit is short.
import { createHash, randomBytes } from 'node:crypto';
import { isUuid, ServiceError, withTransaction } from '@dss/platform';
import { audit, forEachTeamOf } from './audit-log';
import type { Pool } from 'pg';
import type { PlanTable } from './plans';
import * as repo from './repository';
import { toMembership, toUser } from './wire';

export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SESSION_METHODS: repo.SessionMethod[] = ['password', 'sso', 'invitation'];

/** The live session with this id (as the web app holds it), or null. */
export async function liveSession(pool: Pool, sessionId: string, now: Date): Promise<repo.SessionRow | null> {
  if (!SESSION_ID_PATTERN.test(sessionId)) return null;
  return repo.findLiveSession(pool, hashSessionId(sessionId), now);
}

export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

function sessionEnded(): ServiceError {
  return new ServiceError('unauthenticated', 'the session has ended; sign in again');
}

export function createSessionHandlers(pool: Pool, now: () => Date, plans: PlanTable) {
  return {
    async CreateSession(request: { user_id: string; method?: string }) {
      const method = (request.method || 'password') as repo.SessionMethod;
      if (!SESSION_METHODS.includes(method))
        throw new ServiceError('invalid_request', `method must be one of ${SESSION_METHODS.join(', ')}`);
      const user = isUuid(request.user_id) ? await repo.findUserById(pool, request.user_id) : null;
      if (!user) throw new ServiceError('not_found', 'no such user');
      const sessionId = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + SESSION_LIFETIME_MS);
      await repo.deleteExpiredSessions(pool, now());
      // Every way of signing in (password, invitation, single sign-on) ends here, so this is where a
      // sign-in is recorded; the method is the caller's to say.
      await withTransaction(pool, async (client) => {
        await repo.insertSession(client, {
          id_hash: hashSessionId(sessionId),
          user_id: user.id,
          expires_at: expiresAt,
          method,
        });
        await audit(
          client,
          ...(await forEachTeamOf(client, user.id, {
            action: 'user.signed_in',
            actor: { kind: 'user', id: user.id, user_id: user.id },
            target: { kind: 'user', id: user.id, name: user.email },
            details: { method },
          })),
        );
      });
      return { session_id: sessionId, expires_at: expiresAt.toISOString() };
    },

    async GetSession(request: { session_id: string }) {
      if (!SESSION_ID_PATTERN.test(request.session_id ?? '')) throw sessionEnded();
      const session = await repo.findLiveSession(pool, hashSessionId(request.session_id), now());
      if (!session) throw sessionEnded();
      const user = await repo.findUserById(pool, session.user_id);
      if (!user) throw sessionEnded();
      const memberships = await repo.listMembershipsOfUser(pool, user.id);
      return {
        user: toUser(user),
        expires_at: session.expires_at.toISOString(),
        method: session.method,
        memberships: memberships.map((membership) => toMembership(membership, plans)),
      };
    },

    async DeleteSession(request: { session_id: string }) {
      if (!SESSION_ID_PATTERN.test(request.session_id ?? '')) return {};
      const hash = hashSessionId(request.session_id);
      const session = await repo.findLiveSession(pool, hash, now());
      await withTransaction(pool, async (client) => {
        await repo.deleteSession(client, hash);
        const user = session ? await repo.findUserById(client, session.user_id) : null;
        if (user)
          await audit(
            client,
            ...(await forEachTeamOf(client, user.id, {
              action: 'user.signed_out',
              actor: { kind: 'user', id: user.id, user_id: user.id },
              target: { kind: 'user', id: user.id, name: user.email },
            })),
          );
      });
      return {};
    },
  };
}
