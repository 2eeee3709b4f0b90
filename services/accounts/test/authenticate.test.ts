import { generateKeyPairSync } from 'node:crypto';
import { type BusMessage, keyIdOf, ServiceError, signAccessToken } from '@dss/platform';
import { type AccountsHarness, seedMember, startAccountsHarness } from './helpers';

describe('Accounts.Authenticate (real PostgreSQL, real gRPC)', () => {
  let harness: AccountsHarness;

  beforeAll(async () => {
    harness = await startAccountsHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  const authenticate = (token: string) => harness.client.Authenticate({ token });
  const expectRefusal = async (token: string, code: string, message?: RegExp) => {
    const error = await authenticate(token).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe(code);
    if (message) expect((error as ServiceError).message).toMatch(message);
  };

  it('returns the principal of a valid token with role, write flag, plan and caps', async () => {
    const issued = await seedMember(harness.client, {
      team: 'acme',
      email: 'ana@acme.test',
      role: 'editor',
      write: true,
    });
    const principal = await authenticate(issued.token);
    expect(principal).toMatchObject({
      token_id: issued.record!.id,
      user_email: 'ana@acme.test',
      team_slug: 'acme',
      role: 'editor',
      write: true,
      plan: 'team',
      caps: { max_tables_per_diagram: 250, max_private_diagrams: 100 },
    });
  });

  it('stores only a hash of the token, never the token itself', async () => {
    const issued = await seedMember(harness.client, { team: 'hash', email: 'h@hash.test' });
    const { rows } = await harness.service.pool.query('SELECT * FROM accounts.tokens WHERE id = $1', [
      issued.record!.id,
    ]);
    expect(JSON.stringify(rows)).not.toContain(issued.token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives unauthenticated for a missing token', async () => {
    await expectRefusal('', 'unauthenticated', /required/);
  });

  it('gives unauthenticated for a malformed token', async () => {
    await expectRefusal('not-a-jwt', 'unauthenticated');
  });

  it('gives unauthenticated for an expired token', async () => {
    // The member first, then a token that expires soon: seeding takes several writes, slow on a loaded machine.
    await seedMember(harness.client, { team: 'exp', email: 'e@exp.test' });
    const soon = new Date(Date.now() + 5000).toISOString();
    const issued = await harness.client.IssueToken({
      team_slug: 'exp',
      user_email: 'e@exp.test',
      name: 'soon',
      write: false,
      expires_in: '',
      expires_at: soon,
    });
    await expect(authenticate(issued.token)).resolves.toMatchObject({ team_slug: 'exp' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(soon) - Date.now()) + 500));
    await expectRefusal(issued.token, 'unauthenticated', /expired/);
  });

  it('gives unauthenticated for a revoked token and announces the revocation on the bus', async () => {
    const received: BusMessage[] = [];
    const subscription = await harness.bus.subscribe('accounts.token.revoked', (message) => {
      received.push(message);
    });
    const issued = await seedMember(harness.client, { team: 'rev', email: 'r@rev.test' });
    await harness.client.RevokeToken({ id: issued.record!.id, user_id: '' });
    await expectRefusal(issued.token, 'unauthenticated', /revoked/);
    await waitFor(() => received.length > 0);
    expect(received[0]!.data).toEqual({ token_id: issued.record!.id });
    await subscription.unsubscribe();
  });

  it('gives unauthenticated for a token whose signature was forged', async () => {
    const issued = await seedMember(harness.client, { team: 'forge', email: 'f@forge.test' });
    const [header, payload, signature] = issued.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...claims, tid: '00000000-0000-0000-0000-000000000000' }),
    ).toString('base64url');
    await expectRefusal(`${header}.${forgedPayload}.${signature}`, 'unauthenticated');
  });

  it('gives unauthenticated for a token signed with another key, even one claiming the right key id', async () => {
    const issued = await seedMember(harness.client, { team: 'wrongkey', email: 'w@wrongkey.test' });
    const { principal } = { principal: await authenticate(issued.token) };
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const otherPem = other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const realKid = JSON.parse(Buffer.from(issued.token.split('.')[0]!, 'base64url').toString()).kid;
    const claims = {
      tokenId: principal.token_id,
      userId: principal.user_id,
      teamId: principal.team_id,
      expiresAt: new Date(Date.now() + 3600_000),
    };
    await expectRefusal(signAccessToken(claims, otherPem, realKid), 'unauthenticated');
    await expectRefusal(signAccessToken(claims, otherPem, keyIdOf(other.publicKey)), 'unauthenticated');
  });

  it('gives invalid_token when the token’s team no longer exists', async () => {
    const issued = await seedMember(harness.client, { team: 'gone', email: 'g@gone.test' });
    await harness.client.DeleteTeam({ slug: 'gone' });
    await expectRefusal(issued.token, 'invalid_token', /team/);
  });

  it('gives invalid_token when the user is no longer a member', async () => {
    const issued = await seedMember(harness.client, { team: 'left', email: 'l@left.test' });
    await harness.client.RemoveMember({ team_slug: 'left', user_email: 'l@left.test' });
    await expectRefusal(issued.token, 'invalid_token', /member/);
  });

  it('gives plan_required when the team is on the free plan, and accepts again once it pays', async () => {
    const issued = await seedMember(harness.client, { team: 'cheap', email: 'c@cheap.test', plan: 'free' });
    await expectRefusal(issued.token, 'plan_required');
    await harness.client.SetPlan({ team_slug: 'cheap', plan: 'starter' });
    await expect(authenticate(issued.token)).resolves.toMatchObject({ plan: 'starter' });
  });
});

describe('Accounts.IssueToken', () => {
  let harness: AccountsHarness;
  beforeAll(async () => {
    harness = await startAccountsHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  it.each([
    ['30d', 30],
    ['90d', 90],
    ['1y', 365],
    ['2y', 730],
    ['', 365],
  ])('sets the expiry for choice "%s" to %i days ahead', async (choice, days) => {
    await seedMember(harness.client, { team: 'exp-choices', email: 'x@exp.test' });
    const issued = await harness.client.IssueToken({
      team_slug: 'exp-choices',
      user_email: 'x@exp.test',
      name: 'n',
      write: false,
      expires_in: choice,
      expires_at: '',
    });
    const daysAhead = (Date.parse(issued.record!.expires_at) - Date.now()) / 86_400_000;
    expect(daysAhead).toBeGreaterThan(days - 0.01);
    expect(daysAhead).toBeLessThan(days + 0.01);
  });

  it('refuses an expiry choice outside 30d, 90d, 1y and 2y', async () => {
    await seedMember(harness.client, { team: 'bad-exp', email: 'b@exp.test' });
    await expect(
      harness.client.IssueToken({
        team_slug: 'bad-exp',
        user_email: 'b@exp.test',
        name: 'n',
        write: false,
        expires_in: '7d',
        expires_at: '',
      }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses a token for a user who is not a member of the team', async () => {
    await harness.client.CreateTeam({ slug: 'closed', name: 'Closed', plan: 'team' });
    await harness.client.CreateUser({ email: 'out@side.test', name: 'Outsider', password: '' });
    await expect(
      harness.client.IssueToken({
        team_slug: 'closed',
        user_email: 'out@side.test',
        name: 'n',
        write: false,
        expires_in: '',
        expires_at: '',
      }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
