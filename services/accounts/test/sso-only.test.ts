// A team that signs in with single sign-on only, on the accounts side: new API tokens come from SSO sessions
// alone (a password or invitation session is refused and the refusal audited; an operator at a shell is not
// a session), turning the setting on ends the members' other sessions while their tokens keep working, and
// refused sign-ins (SSO refusals the web app reports, a password where SSO is required, an identity linked
// elsewhere) are audited like a wrong password.
import type { ServiceError } from '@dss/platform';
import { eventually } from '@dss/platform/testing';
import { type AccountsHarness, auditEvents, seedMember, startAccountsHarness } from './helpers';

jest.setTimeout(60_000);

describe('accounts: SSO-only teams', () => {
  let harness: AccountsHarness;

  beforeAll(async () => {
    harness = await startAccountsHarness();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as ServiceError,
    );

  async function entries(action: string, target = '') {
    return (await auditEvents(harness.client, { action, target })).map((event) => ({
      ...event,
      details: JSON.parse(event.details_json || '{}'),
    }));
  }

  const issue = (team: string, email: string, sessionId: string) =>
    harness.client.IssueToken({
      team_slug: team,
      user_email: email,
      name: 'from the web',
      write: false,
      expires_in: '',
      expires_at: '',
      session_id: sessionId,
    });

  async function member(team: string, email: string) {
    const seeded = await seedMember(harness.client, { team, email, role: 'owner' });
    const user = await harness.client.GetUser({ email, id: '' });
    return { user, token: seeded.token };
  }

  it('should refuse a token to a password or invitation session of an SSO-only team, audited, and issue it to an SSO session', async () => {
    const { user } = await member('sso-tokens', 'owner@sso-tokens.test');
    await harness.client.SetTeamSsoOnly({ team_slug: 'sso-tokens', sso_only: true });
    for (const method of ['password', 'invitation']) {
      const session = await harness.client.CreateSession({ user_id: user.id, method });
      const refused = await refusal(issue('sso-tokens', user.email, session.session_id));
      expect(refused?.code).toBe('forbidden');
      expect(refused?.message).toMatch(/requires single sign-on/);
    }
    await eventually(async () => {
      const refused = (await entries('token.create_refused', user.id)).map((entry) => entry.details);
      expect(refused).toEqual(
        expect.arrayContaining([
          { reason: 'sso_required', session_method: 'password' },
          { reason: 'sso_required', session_method: 'invitation' },
        ]),
      );
    }, 15_000);
    const sso = await harness.client.CreateSession({ user_id: user.id, method: 'sso' });
    const issued = await issue('sso-tokens', user.email, sso.session_id);
    expect(issued.token).toBeTruthy();
    // An operator at a shell passes no session.
    expect((await issue('sso-tokens', user.email, '')).token).toBeTruthy();
  });

  it('should issue tokens to a password session of a team without the setting, and never to another user’s session', async () => {
    const { user } = await member('sso-free', 'owner@sso-free.test');
    const { user: other } = await member('sso-free', 'other@sso-free.test');
    const session = await harness.client.CreateSession({ user_id: user.id, method: 'password' });
    expect((await issue('sso-free', user.email, session.session_id)).token).toBeTruthy();
    expect((await refusal(issue('sso-free', other.email, session.session_id)))?.code).toBe('unauthenticated');
    expect((await refusal(issue('sso-free', user.email, 'not-a-session')))?.code).toBe('unauthenticated');
    expect(
      (await refusal(harness.client.CreateSession({ user_id: user.id, method: 'telepathy' })))?.code,
    ).toBe('invalid_request');
  });

  it('should end the members’ sessions without SSO (not the acting owner’s) when the setting is turned on, keeping SSO sessions and tokens', async () => {
    const { user, token } = await member('sso-switch', 'owner@sso-switch.test');
    const password = await harness.client.CreateSession({ user_id: user.id, method: 'password' });
    const sso = await harness.client.CreateSession({ user_id: user.id, method: 'sso' });
    expect((await harness.client.GetSession({ session_id: password.session_id })).method).toBe('password');
    // The owner making the change is not signed out in mid-action.
    const acting = await harness.client.CreateSession({ user_id: user.id, method: 'password' });
    await harness.client.SetTeamSsoOnly({
      team_slug: 'sso-switch',
      sso_only: true,
      acting_session_id: acting.session_id,
    });
    expect((await harness.client.GetSession({ session_id: acting.session_id })).method).toBe('password');
    expect((await refusal(harness.client.GetSession({ session_id: password.session_id })))?.code).toBe(
      'unauthenticated',
    );
    expect((await harness.client.GetSession({ session_id: sso.session_id })).method).toBe('sso');
    const principal = await harness.client.Authenticate({ token });
    expect(principal.user_id).toBe(user.id);
    await eventually(async () => {
      const [changed] = await entries('team.sso_only_changed');
      expect(changed.details).toEqual({ sso_only: true, ended_sessions: 1 });
    }, 15_000);
  });

  it('should audit refused single sign-ons the web app reports, for every team of the email’s user', async () => {
    const { user } = await member('sso-refusals', 'someone@sso-refusals.test');
    await harness.client.RecordSsoRefusal({ email: 'Someone@SSO-refusals.test', reason: 'email_unverified' });
    await harness.client.RecordSsoRefusal({ email: '', reason: 'no_pending_sign_in' });
    await eventually(async () => {
      const failed = await entries('user.sign_in_failed');
      expect(failed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            target: expect.objectContaining({ id: user.id }),
            details: { method: 'sso', reason: 'email_unverified' },
            actor: expect.objectContaining({ kind: 'anonymous' }),
          }),
          expect.objectContaining({ team_id: '', details: { method: 'sso', reason: 'no_pending_sign_in' } }),
        ]),
      );
    }, 15_000);
    expect(
      (await refusal(harness.client.RecordSsoRefusal({ email: 'x@y.test', reason: 'anything' })))?.code,
    ).toBe('invalid_request');
  });

  it('should audit a right password refused because a team requires SSO', async () => {
    await harness.client.CreateTeam({ slug: 'sso-password', name: 'SSO password', plan: 'team' });
    await harness.client.CreateUser({
      email: 'pw@sso-password.test',
      name: 'pw',
      password: 'long enough secret',
    });
    await harness.client.AddMember({
      team_slug: 'sso-password',
      user_email: 'pw@sso-password.test',
      role: 'editor',
    });
    await harness.client.SetTeamSsoOnly({ team_slug: 'sso-password', sso_only: true });
    const refused = await refusal(
      harness.client.VerifyPassword({ email: 'pw@sso-password.test', password: 'long enough secret' }),
    );
    expect(refused?.code).toBe('forbidden');
    const user = await harness.client.GetUser({ email: 'pw@sso-password.test', id: '' });
    await eventually(async () => {
      const failed = await entries('user.sign_in_failed', user.id);
      expect(failed.map((entry) => entry.details)).toContainEqual({
        method: 'password',
        reason: 'sso_required',
      });
    }, 15_000);
  });
});
