// Sign-in with email and password (accounts.VerifyPassword, scrypt), a fresh session from accounts put
// in a signed HttpOnly cookie, sign-out that deletes the session. One generic message for every failure,
// and a per-IP throttle of failed attempts.
import { randomBytes } from 'node:crypto';
import { isServiceError } from '@dss/platform';
import type { Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { clearCookie, readCookie, setCookie } from '../cookies';
import { csrfTokenFor } from '../csrf';
import { html } from '../html';
import { localPath, viewerOf } from '../session';
import { csrfField, page } from '../views/layout';

const SESSION_COOKIE_SECONDS = 12 * 60 * 60;
const NONCE_COOKIE_SECONDS = 60 * 60;
const WRONG_CREDENTIALS = 'Wrong email or password.';

export function signInRoutes(router: Router, context: WebAppContext): void {
  router.get('/sign-in', (req, res) => {
    const next = localPath(req.query.next);
    if (viewerOf(res)) return res.redirect(303, next);
    // The sign-in form's CSRF token is bound to a random nonce in a cookie of its own; an existing one is
    // kept, so a second sign-in tab does not invalidate the first.
    const existing = readCookie(req, context.cookies.nonce);
    const nonce = (existing && context.signer.unsign(existing)) || randomBytes(24).toString('base64url');
    setCookie(res, context.cookies, context.cookies.nonce, context.signer.sign(nonce), NONCE_COOKIE_SECONDS);
    renderForm(res, context, { csrfToken: context.signer.csrfToken(`nonce:${nonce}`), next, email: '' });
  });

  router.post('/sign-in', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.trim().slice(0, 320) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const next = localPath(body.next);
    const address = req.ip ?? 'unknown';
    const csrfToken = csrfTokenFor(context, req, res);

    const wait = context.throttle.retryAfterSeconds(address);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return renderForm(res, context, {
        csrfToken,
        next,
        email,
        error: `Too many failed sign-ins from your address. Try again in ${Math.ceil(wait / 60)} minutes.`,
        status: 429,
      });
    }
    let userId: string;
    try {
      userId = (await context.clients.accounts.VerifyPassword({ email, password })).id;
    } catch (error) {
      // The right password of a member of a team that signs in with single sign-on only.
      if (isServiceError(error) && error.code === 'forbidden') {
        const message = `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
        return renderForm(res, context, { csrfToken, next, email, error: message, status: 403 });
      }
      if (!isServiceError(error) || (error.code !== 'unauthenticated' && error.code !== 'invalid_request'))
        throw error;
      context.throttle.recordFailure(address);
      return renderForm(res, context, { csrfToken, next, email, error: WRONG_CREDENTIALS, status: 401 });
    }
    context.throttle.recordSuccess(address);
    const session = await context.clients.accounts.CreateSession({ user_id: userId, method: 'password' });
    setCookie(
      res,
      context.cookies,
      context.cookies.session,
      context.signer.sign(session.session_id),
      SESSION_COOKIE_SECONDS,
    );
    clearCookie(res, context.cookies, context.cookies.nonce);
    res.redirect(303, next);
  });

  router.post('/sign-out', async (_req, res) => {
    const viewer = viewerOf(res);
    if (viewer) await context.clients.accounts.DeleteSession({ session_id: viewer.sessionId });
    clearCookie(res, context.cookies, context.cookies.session);
    res.redirect(303, '/sign-in');
  });
}

function renderForm(
  res: Response,
  context: WebAppContext,
  form: { csrfToken: string; next: string; email: string; error?: string; status?: number },
): void {
  res.status(form.status ?? 200).send(
    page(
      { title: 'Sign in' },
      html`<main class="narrow">
<h1>Sign in</h1>
${form.error ? html`<p class="error" role="alert">${form.error}</p>` : ''}
${
  context.sso
    ? html`<p><a class="button primary sso" href="/sso/start?next=${encodeURIComponent(form.next)}">Sign in with ${context.sso.settings.providerName}</a></p>
<p class="muted separator">or with your email and password</p>`
    : ''
}
<form method="post" action="/sign-in" class="stack">
${csrfField(form.csrfToken)}
<input type="hidden" name="next" value="${form.next}">
<label>Email <input type="email" name="email" value="${form.email}" autocomplete="username" required autofocus></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit" class="primary">Sign in</button>
</form>
<p><a href="/forgot-password">Forgot password?</a></p>
<p class="muted">Passwords are set by an operator, who types it on standard input (never on the command line): <code>npm run dss -- user set-password --email …</code></p>
</main>`,
    ).text,
  );
}
