// `/invitations/{secret}`: the page an invitation link opens. A person without an account chooses a name
// and password and is signed in; a person with one signs in as the invited address first, then joins.
import type { Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { anonymousCsrfToken } from '../anonymous-csrf';
import { setCookie } from '../cookies';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { viewerOf } from '../session';
import { csrfField, page } from '../views/layout';

const SESSION_COOKIE_SECONDS = 12 * 60 * 60;
type Invitation = Awaited<ReturnType<WebAppContext['clients']['accounts']['GetInvitation']>>;

export function invitationRoutes(router: Router, context: WebAppContext): void {
  const { accounts } = context.clients;

  router.get('/invitations/:secret', async (req, res) => {
    const secret = String(req.params.secret);
    const invitation = await accounts.GetInvitation({ secret });
    const viewer = viewerOf(res);
    const csrfToken = viewer ? csrfTokenFor(context, req, res) : anonymousCsrfToken(context, req, res);
    renderInvitation(res, {
      invitation,
      secret,
      csrfToken,
      viewer: viewer?.user,
      ssoName: context.sso?.settings.providerName,
    });
  });

  router.post('/invitations/:secret', async (req, res) => {
    const secret = String(req.params.secret);
    const body = req.body as Record<string, unknown>;
    const viewer = viewerOf(res);
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    const invitation = await accounts.GetInvitation({ secret });
    if (!viewer && password !== body.confirm) {
      return renderInvitation(res, {
        invitation,
        secret,
        csrfToken: anonymousCsrfToken(context, req, res),
        ssoName: context.sso?.settings.providerName,
        error: 'The two passwords differ.',
        status: 400,
      });
    }
    const membership = await accounts.AcceptInvitation({
      secret,
      password: viewer ? '' : password,
      name: typeof body.name === 'string' ? body.name : '',
      user_id: viewer?.user.id ?? '',
    });
    if (!viewer) {
      const session = await accounts.CreateSession({ user_id: membership.user_id, method: 'invitation' });
      setCookie(
        res,
        context.cookies,
        context.cookies.session,
        context.signer.sign(session.session_id),
        SESSION_COOKIE_SECONDS,
      );
    }
    res.redirect(303, '/');
  });
}

function renderInvitation(
  res: Response,
  view: {
    invitation: Invitation;
    secret: string;
    csrfToken: string;
    viewer?: { name: string; email: string };
    /** The single sign-on provider's name, when the deployment has one. */
    ssoName?: string;
    error?: string;
    status?: number;
  },
): void {
  const { invitation, secret, csrfToken, viewer } = view;
  const action = `/invitations/${encodeURIComponent(secret)}`;
  const signedInAsInvited = viewer && viewer.email.toLowerCase() === invitation.email.toLowerCase();
  let form: Html;
  if (signedInAsInvited) {
    form = html`<form method="post" action="${action}" class="stack">${csrfField(csrfToken)}
<button type="submit" class="primary">Join ${invitation.team_name}</button></form>`;
  } else if (viewer || invitation.account_exists) {
    // The invitation belongs to the invited address's account: sign in as it, then come back here.
    form = html`<p>This invitation is for <strong>${invitation.email}</strong>, which already has an account.
${viewer ? html`You are signed in as ${viewer.email}: sign out, then` : ''} sign in as ${invitation.email} to join.</p>
${viewer ? '' : html`<p><a class="button primary" href="/sign-in?next=${encodeURIComponent(action)}">Sign in to join</a></p>`}`;
  } else if (invitation.sso_only) {
    form = view.ssoName
      ? html`<p>Team ${invitation.team_name} signs in with single sign-on only. Sign in as ${invitation.email}, then join.</p>
<p><a class="button primary" href="/sso/start?next=${encodeURIComponent(action)}">Sign in with ${view.ssoName} to join</a></p>`
      : html`<p>Team ${invitation.team_name} signs in with single sign-on only, which this deployment does not offer. Ask the team's owner.</p>`;
  } else {
    const sso = view.ssoName
      ? html`<p><a class="button" href="/sso/start?next=${encodeURIComponent(action)}">Sign in with ${view.ssoName} to join</a></p>
<p class="muted">or set a password:</p>`
      : '';
    form = html`${sso}<form method="post" action="${action}" class="stack">${csrfField(csrfToken)}
<label>Email <input type="email" value="${invitation.email}" autocomplete="username" readonly></label>
<label>Your name <input type="text" name="name" maxlength="100" autocomplete="name" required autofocus></label>
<label>Password <input type="password" name="password" autocomplete="new-password" minlength="8" required></label>
<label>Repeat the password <input type="password" name="confirm" autocomplete="new-password" minlength="8" required></label>
<button type="submit" class="primary">Create account and join</button>
</form>`;
  }
  res.status(view.status ?? 200).send(
    page(
      { title: `Join ${invitation.team_name}` },
      html`<main class="narrow">
<h1>Join ${invitation.team_name}</h1>
<p>${invitation.invited_by_email ? html`${invitation.invited_by_email} invited you` : 'You are invited'} to team ${invitation.team_name} as <strong>${invitation.role}</strong>. The invitation is valid until ${invitation.expires_at.slice(0, 10)}.</p>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
${form}
</main>`,
    ).text,
  );
}
