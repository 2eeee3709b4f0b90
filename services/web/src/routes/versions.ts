// A diagram's old versions: `/diagrams/{uuid}/versions/{n}` draws version n read-only (with the zoom and
// pan viewport) under a banner naming it, with "Restore this version" and its label for owners and
// editors. Restoring writes version n's document as a new version (source `restore`); labelling names a
// version ("v2 release") in History, the versions API and diffs. The diagrams service checks the role.
import { drawDiagram } from '../drawings';
import { isServiceError } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import type { Router } from 'express';
import type { WebAppContext } from '../app-context';
import type { WebClients } from '../clients';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { type Diagram, findVisibleDiagram, userNames } from '../lookups';
import { notFound, PageError } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { canEdit, type Membership, principalFor, type Viewer } from '../viewer';
import { drawingFigure, wantsCopies } from '../views/copies-note';
import { exportMenu } from '../views/export-menu';
import { csrfField, page, timestamp } from '../views/layout';

type VersionList = Awaited<ReturnType<WebClients['diagrams']['ListVersions']>>['versions'];
export type VersionLine = VersionList[number];

/** A version number from the path or query: a whole number from 1, else null. */
export function versionNumberOf(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}

/** Version n's stored document, or a 404 page when the diagram has no such version. */
export async function versionDocument(
  clients: WebClients,
  viewer: Viewer,
  membership: Membership,
  diagram: Diagram,
  number: number,
): Promise<DiagramDocument> {
  try {
    const stored = await clients.diagrams.GetVersionSchema({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
      number,
      format: 'document',
      level: '',
    });
    return JSON.parse(stored.body) as DiagramDocument;
  } catch (error) {
    if (isServiceError(error) && error.code === 'not_found') throw notFound();
    throw error;
  }
}

/** "Version 3 “v2 release”": how a version is named everywhere in the app. */
export function versionName(version: { number: number; label?: string }): string {
  return version.label ? `Version ${version.number} “${version.label}”` : `Version ${version.number}`;
}

export function versionRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  router.get('/diagrams/:uuid/versions/:number', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const number = versionNumberOf(req.params.number);
    const copies = wantsCopies(req.query);
    if (number === null) throw notFound();
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const { versions } = await clients.diagrams.ListVersions({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
    });
    const version = versions.find((entry) => entry.number === number);
    if (!version) throw notFound();
    const document = await versionDocument(clients, viewer, membership, diagram, number);
    const names = await userNames(clients, [version.author_user_id]);
    const latest = versions[0]!.number;
    const csrfToken = csrfTokenFor(context, req, res);
    const editor = canEdit(membership.role);
    res.send(
      page(
        {
          title: `${versionName(version)} of ${diagram.name}`,
          viewer: { ...viewer.user, csrfToken },
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
        },
        html`<main class="wide">
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>${diagram.name}</h1>
<div class="notice version-banner" role="status" id="version-banner">
<p>You are looking at <strong>${versionName(version)}</strong>${number === latest ? ' (the current version)' : html` of ${String(latest)}`}, by ${names.get(version.author_user_id) ?? 'a former user'}, ${timestamp(version.created_at)}. It is read-only.</p>
<p><a href="/diagrams/${diagram.uuid}">Back to the current diagram</a>${
          number === latest
            ? ''
            : html` · <a href="/diagrams/${diagram.uuid}/compare?from=${String(number)}&amp;to=${String(latest)}">Compare with the current version</a>`
        }${number > 1 ? html` · <a href="/diagrams/${diagram.uuid}/compare?from=${String(number - 1)}&amp;to=${String(number)}">What this version changed</a>` : ''}</p>
</div>
<div class="version-tools">
${exportMenu(diagram, document.driver, number)}
${editor ? labelForm(diagram.uuid, version, csrfToken) : ''}
${editor && number !== latest ? restoreForm(diagram.uuid, number, csrfToken) : ''}
</div>
${drawingFigure(drawDiagram(document, { title: `${diagram.name}, ${versionName(version)}`, copies }), { copies, toggle: `/diagrams/${diagram.uuid}/versions/${String(number)}` })}
</main>`,
      ).text,
    );
  });

  router.post('/diagrams/:uuid/versions/:number/restore', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const number = versionNumberOf(req.params.number);
    if (number === null) throw notFound();
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role)) throw editorRequired();
    await clients.diagrams.RestoreVersion({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
      number,
    });
    res.redirect(303, `/diagrams/${diagram.uuid}`);
  });

  router.post('/diagrams/:uuid/versions/:number/label', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const number = versionNumberOf(req.params.number);
    if (number === null) throw notFound();
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role)) throw editorRequired();
    const raw = (req.body as Record<string, unknown>).label;
    await clients.diagrams.SetVersionLabel({
      principal: principalFor(viewer, membership),
      uuid: diagram.uuid,
      number,
      label: typeof raw === 'string' ? raw : '',
    });
    res.redirect(303, `/diagrams/${diagram.uuid}/versions/${number}`);
  });
}

function labelForm(uuid: string, version: VersionLine, csrfToken: string): Html {
  return html`<form method="post" action="/diagrams/${uuid}/versions/${String(version.number)}/label" class="inline" id="label-form">
${csrfField(csrfToken)}
<label>Version label <input type="text" name="label" maxlength="100" value="${version.label}" placeholder="e.g. v2 release"></label>
<button type="submit">Save label</button>
</form>`;
}

function restoreForm(uuid: string, number: number, csrfToken: string): Html {
  return html`<form method="post" action="/diagrams/${uuid}/versions/${String(number)}/restore" class="inline" id="restore-form">
${csrfField(csrfToken)}
<button type="submit" class="primary">Restore version ${String(number)}</button>
</form>`;
}

function editorRequired() {
  return new PageError(403, 'Not allowed', 'Only owners and editors of the team can change this diagram.');
}
