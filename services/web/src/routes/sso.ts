// Single sign-on pages. `/sso/start` sends the person to the deployment's OpenID provider with a fresh
// state, nonce and PKCE challenge, remembered in a signed HttpOnly cookie for 10 minutes; `/sso/callback`
// uses that cookie up at once (a replayed callback finds none), checks the provider's answer, refuses
// unverified emails and emails outside the allowed domains, and has accounts sign in (or make, or link) the
// person; then a session like any other. Every refusal is a page that says what happened, never a 500, and
// an entry of the audit log (user.sign_in_failed), like a wrong password.
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { clearCookie, readCookie, setCookie } from '../cookies';
import { PageError, notFound } from '../page-errors';
import { localPath } from '../session';
import { type PendingSignIn, SsoRefusal } from '../sso';
import { emailDomainAllowed } from '../sso-config';

const PENDING_COOKIE_SECONDS = 10 * 60;
const SESSION_COOKIE_SECONDS = 12 * 60 * 60;
const COOKIE_PURPOSE = 'sso';

const startAgain = (reason: string) =>
  new PageError(
    400,
    'Sign-in not completed',
    `${reason} Nothing was signed in. Start again from the sign-in page.`,
  );

export function ssoRoutes(router: Router, context: WebAppContext): void {
  router.get('/sso/start', async (req, res) => {
    const sso = context.sso;
    if (!sso) throw notFound();
    const { url, pending } = await sso.begin(localPath(req.query.next));
    const value = Buffer.from(JSON.stringify(pending)).toString('base64url');
    setCookie(
      res,
      context.cookies,
      context.cookies.sso,
      context.signer.sign(value, COOKIE_PURPOSE),
      PENDING_COOKIE_SECONDS,
    );
    res.redirect(303, url);
  });

  router.get('/sso/callback', async (req, res) => {
    const sso = context.sso;
    if (!sso) throw notFound();
    const pending = takePending(req, res, context);
    if (!pending) {
      await recordRefusal(context, '', 'no_pending_sign_in');
      throw startAgain('This sign-in was already used, has expired or did not start in this browser.');
    }
    let person: Awaited<ReturnType<typeof sso.complete>>;
    try {
      person = await sso.complete(new URL(req.originalUrl, context.appUrl), pending);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      // The reason names a failed check, never a code or token.
      context.logger.warn({ reason: error.reason }, 'single sign-on refused');
      await recordRefusal(context, '', 'provider_refused');
      throw startAgain('The answer of the sign-in provider did not check out for this sign-in.');
    }
    if (!person.emailVerified) {
      await recordRefusal(context, person.email, 'email_unverified');
      throw new PageError(
        403,
        'Email not verified',
        `Your sign-in provider has not verified ${person.email}. Verify it there, then sign in again.`,
      );
    }
    if (!emailDomainAllowed(sso.settings, person.email)) {
      await recordRefusal(context, person.email, 'email_domain_not_allowed');
      throw new PageError(
        403,
        'Not allowed',
        `Email addresses like ${person.email} cannot sign in here: only ${sso.settings.allowedDomains.join(', ')} addresses can.`,
      );
    }
    const { user } = await context.clients.accounts.SignInWithSso({
      issuer: person.issuer,
      subject: person.subject,
      email: person.email,
      name: person.name,
      join_team_slugs: sso.settings.newMemberTeams,
      join_role: sso.settings.newMemberRole,
    });
    const session = await context.clients.accounts.CreateSession({ user_id: user!.id, method: 'sso' });
    setCookie(
      res,
      context.cookies,
      context.cookies.session,
      context.signer.sign(session.session_id),
      SESSION_COOKIE_SECONDS,
    );
    clearCookie(res, context.cookies, context.cookies.nonce);
    res.redirect(303, localPath(pending.next));
  });
}

/**
 * Has accounts record a refused sign-in in the audit log (user.sign_in_failed, method sso), with this
 * request's id and address. The refusal page is shown whether or not that worked.
 */
async function recordRefusal(context: WebAppContext, email: string, reason: string): Promise<void> {
  try {
    await context.clients.accounts.RecordSsoRefusal({ email, reason });
  } catch (error) {
    context.logger.error({ err: error, reason }, 'could not record a refused single sign-on');
  }
}

/** The pending sign-in of this browser, used up: the cookie is cleared whatever the callback brings. */
function takePending(req: Request, res: Response, context: WebAppContext): PendingSignIn | null {
  const signed = readCookie(req, context.cookies.sso);
  if (!signed) return null;
  clearCookie(res, context.cookies, context.cookies.sso);
  const value = context.signer.unsign(signed, COOKIE_PURPOSE);
  if (!value) return null;
  try {
    const pending = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<PendingSignIn>;
    if (
      typeof pending.state !== 'string' ||
      typeof pending.nonce !== 'string' ||
      typeof pending.verifier !== 'string'
    )
      return null;
    return {
      state: pending.state,
      nonce: pending.nonce,
      verifier: pending.verifier,
      next: localPath(pending.next),
    };
  } catch {
    return null;
  }
}
