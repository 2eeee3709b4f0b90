// `/settings/tokens`: the signed-in person's own API tokens in each of their teams: create (team, expiry
// 30d / 90d / 1y default / 2y, allow writes), shown once; list with created, expiry and last use; revoke.
import { isServiceError } from '@dss/platform';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { html } from '../html';
import { forbidden, PageError } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import type { Viewer } from '../viewer';
import { csrfField, page, timestamp } from '../views/layout';

const EXPIRIES = [
  { value: '30d', text: '30 days' },
  { value: '90d', text: '90 days' },
  { value: '1y', text: '1 year' },
  { value: '2y', text: '2 years' },
];
const DEFAULT_EXPIRY = '1y';

export function tokenRoutes(router: Router, context: WebAppContext): void {
  const { accounts } = context.clients;

  router.get('/settings/tokens', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const lists = await Promise.all(
      viewer.memberships.map((membership) =>
        accounts.ListTokens({ team_slug: membership.team_slug, user_email: viewer.user.email }),
      ),
    );
    const tokens = lists
      .flatMap((list) => list.tokens)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    const csrfToken = csrfTokenFor(context, req, res);
    res.send(
      page(
        { title: 'API tokens', viewer: { ...viewer.user, csrfToken } },
        html`<main>
<h1>API tokens</h1>
<p>Tokens let programs use the REST API as you. A token is shown once, when it is created.</p>
${createForm(viewer, csrfToken)}
<h2>Your tokens</h2>
${
  tokens.length === 0
    ? html`<p class="muted">You have no tokens.</p>`
    : html`<table class="list" id="tokens">
<thead><tr><th>Name</th><th>Team</th><th>Access</th><th>Created</th><th>Expires</th><th>Last used</th><th></th></tr></thead>
<tbody>${tokens.map(
        (token) => html`<tr data-token="${token.id}">
<td>${token.name}</td><td>${token.team_slug}</td><td>${token.write ? 'read and write' : 'read'}</td>
<td>${timestamp(token.created_at)}</td><td>${timestamp(token.expires_at)}</td><td>${
          token.last_used_at ? timestamp(token.last_used_at) : html`<span class="muted">never</span>`
        }</td>
<td>${
          token.revoked_at
            ? html`revoked ${timestamp(token.revoked_at)}`
            : html`<form method="post" action="/settings/tokens/${token.id}/revoke" class="inline">${csrfField(csrfToken)}<button type="submit" class="danger">Revoke</button></form>`
        }</td>
</tr>`,
      )}</tbody></table>`
}
</main>`,
      ).text,
    );
  });

  router.post('/settings/tokens', requireViewer, async (req: Request, res: Response) => {
    const viewer = viewerOf(res)!;
    const body = req.body as Record<string, unknown>;
    const teamSlug = typeof body.team === 'string' ? body.team : viewer.memberships[0]?.team_slug;
    const membership = viewer.memberships.find((candidate) => candidate.team_slug === teamSlug);
    if (!membership) throw forbidden('You are not a member of that team.');
    const expiresIn = typeof body.expires === 'string' ? body.expires : DEFAULT_EXPIRY;
    if (!EXPIRIES.some((choice) => choice.value === expiresIn))
      throw new PageError(400, 'That did not work', 'Choose one of the offered expiry times.');
    const name =
      typeof body.name === 'string' && body.name.trim() !== '' ? body.name.trim().slice(0, 100) : 'API token';
    let issued: Awaited<ReturnType<typeof accounts.IssueToken>>;
    try {
      issued = await accounts.IssueToken({
        team_slug: membership.team_slug,
        user_email: viewer.user.email,
        name,
        write: body.write === 'on',
        expires_in: expiresIn,
        expires_at: '',
        // accounts checks it: a team that signs in with SSO only takes tokens from SSO sessions alone.
        session_id: viewer.sessionId,
      });
    } catch (error) {
      if (!isServiceError(error) || error.code !== 'forbidden') throw error;
      throw new PageError(
        403,
        'Single sign-on required',
        `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}. Sign out first, then use “Sign in with SSO”.`,
      );
    }
    // The secret is on this page only: never cached, never stored by the web app.
    res.setHeader('Cache-Control', 'no-store');
    res.send(
      page(
        { title: 'Token created', viewer: { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) } },
        html`<main class="narrow">
<h1>Token created</h1>
<p>Copy the token now: it is shown this once and cannot be shown again.</p>
<pre class="secret" id="new-token">${issued.token}</pre>
<p>${issued.record!.name} · team ${issued.record!.team_slug} · ${issued.record!.write ? 'read and write' : 'read'} · expires ${timestamp(issued.record!.expires_at)}</p>
<p><a href="/settings/tokens">Back to your tokens</a></p>
</main>`,
      ).text,
    );
  });

  router.post('/settings/tokens/:id/revoke', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    // accounts revokes only a token of this user (else not_found, shown as the 404 page).
    await accounts.RevokeToken({ id: String(req.params.id), user_id: viewer.user.id });
    res.redirect(303, '/settings/tokens');
  });
}

function createForm(viewer: Viewer, csrfToken: string) {
  if (viewer.memberships.length === 0) return html`<p class="muted">Join a team to create tokens.</p>`;
  return html`<form method="post" action="/settings/tokens" class="stack card" id="create-token">
${csrfField(csrfToken)}
<h2>New token</h2>
<label>Name <input type="text" name="name" maxlength="100" placeholder="API token"></label>
${
  viewer.memberships.length > 1
    ? html`<label>Team <select name="team">${viewer.memberships.map(
        (membership) => html`<option value="${membership.team_slug}">${membership.team_name}</option>`,
      )}</select></label>`
    : html`<input type="hidden" name="team" value="${viewer.memberships[0]!.team_slug}">`
}
<label>Expires in <select name="expires">${EXPIRIES.map(
    (choice) =>
      html`<option value="${choice.value}"${choice.value === DEFAULT_EXPIRY ? html` selected` : ''}>${choice.text}</option>`,
  )}</select></label>
<label class="check"><input type="checkbox" name="write"> Allow writes (create diagrams, propose changes)</label>
<button type="submit" class="primary">Create token</button>
</form>`;
}
