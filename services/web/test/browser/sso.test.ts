// Single sign-on end to end in Chromium against a real OpenID provider (the certified `oidc-provider`
// package, started by this test on 127.0.0.1): a new person signs in and lands on home as a member of the
// deployment's team for new members; a person with an account is linked, not duplicated; other domains
// and unverified emails are refused; a replayed or forged callback is refused with a page that says so;
// an invitation is accepted through SSO; a team's "SSO only" setting stops password sign-in of its
// members while their API tokens keep working.
import { Client } from 'pg';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { prepareOpenIdProvider, type TestOpenIdProvider } from '../support/oidc-provider';
import { createPerson, onContainerStack, PASSWORD } from '../support/web-system';

// The provider is this test's own, configured on the system npm test starts for it (not on the web container).
(onContainerStack ? describe.skip : describe)(
  'single sign-on with OpenID Connect (Chromium, real provider)',
  () => {
    let provider: TestOpenIdProvider;
    beforeAll(async () => {
      provider = await prepareOpenIdProvider();
    });
    const suite = useBrowserSuite(() => ({
      ...provider.env,
      DSS_OIDC_ALLOWED_DOMAINS: 'acme.test, locked.test',
      DSS_OIDC_NEW_MEMBER_TEAMS: 'acme',
      DSS_OIDC_NEW_MEMBER_ROLE: 'editor',
    }));
    beforeAll(async () => {
      await provider.listen(`${suite.web.webUrl}/sso/callback`);
      await suite.web.people.team('acme');
    });
    afterAll(async () => {
      await provider?.close();
    });

    const signInPage = async () => {
      const { context, page } = await suite.browser.newPage();
      await page.goto(`${suite.web.webUrl}/sign-in`);
      return { context, page };
    };

    /**
     * From the web app's sign-in (or invitation) page through the provider's login and consent forms (skipped
     * when the provider still has this browser's session and grant), back to the web app's callback. The
     * callback's URL and status.
     */
    async function throughProvider(page: Page, login: string, button = 'Sign in with SSO') {
      const callback = page.waitForResponse(
        (response) => response.url().startsWith(`${suite.web.webUrl}/sso/callback`),
        { timeout: 90_000 },
      );
      await page.getByRole('link', { name: button }).click();
      const loginForm = page.locator('input[name=login]');
      const landed = await Promise.race([
        loginForm.waitFor({ timeout: 90_000 }).then(() => 'login' as const),
        callback.then(() => 'back' as const),
      ]);
      if (landed === 'login') {
        await loginForm.fill(login);
        await page.fill('input[name=password]', 'any password');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
      }
      const answer = await callback;
      await page.waitForLoadState('load');
      return { url: answer.url(), status: answer.status() };
    }

    /** The operator's view of refused sign-ins (every team and none), as accounts stored them from the bus. */
    async function refusedSignIns(reason: string, email = '') {
      let found: {
        team_id: string;
        ip: string;
        actor?: { kind: string } | null;
        target?: { name: string } | null;
      }[] = [];
      for (let attempt = 0; attempt < 300 && found.length === 0; attempt += 1) {
        const page = await suite.web.people.accounts.ListAuditEvents({
          team_id: '',
          actor: '',
          action: 'user.sign_in_failed',
          target: '',
          since: '',
          until: '',
          cursor: '',
          limit: 1000,
        });
        found = page.events.filter((event) => {
          const details = JSON.parse(event.details_json || '{}');
          return (
            details.method === 'sso' && details.reason === reason && (!email || event.target?.name === email)
          );
        });
        if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return found;
    }

    async function identityCount(userId: string): Promise<number> {
      const client = new Client({ connectionString: suite.web.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT count(*)::int AS n FROM accounts.sso_identities WHERE user_id = $1',
          [userId],
        );
        return rows[0].n;
      } finally {
        await client.end();
      }
    }

    it('should show "Sign in with SSO" on the sign-in page with no serious accessibility violation', async () => {
      const { page } = await signInPage();
      const button = page.getByRole('link', { name: 'Sign in with SSO' });
      expect(await button.getAttribute('href')).toBe('/sso/start?next=%2F');
      expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
      await saveScreenshot(page, 'sign-in-sso');
      expect(await seriousViolations(page)).toEqual([]);
    });

    it('should make a new person on first sign-in, land on home as a member of the team for new members, and sign out', async () => {
      provider.people.set('nora', { email: 'Nora@acme.test', email_verified: true, name: 'Nora North' });
      const { page } = await signInPage();
      expect((await throughProvider(page, 'nora')).status).toBe(303);
      expect(new URL(page.url()).pathname).toBe('/');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();

      const user = await suite.web.people.accounts.GetUser({ email: 'nora@acme.test', id: '' });
      expect(user.name).toBe('Nora North');
      const { memberships } = await suite.web.people.accounts.ListMemberships({ user_id: user.id });
      expect(memberships.map((m) => [m.team_slug, m.role])).toEqual([['acme', 'editor']]);
      expect(await identityCount(user.id)).toBe(1);

      // A second sign-in uses the same account.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/sign-in');
      expect((await page.goto(`${suite.web.webUrl}/settings/tokens`))?.url()).toContain('/sign-in');
      await throughProvider(page, 'nora');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const users = (await suite.web.people.accounts.ListUsers({ team_slug: '' })).users;
      expect(users.filter((u) => u.email === 'nora@acme.test')).toHaveLength(1);
    });

    it('should link the existing account with the same verified email instead of making another', async () => {
      const person = await createPerson(suite.web, 'acme', 'viewer', 'Erin Existing');
      provider.people.set('erin', {
        email: person.email,
        email_verified: true,
        name: 'Erin at the provider',
      });
      const { page } = await signInPage();
      await throughProvider(page, 'erin');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();

      const users = (await suite.web.people.accounts.ListUsers({ team_slug: '' })).users;
      const same = users.filter((u) => u.email === person.email);
      expect(same.map((u) => u.id)).toEqual([person.userId]);
      expect(await identityCount(person.userId)).toBe(1);
      // The role they had is kept (the role for new members is for new accounts only).
      const { memberships } = await suite.web.people.accounts.ListMemberships({ user_id: person.userId });
      expect(memberships.map((m) => m.role)).toEqual(['viewer']);
    });

    it('should refuse an email outside the allowed domains, and an unverified email, without making an account', async () => {
      provider.people.set('eve', { email: 'eve@elsewhere.test', email_verified: true, name: 'Eve' });
      const { page } = await signInPage();
      expect((await throughProvider(page, 'eve')).status).toBe(403);
      expect(await page.locator('main').textContent()).toContain('only acme.test, locked.test addresses');
      await expect(
        suite.web.people.accounts.GetUser({ email: 'eve@elsewhere.test', id: '' }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });

      provider.people.set('uma', { email: 'uma@acme.test', email_verified: false, name: 'Uma' });
      const { page: second } = await signInPage();
      expect((await throughProvider(second, 'uma')).status).toBe(403);
      expect(await second.getByRole('heading', { level: 1 }).textContent()).toBe('Email not verified');
      await expect(
        suite.web.people.accounts.GetUser({ email: 'uma@acme.test', id: '' }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
      // Both refusals are in the audit log, as a wrong password would be, with the client's address.
      const [domain] = await refusedSignIns('email_domain_not_allowed', 'eve@elsewhere.test');
      expect(domain).toMatchObject({ team_id: '', actor: { kind: 'anonymous' } });
      expect(domain.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
      expect(await refusedSignIns('email_unverified', 'uma@acme.test')).toHaveLength(1);
    });

    it('should refuse a replayed callback, with or without the used-up cookie, with a page that says so', async () => {
      provider.people.set('rita', { email: 'rita@acme.test', email_verified: true, name: 'Rita' });
      const { context, page } = await signInPage();
      await page.getByRole('link', { name: 'Sign in with SSO' }).click();
      await page.waitForURL((url) => url.href.startsWith(provider.issuer));
      const pending = (await context.cookies(suite.web.webUrl)).find((c) => c.name === 'dss_sso');
      expect(pending).toBeDefined();
      await page.goBack();
      const { url: callbackUrl } = await throughProvider(page, 'rita');
      await page.getByRole('button', { name: 'Sign out' }).click();

      // The same callback again: its pending sign-in was used up.
      const again = await page.goto(callbackUrl);
      expect(again?.status()).toBe(400);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in not completed');
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

      // With a copy of that pending cookie put back: the provider refuses the used code.
      await context.addCookies([{ ...pending! }]);
      const copied = await page.goto(callbackUrl);
      expect(copied?.status()).toBe(400);
      expect(await page.locator('main').textContent()).toContain('did not check out');
      expect((await page.goto(`${suite.web.webUrl}/settings/tokens`))?.url()).toContain('/sign-in');
      // Both refusals are audited: the used-up pending sign-in, the provider's refusal of the used code.
      expect((await refusedSignIns('no_pending_sign_in')).length).toBeGreaterThan(0);
      expect((await refusedSignIns('provider_refused')).length).toBeGreaterThan(0);
    });

    it('should refuse a forged callback whose state is not the one this browser sent', async () => {
      const { page } = await signInPage();
      await page.getByRole('link', { name: 'Sign in with SSO' }).click();
      await page.waitForURL((url) => url.href.startsWith(provider.issuer));
      const forged = await page.goto(
        `${suite.web.webUrl}/sso/callback?code=forged-code&state=forged-state&iss=${encodeURIComponent(provider.issuer)}`,
      );
      expect(forged?.status()).toBe(400);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in not completed');
      expect((await page.goto(`${suite.web.webUrl}/settings/tokens`))?.url()).toContain('/sign-in');
    });

    it('should let an invited person join through SSO instead of setting a password', async () => {
      const owner = await createPerson(suite.web, 'guild', 'owner');
      const created = await suite.web.people.accounts.CreateInvitation({
        team_slug: 'guild',
        email: 'ivy@acme.test',
        role: 'owner',
        invited_by_user_id: owner.userId,
      });
      provider.people.set('ivy', { email: 'ivy@acme.test', email_verified: true, name: 'Ivy' });
      const { page } = await suite.browser.newPage();
      await page.goto(`${suite.web.webUrl}/invitations/${created.secret}`);
      await throughProvider(page, 'ivy', 'Sign in with SSO to join');
      await page.getByRole('button', { name: /^Join / }).click();
      await page.waitForURL((url) => url.pathname === '/');
      const user = await suite.web.people.accounts.GetUser({ email: 'ivy@acme.test', id: '' });
      const { memberships } = await suite.web.people.accounts.ListMemberships({ user_id: user.id });
      // The invited role in the inviting team, besides the team for new members.
      expect(memberships.map((m) => [m.team_slug, m.role])).toEqual([
        ['acme', 'editor'],
        ['guild', 'owner'],
      ]);
    });

    it('should stop password sign-in for members of an "SSO only" team, keep their tokens working, and let them use SSO', async () => {
      // New tokens of the team come from SSO sessions alone: the owner, still signed in with a password after
      // turning the setting on, is refused (audited); the member signed in with SSO gets one.
      const owner = await createPerson(suite.web, 'locked', 'owner');
      const member = await createPerson(suite.web, 'locked', 'editor');
      const outsider = await createPerson(suite.web, 'acme', 'editor');
      const ownerPage = await suite.signedInPage(owner, '/settings/team/locked/members');
      await ownerPage.getByLabel('Members sign in with SSO only').check();
      await ownerPage.getByRole('button', { name: 'Save sign-in setting' }).click();
      await ownerPage.getByRole('heading', { name: /^Members of/ }).waitFor();
      expect(await ownerPage.getByLabel('Members sign in with SSO only').isChecked()).toBe(true);
      await saveScreenshot(ownerPage, 'members-sso-only');
      await ownerPage.goto(`${suite.web.webUrl}/settings/tokens`);
      const refusedToken = ownerPage.waitForResponse(
        (r) => r.url() === `${suite.web.webUrl}/settings/tokens` && r.request().method() === 'POST',
      );
      await ownerPage.getByRole('button', { name: 'Create token' }).click();
      expect((await refusedToken).status()).toBe(403);
      expect(await ownerPage.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Single sign-on required',
      );
      expect(await ownerPage.locator('main').textContent()).toContain('requires single sign-on');
      await saveScreenshot(ownerPage, 'token-sso-required');
      let refusals: Awaited<ReturnType<typeof suite.web.people.accounts.ListAuditEvents>>['events'] = [];
      for (let attempt = 0; attempt < 300 && refusals.length === 0; attempt += 1) {
        refusals = (
          await suite.web.people.accounts.ListAuditEvents({
            team_id: '',
            actor: '',
            action: 'token.create_refused',
            target: owner.userId,
            since: '',
            until: '',
            cursor: '',
            limit: 10,
          })
        ).events;
        if (refusals.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(JSON.parse(refusals[0]!.details_json)).toEqual({
        reason: 'sso_required',
        session_method: 'password',
      });

      const { page } = await signInPage();
      await page.getByLabel('Email').fill(member.email);
      await page.getByLabel('Password').fill(PASSWORD);
      const answer = page.waitForResponse((r) => r.url() === `${suite.web.webUrl}/sign-in`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect((await answer).status()).toBe(403);
      expect(await page.getByRole('alert').textContent()).toMatch(/Team locked requires single sign-on/);
      // A wrong password still answers as any wrong password (nothing said about the team).
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect(await page.getByRole('alert').textContent()).toBe('Wrong email or password.');

      const read = await fetch(`${suite.web.apiUrl}/diagrams`, {
        headers: { authorization: `Bearer ${member.token}` },
      });
      expect(read.status).toBe(200);
      // People of other teams still sign in with their password.
      const other = await suite.signedInPage(outsider);
      await other.getByRole('button', { name: 'Sign out' }).waitFor();

      provider.people.set('lee', { email: member.email, email_verified: true, name: 'Lee' });
      const { page: viaSso } = await signInPage();
      await throughProvider(viaSso, 'lee');
      await viaSso.getByRole('button', { name: 'Sign out' }).waitFor();
      await viaSso.goto(`${suite.web.webUrl}/settings/tokens`);
      await viaSso.getByRole('button', { name: 'Create token' }).click();
      await viaSso.getByRole('heading', { name: 'Token created' }).waitFor();
      expect(await viaSso.locator('#new-token').textContent()).toMatch(/\S{20,}/);
    });
  },
);
