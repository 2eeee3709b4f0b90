// `/diagrams/{uuid}`: the diagram drawn as SVG from its full document, with its History pane;
// `/embed/{uuid}`: the same drawing without the app's chrome (same access rules).
import { renderDiagramSvg } from '@dss/diagram-svg';
import type { Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html, trustedHtml } from '../html';
import { findVisibleDiagram, fullDocument, userNames } from '../lookups';
import { EMBED_CONTENT_SECURITY_POLICY } from '../security-headers';
import { requireViewer, viewerOf } from '../session';
import { canEdit, principalFor } from '../viewer';
import { historyPane } from '../views/history';
import { page } from '../views/layout';

export function diagramRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  router.get('/diagrams/:uuid', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const principal = principalFor(viewer, membership);
    const [document, versions, proposals] = await Promise.all([
      fullDocument(clients, viewer, membership, diagram),
      clients.diagrams.ListVersions({ principal, uuid: diagram.uuid }),
      clients.proposals.ListProposalsForDiagram({ diagram_uuid: diagram.uuid, team_id: membership.team_id }),
    ]);
    const names = await userNames(
      clients,
      versions.versions.map((version) => version.author_user_id),
    );
    const csrfToken = csrfTokenFor(context, req, res);
    res.send(
      page(
        {
          title: diagram.name,
          viewer: { ...viewer.user, csrfToken },
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
        },
        html`<main class="with-aside">
<div class="primary-column">
<p class="crumbs"><a href="/">${membership.team_name}</a> /</p>
<h1>${diagram.name}</h1>
<p class="meta"><span class="badge">${diagram.driver}</span> ${statusText(diagram)} · <a href="/embed/${diagram.uuid}">embed view</a></p>
${drawing(diagram, document)}
</div>
${historyPane({
  versions: versions.versions,
  names,
  proposals: proposals.proposals,
  canEdit: canEdit(membership.role),
  csrfToken,
})}
</main>`,
      ).text,
    );
  });

  router.get('/embed/:uuid', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const document = await fullDocument(clients, viewer, membership, diagram);
    res.setHeader('Content-Security-Policy', EMBED_CONTENT_SECURITY_POLICY);
    res.removeHeader('X-Frame-Options');
    res.send(
      page(
        {
          title: diagram.name,
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
          bodyClass: 'embed',
        },
        html`<main class="embed">${drawing(diagram, document)}</main>`,
      ).text,
    );
  });
}

/** What the list and the page say of a diagram: importing, failed, or how many tables it has. */
export function statusText(diagram: { status: string; table_count?: number | null }): string {
  if (diagram.status === 'importing') return 'importing';
  if (diagram.status === 'failed') return 'import failed';
  const count = diagram.table_count ?? 0;
  return `${count} ${count === 1 ? 'table' : 'tables'}`;
}

function drawing(
  diagram: { name: string; status: string; error?: { code: string; message: string } | null },
  document: Parameters<typeof renderDiagramSvg>[0] | null,
): Html {
  if (!document)
    return diagram.status === 'importing'
      ? html`<p class="notice">This diagram is still importing; reload in a moment.</p>`
      : html`<div class="notice error" role="alert"><p>The import failed, so there is nothing to draw.</p>
${diagram.error ? html`<p><code>${diagram.error.code}</code>: ${diagram.error.message}</p>` : ''}
<p>Fix the SQL and create the diagram again.</p></div>`;
  // The renderer escapes every text it draws (names, comments, notes) and emits no script.
  return html`<figure class="diagram" id="diagram">${trustedHtml(renderDiagramSvg(document, { title: diagram.name }))}</figure>`;
}
