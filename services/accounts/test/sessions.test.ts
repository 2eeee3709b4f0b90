import { ServiceError } from '@dss/platform';
import { hashSessionId } from '../src/sessions';
import { type AccountsHarness, startAccountsHarness } from './helpers';

describe('Accounts web sessions (real PostgreSQL, real gRPC)', () => {
  let harness: AccountsHarness;
  let userId: string;

  beforeAll(async () => {
    harness = await startAccountsHarness();
    await harness.client.CreateTeam({ slug: 'web', name: 'Web', plan: 'team' });
    const user = await harness.client.CreateUser({
      email: 'wen@web.test',
      name: 'Wen',
      password: 'long password',
    });
    userId = user.id;
    await harness.client.AddMember({ team_slug: 'web', user_email: 'wen@web.test', role: 'viewer' });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as ServiceError,
    );

  describe('.CreateSession()', () => {
    it('returns a random session id once and stores only its SHA-256, with a 12-hour expiry', async () => {
      const before = Date.now();
      const created = await harness.client.CreateSession({ user_id: userId });
      expect(created.session_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const expiresIn = Date.parse(created.expires_at) - before;
      expect(expiresIn).toBeGreaterThan(12 * 3600_000 - 60_000);
      expect(expiresIn).toBeLessThanOrEqual(12 * 3600_000 + 60_000);
      const { rows } = await harness.service.pool.query('SELECT * FROM accounts.sessions');
      expect(JSON.stringify(rows)).not.toContain(created.session_id);
      expect(rows.map((row) => row.id_hash)).toContain(hashSessionId(created.session_id));
    });

    it('gives each sign-in a different session id', async () => {
      const first = await harness.client.CreateSession({ user_id: userId });
      const second = await harness.client.CreateSession({ user_id: userId });
      expect(first.session_id).not.toBe(second.session_id);
    });

    it('refuses an unknown or malformed user id with not_found', async () => {
      const unknown = await refusal(
        harness.client.CreateSession({ user_id: '00000000-0000-4000-8000-000000000000' }),
      );
      expect(unknown?.code).toBe('not_found');
      expect((await refusal(harness.client.CreateSession({ user_id: 'nope' })))?.code).toBe('not_found');
    });
  });

  describe('.GetSession()', () => {
    it('returns the user and their memberships for a live session', async () => {
      const created = await harness.client.CreateSession({ user_id: userId });
      const session = await harness.client.GetSession({ session_id: created.session_id });
      expect(session.user).toMatchObject({ id: userId, email: 'wen@web.test', name: 'Wen' });
      expect(session.memberships).toEqual([expect.objectContaining({ team_slug: 'web', role: 'viewer' })]);
      expect(session.expires_at).toBe(created.expires_at);
    });

    it('carries each team’s plan and caps, so the web app bounds a person’s writes as a token’s', async () => {
      const created = await harness.client.CreateSession({ user_id: userId });
      const session = await harness.client.GetSession({ session_id: created.session_id });
      expect(session.memberships[0]).toMatchObject({
        plan: 'team',
        caps: { max_tables_per_diagram: 250, max_private_diagrams: 100 },
      });
    });

    it('gives unauthenticated for an unknown, malformed or expired session', async () => {
      const unknown = await refusal(harness.client.GetSession({ session_id: 'A'.repeat(43) }));
      expect(unknown?.code).toBe('unauthenticated');
      expect((await refusal(harness.client.GetSession({ session_id: "x' OR 1=1" })))?.code).toBe(
        'unauthenticated',
      );
      const created = await harness.client.CreateSession({ user_id: userId });
      await harness.service.pool.query(
        `UPDATE accounts.sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1`,
        [hashSessionId(created.session_id)],
      );
      expect((await refusal(harness.client.GetSession({ session_id: created.session_id })))?.code).toBe(
        'unauthenticated',
      );
    });
  });

  describe('.DeleteSession()', () => {
    it('ends the session, so it no longer resolves', async () => {
      const created = await harness.client.CreateSession({ user_id: userId });
      await harness.client.DeleteSession({ session_id: created.session_id });
      const ended = await refusal(harness.client.GetSession({ session_id: created.session_id }));
      expect(ended).toBeInstanceOf(ServiceError);
      expect(ended?.code).toBe('unauthenticated');
    });

    it('accepts an unknown session id without error', async () => {
      await expect(harness.client.DeleteSession({ session_id: 'B'.repeat(43) })).resolves.toEqual({});
    });
  });
});
