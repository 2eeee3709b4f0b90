// Rename, duplicate and delete a diagram in the web app, and the Trash: owners and editors rename,
// duplicate and delete (after a confirmation page); deleted diagrams wait in their team's Trash, where
// owners restore them within 30 days (the diagrams service purges them after that). Every change is the
// diagrams service's call with the person's principal, so the service checks role and team; a forged post
// by a viewer is refused there (403) and changes nothing.
//
// Routes (all POSTs are forms with the `_csrf` field, like every form of the app):
//   POST /diagrams/:uuid/rename      name                    → 303 to the diagram
//   POST /diagrams/:uuid/duplicate   [name]                  → 303 to the copy
//   GET  /diagrams/:uuid/delete      confirmation page
//   POST /diagrams/:uuid/delete                              → 303 to /trash
//   GET  /trash                      each team's Trash
//   POST /trash/:uuid/restore                                → 303 to the diagram (owners)
import { isServiceError } from '@dss/platform';
import type { Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { findVisibleDiagram, userNames } from '../lookups';
import { forbidden, notFound } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { canEdit, principalFor, type Viewer } from '../viewer';
import { csrfField, page, timestamp } from '../views/layout';

/**
 * The diagram page's controls for owners and editors: "Rename" (with the name field), "Duplicate" and
 * "Delete diagram" (which opens the confirmation page). Nothing for viewers.
 */
export function lifecycleControls(
  diagram: { uuid: string; name: string },
  role: string,
  csrfToken: string,
): Html | string {
  if (!canEdit(role)) return '';
  return html`<div class="diagram-actions">
<form method="post" action="/diagrams/${diagram.uuid}/rename" class="inline">
${csrfField(csrfToken)}
<label>Diagram name <input name="name" value="${diagram.name}" required maxlength="255"></label>
<button type="submit">Rename</button>
</form>
<form method="post" action="/diagrams/${diagram.uuid}/duplicate" class="inline">
${csrfField(csrfToken)}
<button type="submit">Duplicate</button>
</form>
<form method="get" action="/diagrams/${diagram.uuid}/delete" class="inline">
<button type="submit" class="danger">Delete diagram</button>
</form>
</div>`;
}

export function diagramLifecycleRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  /** The diagram and the person's principal in its team. */
  async function target(viewer: Viewer, uuid: string) {
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, uuid);
    return { diagram, membership, principal: principalFor(viewer, membership) };
  }
  const formField = (body: unknown, name: string) => {
    const value = (body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : '';
  };

  router.post('/diagrams/:uuid/rename', requireViewer, async (req, res) => {
    const { diagram, principal } = await target(viewerOf(res)!, String(req.params.uuid));
    await clients.diagrams.UpdateDiagram({
      principal,
      uuid: diagram.uuid,
      name: formField(req.body, 'name'),
    });
    res.redirect(303, `/diagrams/${diagram.uuid}`);
  });

  router.post('/diagrams/:uuid/duplicate', requireViewer, async (req, res) => {
    const { diagram, principal } = await target(viewerOf(res)!, String(req.params.uuid));
    const name = formField(req.body, 'name');
    const copy = await clients.diagrams.DuplicateDiagram({
      principal,
      uuid: diagram.uuid,
      ...(name.trim() === '' ? {} : { name }),
    });
    res.redirect(303, `/diagrams/${copy.diagram!.uuid}`);
  });

  router.get('/diagrams/:uuid/delete', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await target(viewer, String(req.params.uuid));
    if (!canEdit(membership.role)) throw forbidden('Only owners and editors can delete a diagram.');
    const csrfToken = csrfTokenFor(context, req, res);
    res.send(
      page(
        { title: `Delete ${diagram.name}`, viewer: { ...viewer.user, csrfToken } },
        html`<main>
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>Delete “${diagram.name}”?</h1>
<p>The diagram moves to the team’s <a href="/trash">Trash</a>. Owners can restore it for 30 days; after
that it is deleted for good, with its history. Until it is restored, its links, embeds and API answer
“not found”.</p>
<form method="post" action="/diagrams/${diagram.uuid}/delete" class="inline">
${csrfField(csrfToken)}
<button type="submit" class="danger">Delete diagram</button>
</form>
<a href="/diagrams/${diagram.uuid}">Cancel</a>
</main>`,
      ).text,
    );
  });

  router.post('/diagrams/:uuid/delete', requireViewer, async (req, res) => {
    const { diagram, principal } = await target(viewerOf(res)!, String(req.params.uuid));
    await clients.diagrams.DeleteDiagram({ principal, uuid: diagram.uuid });
    res.redirect(303, '/trash');
  });

  router.get('/trash', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const teams = await Promise.all(
      viewer.memberships.map(async (membership) => ({
        membership,
        trashed: (await clients.diagrams.ListTrash({ principal: principalFor(viewer, membership) })).diagrams,
      })),
    );
    const names = await userNames(
      clients,
      teams.flatMap(({ trashed }) => trashed.map((entry) => entry.deleted_by)),
    );
    const csrfToken = csrfTokenFor(context, req, res);
    const sections = teams.map(
      ({ membership, trashed }) => html`<section class="team">
<h2>${membership.team_name} <span class="badge">${membership.role}</span></h2>
${
  trashed.length === 0
    ? html`<p class="muted">Nothing in the Trash.</p>`
    : html`<table class="list">
<thead><tr><th>Diagram</th><th>Deleted</th><th>By</th><th>Deleted for good</th><th>Restore</th></tr></thead>
<tbody>
${trashed.map(
  (entry) => html`<tr>
<td>${entry.diagram!.name}</td>
<td>${timestamp(entry.deleted_at)}</td>
<td>${names.get(entry.deleted_by) ?? 'a former user'}</td>
<td>${timestamp(entry.purge_after)}</td>
<td>${
    membership.role === 'owner'
      ? html`<form method="post" action="/trash/${entry.diagram!.uuid}/restore" class="inline">
${csrfField(csrfToken)}
<input type="hidden" name="team_id" value="${membership.team_id}">
<button type="submit" aria-label="Restore ${entry.diagram!.name}">Restore</button>
</form>`
      : html`<span class="muted">Owners can restore</span>`
  }</td>
</tr>`,
)}
</tbody></table>`
}
</section>`,
    );
    res.send(
      page(
        { title: 'Trash', viewer: { ...viewer.user, csrfToken } },
        html`<main>
<h1>Trash</h1>
<p class="muted">Deleted diagrams stay here for 30 days; owners can restore them until then.</p>
${sections}
</main>`,
      ).text,
    );
  });

  router.post('/trash/:uuid/restore', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const membership = viewer.memberships.find((entry) => entry.team_id === formField(req.body, 'team_id'));
    if (!membership) throw notFound();
    try {
      const restored = await clients.diagrams.RestoreDiagram({
        principal: principalFor(viewer, membership),
        uuid: String(req.params.uuid),
      });
      res.redirect(303, `/diagrams/${restored.uuid}`);
    } catch (error) {
      if (isServiceError(error) && error.code === 'forbidden')
        throw forbidden('Only the team’s owners can restore a deleted diagram.');
      throw error;
    }
  });
}
