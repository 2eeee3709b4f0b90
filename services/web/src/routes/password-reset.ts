// "Forgot password": a reset link by email (single use, 1 hour; accounts makes it). The answer is the
// same whether or not the address has an account, and requests are limited per IP (here) and per account
// (accounts). The link's page sets a new password, which ends the person's other sessions.
import { isServiceError } from '@dss/platform';
import type { Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { anonymousCsrfToken } from '../anonymous-csrf';
import { html } from '../html';
import { csrfField, page } from '../views/layout';

const SAME_ANSWER =
  'If an account uses that address, we sent it a link to set a new password. The link works once, within 1 hour.';

export function passwordResetRoutes(router: Router, context: WebAppContext): void {
  router.get('/forgot-password', (req, res) => {
    renderRequestForm(res, anonymousCsrfToken(context, req, res));
  });

  router.post('/forgot-password', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.trim().slice(0, 320) : '';
    const wait = context.resetThrottle.take(req.ip ?? 'unknown');
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return renderRequestForm(
        res,
        anonymousCsrfToken(context, req, res),
        `Too many requests from your address. Try again in ${Math.ceil(wait / 60)} minutes.`,
        429,
      );
    }
    const ticket = await context.clients.accounts.RequestPasswordReset({ email });
    if (ticket.secret && context.mailer) {
      const link = new URL(`/reset-password/${ticket.secret}`, context.appUrl).toString();
      // Sent in the background, and answered alike anyway: a slower or different answer would tell which
      // addresses have accounts.
      context.mailer
        .send({
          to: ticket.email,
          subject: 'Set a new password',
          text: `Someone asked to set a new password for ${ticket.email} on Diagram Schema Service.\n\nOpen this link within 1 hour to choose one (it works once):\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.\n`,
        })
        .catch((error: unknown) => context.logger.error({ err: error }, 'password reset email failed'));
    }
    res.send(
      page(
        { title: 'Check your email' },
        html`<main class="narrow"><h1>Check your email</h1><p role="status">${SAME_ANSWER}</p><p><a href="/sign-in">Back to sign in</a></p></main>`,
      ).text,
    );
  });

  router.get('/reset-password/:secret', (req, res) => {
    renderResetForm(res, anonymousCsrfToken(context, req, res), String(req.params.secret));
  });

  router.post('/reset-password/:secret', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const secret = String(req.params.secret);
    const csrfToken = anonymousCsrfToken(context, req, res);
    if (password !== body.confirm)
      return renderResetForm(res, csrfToken, secret, 'The two passwords differ.', 400);
    try {
      await context.clients.accounts.ResetPassword({ secret, password });
    } catch (error) {
      if (isServiceError(error) && error.code === 'invalid_request')
        return renderResetForm(res, csrfToken, secret, error.message, 400);
      if (isServiceError(error) && error.code === 'not_found')
        return renderResetForm(
          res,
          csrfToken,
          secret,
          'This link is not valid: it was used or has expired.',
          404,
        );
      throw error;
    }
    res.redirect(303, '/sign-in?reset=done');
  });
}

function renderRequestForm(res: Response, csrfToken: string, error?: string, status = 200): void {
  res.status(status).send(
    page(
      { title: 'Forgot password' },
      html`<main class="narrow">
<h1>Forgot your password?</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/forgot-password" class="stack">
${csrfField(csrfToken)}
<label>Email <input type="email" name="email" autocomplete="username" required autofocus></label>
<button type="submit" class="primary">Send reset link</button>
</form>
<p><a href="/sign-in">Back to sign in</a></p>
</main>`,
    ).text,
  );
}

function renderResetForm(
  res: Response,
  csrfToken: string,
  secret: string,
  error?: string,
  status = 200,
): void {
  res.status(status).send(
    page(
      { title: 'Set a new password' },
      html`<main class="narrow">
<h1>Set a new password</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/reset-password/${encodeURIComponent(secret)}" class="stack">
${csrfField(csrfToken)}
<label>New password <input type="password" name="password" autocomplete="new-password" minlength="8" required autofocus></label>
<label>Repeat the new password <input type="password" name="confirm" autocomplete="new-password" minlength="8" required></label>
<button type="submit" class="primary">Set password</button>
</form>
</main>`,
    ).text,
  );
}
