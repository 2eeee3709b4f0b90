// `/diagrams/{uuid}/compare?from=&to=`: two versions of a diagram side by side as the review page shows a
// proposal: the diff, the migration SQL from `from` to `to` with its warnings (@dss/sql, as the API's
// `/diff?format=sql`), and the `to` version drawn with the changes highlighted. Defaults: `to` is the
// newest version and `from` the one before it.
import { diff } from '@dss/schema';
import type { Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { findVisibleDiagram } from '../lookups';
import { notFound } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { principalFor } from '../viewer';
import { changeView } from '../views/change';
import { page } from '../views/layout';
import { type VersionLine, versionDocument, versionName, versionNumberOf } from './versions';

export function compareRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  router.get('/diagrams/:uuid/compare', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const { versions } = await clients.diagrams.ListVersions({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
    });
    if (versions.length === 0) throw notFound();
    const latest = versions[0]!.number;
    const to = req.query.to === undefined ? latest : versionNumberOf(req.query.to);
    const from =
      req.query.from === undefined && to !== null ? Math.max(1, to - 1) : versionNumberOf(req.query.from);
    const fromVersion = versions.find((version) => version.number === from);
    const toVersion = versions.find((version) => version.number === to);
    if (!fromVersion || !toVersion) throw notFound();
    const [before, after] = await Promise.all([
      versionDocument(clients, viewer, membership, diagram, fromVersion.number),
      versionDocument(clients, viewer, membership, diagram, toVersion.number),
    ]);
    const change = { fits: true as const, before, after, changes: diff(before, after) };
    res.send(
      page(
        {
          title: `Compare versions ${fromVersion.number} and ${toVersion.number} of ${diagram.name}`,
          viewer: { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) },
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js', '/assets/copy.js'],
        },
        html`<main class="review">
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>Compare versions</h1>
<p class="notice" role="status" id="compare-banner">From <a href="/diagrams/${diagram.uuid}/versions/${String(fromVersion.number)}">${versionName(fromVersion)}</a> to <a href="/diagrams/${diagram.uuid}/versions/${String(toVersion.number)}">${versionName(toVersion)}</a>.</p>
${compareForm(diagram.uuid, versions, fromVersion.number, toVersion.number)}
${changeView(
  change,
  diagram.name,
  `${versionName(toVersion)} with the changes`,
  `Run on a database built from the export of version ${fromVersion.number}; it brings it to version ${toVersion.number}.`,
)}
</main>`,
      ).text,
    );
  });
}

/** Pick any two versions. */
export function compareForm(uuid: string, versions: VersionLine[], from: number, to: number): Html {
  const options = (selected: number) =>
    versions.map(
      (version) =>
        html`<option value="${String(version.number)}"${version.number === selected ? ' selected' : ''}>${versionName(version)}</option>`,
    );
  return html`<form method="get" action="/diagrams/${uuid}/compare" class="inline compare-form" id="compare-form">
<label>From <select name="from">${options(from)}</select></label>
<label>To <select name="to">${options(to)}</select></label>
<button type="submit">Compare</button>
</form>`;
}
