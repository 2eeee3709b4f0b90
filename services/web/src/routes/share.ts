// Read-only share links. `/diagrams/{uuid}/share` lists a diagram's links (who made each, for which
// version, until when) and lets owners and editors make and revoke them; a new link's address is shown
// once (only its hash is stored). `/s/{token}` opens the diagram (or the one version) without signing in:
// nothing else of the team is shown, search engines are told to keep away (meta and X-Robots-Tag), the
// address is sent to no other site (Referrer-Policy), and visits are limited per address.
// `/s/{token}/embed` is the same drawing without chrome, which any site may frame (a wiki page). The link
// is checked by the diagrams service at every visit, so revoking it ends access at once. A share token is
// not an API token: the gateway only accepts tokens that accounts issued.
import { drawDiagram } from '../drawings';
import { isServiceError } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { findVisibleDiagram, userNames } from '../lookups';
import { PageError } from '../page-errors';
import { EMBED_CONTENT_SECURITY_POLICY } from '../security-headers';
import { requireViewer, viewerOf } from '../session';
import { canEdit, principalFor } from '../viewer';
import { VisitLimiter } from '../visit-limiter';
import { drawingFigure, wantsCopies } from '../views/copies-note';
import { csrfField, messagePage, page, timestamp } from '../views/layout';
import { versionNumberOf } from './versions';

/** Visits of share-link pages a minute from one address. */
export const SHARE_VISITS_PER_MINUTE = 60;
const EXPIRY_DAYS = ['1', '7', '30', '90'];
/** Any site may frame the shared embed view; it shows only what the link opens. */
const SHARED_EMBED_CSP = EMBED_CONTENT_SECURITY_POLICY.replace("frame-ancestors 'self'", 'frame-ancestors *');

