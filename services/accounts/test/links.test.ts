import type { ServiceError } from '@dss/platform';
import { type AccountsHarness, startAccountsHarness } from './helpers';

describe('Accounts invitation and password-reset links (real PostgreSQL, real gRPC)', () => {
  let harness: AccountsHarness;

  beforeAll(async () => {
    harness = await startAccountsHarness();
    await harness.client.CreateTeam({ slug: 'links', name: 'Links', plan: 'team' });
    await harness.client.CreateUser({ email: 'olly@links.test', name: 'Olly', password: 'long password' });
    await harness.client.AddMember({ team_slug: 'links', user_email: 'olly@links.test', role: 'owner' });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as ServiceError,
    );
  const invite = (email: string, role = 'editor') =>
    harness.client.CreateInvitation({ team_slug: 'links', email, role, invited_by_user_id: '' });

  describe('.CreateInvitation()', () => {
    it('stores only the SHA-256 of the secret and expires in 7 days', async () => {
      const before = Date.now();
      const created = await invite('ines@links.test');
      expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const lifetime = Date.parse(created.invitation!.expires_at) - before;
      expect(Math.abs(lifetime - 7 * 24 * 3600_000)).toBeLessThan(60_000);
      const { rows } = await harness.service.pool.query('SELECT * FROM accounts.invitations');
      expect(JSON.stringify(rows)).not.toContain(created.secret);
    });

    it('refuses a bad address, a bad role and an existing member', async () => {
      expect((await refusal(invite('not an address')))?.code).toBe('invalid_request');
      expect((await refusal(invite('x@links.test', 'admin')))?.code).toBe('invalid_request');
      expect((await refusal(invite('olly@links.test')))?.code).toBe('conflict');
    });
  });

  describe('.AcceptInvitation()', () => {
    it('refuses an expired invitation', async () => {
      const created = await invite('late@links.test');
      await harness.service.pool.query(
        `UPDATE accounts.invitations SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [created.invitation!.id],
      );
      const accepted = harness.client.AcceptInvitation({
        secret: created.secret,
        password: 'long password',
        name: '',
        user_id: '',
      });
      expect((await refusal(accepted))?.code).toBe('not_found');
    });

    it('lets an existing account accept only as itself', async () => {
      const other = await harness.client.CreateUser({
        email: 'eve@links.test',
        name: 'Eve',
        password: 'long password',
      });
      const created = await invite('olly-two@links.test');
      await harness.client.CreateUser({
        email: 'olly-two@links.test',
        name: 'O2',
        password: 'long password',
      });
      const asOther = harness.client.AcceptInvitation({
        secret: created.secret,
        password: '',
        name: '',
        user_id: other.id,
      });
      expect((await refusal(asOther))?.code).toBe('forbidden');
    });
  });

  describe('members and owners', () => {
    it('refuses to demote or remove the last owner, and revokes a removed member’s tokens', async () => {
      const demote = harness.client.SetMemberRole({
        team_slug: 'links',
        user_email: 'olly@links.test',
        role: 'viewer',
      });
      expect((await refusal(demote))?.code).toBe('conflict');
      const remove = harness.client.RemoveMember({ team_slug: 'links', user_email: 'olly@links.test' });
      expect((await refusal(remove))?.code).toBe('conflict');

      await harness.client.CreateUser({ email: 'tom@links.test', name: 'Tom', password: 'long password' });
      await harness.client.AddMember({ team_slug: 'links', user_email: 'tom@links.test', role: 'owner' });
      const issued = await harness.client.IssueToken({
        team_slug: 'links',
        user_email: 'tom@links.test',
        name: 't',
        write: false,
        expires_in: '',
        expires_at: '',
      });
      // Two owners: one may step down now.
      await harness.client.SetMemberRole({
        team_slug: 'links',
        user_email: 'olly@links.test',
        role: 'editor',
      });
      await harness.client.SetMemberRole({
        team_slug: 'links',
        user_email: 'olly@links.test',
        role: 'owner',
      });
      await harness.client.RemoveMember({ team_slug: 'links', user_email: 'tom@links.test' });
      const { rows } = await harness.service.pool.query(
        `SELECT revoked_at FROM accounts.tokens WHERE id = $1`,
        [issued.record!.id],
      );
      expect(rows[0].revoked_at).not.toBeNull();
      const outbox = await harness.service.pool.query(
        `SELECT count(*)::int AS n FROM accounts.outbox WHERE subject = 'accounts.token.revoked' AND payload->>'token_id' = $1`,
        [issued.record!.id],
      );
      expect(outbox.rows[0].n).toBe(1);
    });
  });

  describe('.RequestPasswordReset() and .ResetPassword()', () => {
    it('makes at most 3 links an hour per account and answers an unknown address with an empty secret', async () => {
      await harness.client.CreateUser({ email: 'rae@links.test', name: 'Rae', password: 'long password' });
      const secrets = [];
      for (let index = 0; index < 4; index += 1)
        secrets.push((await harness.client.RequestPasswordReset({ email: 'rae@links.test' })).secret);
      expect(secrets.slice(0, 3).every((secret) => /^[A-Za-z0-9_-]{43}$/.test(secret))).toBe(true);
      expect(secrets[3]).toBe('');
      expect((await harness.client.RequestPasswordReset({ email: 'nobody@links.test' })).secret).toBe('');
    });

    it('refuses a link older than 1 hour, and every link of the account once one is used', async () => {
      await harness.client.CreateUser({ email: 'sam@links.test', name: 'Sam', password: 'long password' });
      const first = (await harness.client.RequestPasswordReset({ email: 'sam@links.test' })).secret;
      const second = (await harness.client.RequestPasswordReset({ email: 'sam@links.test' })).secret;
      const { rows } = await harness.service.pool.query(
        `SELECT expires_at, created_at FROM accounts.password_resets ORDER BY created_at DESC LIMIT 1`,
      );
      expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBeLessThanOrEqual(
        3600_000 + 1000,
      );
      await harness.client.ResetPassword({ secret: first, password: 'another password' });
      const reuse = harness.client.ResetPassword({ secret: second, password: 'third password' });
      expect((await refusal(reuse))?.code).toBe('not_found');

      const third = (await harness.client.RequestPasswordReset({ email: 'sam@links.test' })).secret;
      await harness.service.pool.query(
        `UPDATE accounts.password_resets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
      );
      const late = harness.client.ResetPassword({ secret: third, password: 'third password' });
      expect((await refusal(late))?.code).toBe('not_found');
    });
  });
});