export function shareRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;
  const limiter = new VisitLimiter(SHARE_VISITS_PER_MINUTE);

  async function managePage(req: Request, res: Response, created?: { url: string; version: number }) {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const principal = principalFor(viewer, membership);
    const [{ links }, { versions }] = await Promise.all([
      clients.diagrams.ListShareLinks({ principal, uuid: diagram.uuid }),
      clients.diagrams.ListVersions({ principal, uuid: diagram.uuid }),
    ]);
    const names = await userNames(
      clients,
      links.map((link) => link.created_by),
    );
    const csrfToken = csrfTokenFor(context, req, res);
    const editor = canEdit(membership.role);
    const now = Date.now();
    res.status(created ? 201 : 200).send(
      page(
        {
          title: `Share links: ${diagram.name}`,
          viewer: { ...viewer.user, csrfToken },
          scripts: ['/assets/copy.js'],
        },
        html`<main>
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>Share links</h1>
<p>A share link opens this diagram read-only to anyone who has it, without signing in, and shows nothing else of the team. Revoking a link ends access at once.</p>
${
  created
    ? html`<div class="notice" role="status" id="new-share-link"><p>New link${created.version ? ` to version ${created.version}` : ''}. Copy it now: it is not shown again.</p>
<p><code class="share-url" id="share-url">${created.url}</code> <button type="button" data-copy-target="share-url">Copy link</button></p></div>`
    : ''
}
${editor ? createForm(diagram.uuid, versions, csrfToken) : html`<p class="muted">Owners and editors make and revoke share links.</p>`}
<h2>Links</h2>
${
  links.length === 0
    ? html`<p class="muted" id="no-share-links">No share links yet.</p>`
    : html`<table class="share-links" id="share-links"><thead><tr><th>Opens</th><th>Made by</th><th>Made</th><th>Expires</th><th>State</th><th></th></tr></thead><tbody>
${links.map((link) => {
  const state = link.revoked_at
    ? 'revoked'
    : link.expires_at && Date.parse(link.expires_at) <= now
      ? 'expired'
      : 'active';
  return html`<tr data-link="${link.uuid}">
<td>${link.version_number ? `version ${link.version_number}` : 'the diagram as it is'}</td>
<td>${names.get(link.created_by) ?? 'a former user'}</td>
<td>${timestamp(link.created_at)}</td>
<td>${link.expires_at ? timestamp(link.expires_at) : 'never'}</td>
<td class="state state-${state}">${state}</td>
<td>${
    editor && state === 'active'
      ? html`<form method="post" action="/diagrams/${diagram.uuid}/share/${link.uuid}/revoke" class="inline">${csrfField(csrfToken)}<button type="submit" class="danger" aria-label="Revoke the link made ${link.created_at}">Revoke</button></form>`
      : ''
  }</td>
</tr>`;
})}
</tbody></table>`
}
</main>`,
      ).text,
    );
  }

  router.get('/diagrams/:uuid/share', requireViewer, (req, res) => managePage(req, res));

  router.post('/diagrams/:uuid/share', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role))
      throw new PageError(403, 'Not allowed', 'Only owners and editors of the team can share this diagram.');
    const form = req.body as Record<string, unknown>;
    const version = form.version === '' || form.version === undefined ? 0 : versionNumberOf(form.version);
    const days = typeof form.expires === 'string' ? form.expires : '';
    if (version === null || (days !== '' && !EXPIRY_DAYS.includes(days)))
      throw new PageError(400, 'That did not work', 'The form could not be read.');
    const created = await clients.diagrams.CreateShareLink({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
      version_number: version,
      expires_at: days === '' ? '' : new Date(Date.now() + Number(days) * 86_400_000).toISOString(),
    });
    await managePage(req, res, { url: `${context.appOrigin}/s/${created.token}`, version });
  });

  router.post('/diagrams/:uuid/share/:link/revoke', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    await clients.diagrams.RevokeShareLink({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
      link_uuid: String(req.params.link),
    });
    res.redirect(303, `/diagrams/${diagram.uuid}/share`);
  });

  /** What a token opens, after the visit limit; a 404 page for any link that does not open (now). */
  async function openLink(req: Request, res: Response) {
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const wait = limiter.visit(req.ip ?? '');
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      throw new PageError(
        429,
        'Too many visits',
        `Too many visits from your address; try again in ${wait} s.`,
      );
    }
    try {
      const shared = await clients.diagrams.OpenShareLink({ token: String(req.params.token) });
      return { ...shared, document: JSON.parse(shared.document_json) as DiagramDocument };
    } catch (error) {
      if (isServiceError(error) && error.code === 'not_found')
        throw new PageError(
          404,
          'Not found',
          'This link does not open anything: it may have been revoked or have expired.',
        );
      throw error;
    }
  }

  router.get('/s/:token', async (req, res) => {
    let shared: Awaited<ReturnType<typeof openLink>>;
    try {
      shared = await openLink(req, res);
    } catch (error) {
      if (!(error instanceof PageError)) throw error;
      // The error page of a share link names no one and is not indexed either.
      res
        .status(error.status)
        .send(messagePage({ title: error.heading, noindex: true }, error.heading, error.message).text);
      return;
    }
    const name = shared.diagram!.name;
    const what = shared.version_number ? `version ${shared.version_number}` : 'the current version';
    res.send(
      page(
        {
          title: name,
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
          noindex: true,
        },
        html`<main class="wide shared">
<h1>${name}</h1>
<p class="meta" id="shared-note"><span class="badge">${shared.diagram!.driver}</span> Read-only view of ${what}, shared by a link.</p>
${sharedDrawing(shared.document, name, { copies: wantsCopies(req.query), toggle: req.path })}
</main>`,
      ).text,
    );
  });

  router.get('/s/:token/embed', async (req, res) => {
    let shared: Awaited<ReturnType<typeof openLink>>;
    try {
      shared = await openLink(req, res);
    } catch (error) {
      if (!(error instanceof PageError)) throw error;
      res.status(error.status).type('text/plain').send(`${error.message}\n`);
      return;
    }
    res.setHeader('Content-Security-Policy', SHARED_EMBED_CSP);
    res.removeHeader('X-Frame-Options');
    res.send(
      page(
        {
          title: shared.diagram!.name,
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
          bodyClass: 'embed',
          noindex: true,
        },
        html`<main class="embed">${sharedDrawing(shared.document, shared.diagram!.name, { copies: wantsCopies(req.query) })}</main>`,
      ).text,
    );
  });
}

/** A shared diagram's drawing, read-only: busy tables drawn again unless asked otherwise (views/copies-note.ts). */
function sharedDrawing(
  document: DiagramDocument,
  title: string,
  view: { copies: boolean; toggle?: string },
): Html {
  return drawingFigure(drawDiagram(document, { title, copies: view.copies }), view);
}

function createForm(uuid: string, versions: { number: number; label: string }[], csrfToken: string): Html {
  return html`<form method="post" action="/diagrams/${uuid}/share" class="stack" id="share-form">
${csrfField(csrfToken)}
<label>Opens <select name="version">
<option value="">The diagram as it is at each visit</option>
${versions.map((version) => html`<option value="${String(version.number)}">Version ${String(version.number)}${version.label ? ` “${version.label}”` : ''} only</option>`)}
</select></label>
<label>Expires <select name="expires">
<option value="">Never</option>
<option value="1">In 1 day</option>
<option value="7">In 7 days</option>
<option value="30">In 30 days</option>
<option value="90">In 90 days</option>
</select></label>
<button type="submit" class="primary">Create share link</button>
</form>`;
}
