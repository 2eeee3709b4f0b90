// `/`: the signed-in person's teams and each team's diagrams (diagrams.ListDiagrams as a member).
import type { Router } from 'express';
import { statusText } from './diagram';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { requireViewer, viewerOf } from '../session';
import { canEdit, principalFor } from '../viewer';
import { page, timestamp } from '../views/layout';

const MAX_DIAGRAMS_PER_TEAM = 100;

export function homeRoutes(router: Router, context: WebAppContext): void {
  router.get('/', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const teams = await Promise.all(
      viewer.memberships.map(async (membership) => {
        const listing = await context.clients.diagrams.ListDiagrams({
          principal: principalFor(viewer, membership),
          limit: MAX_DIAGRAMS_PER_TEAM,
          cursor: '',
        });
        return { membership, diagrams: listing.diagrams, more: listing.has_more };
      }),
    );
    const sections: Html[] = teams.map(
      ({ membership, diagrams, more }) => html`<section class="team">
<h2>${membership.team_name} <span class="badge">${membership.role}</span></h2>
${
  diagrams.length === 0
    ? html`<p class="muted">No diagrams yet. Create one through the API: <code>POST /v1/diagrams</code>.</p>`
    : html`<table class="list">
<thead><tr><th>Diagram</th><th>Driver</th><th>Tables</th><th>Updated</th></tr></thead>
<tbody>
${diagrams.map(
  (diagram) => html`<tr>
<td><a href="/diagrams/${diagram.uuid}">${diagram.name}</a></td>
<td>${diagram.driver}</td>
<td class="status-${diagram.status}">${statusText(diagram)}</td>
<td>${timestamp(diagram.updated_at)}</td>
</tr>`,
)}
</tbody></table>`
}
${more ? html`<p class="muted">Showing the ${MAX_DIAGRAMS_PER_TEAM} most recently updated.</p>` : ''}
</section>`,
    );
    res.send(
      page(
        {
          title: 'Your diagrams',
          viewer: { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) },
        },
        html`<main>
<h1>Your diagrams</h1>
${viewer.memberships.some((membership) => canEdit(membership.role)) ? html`<p><a class="button primary" href="/diagrams/new">New diagram</a></p>` : ''}
${sections.length === 0 ? html`<p>You are not a member of any team yet. Ask an operator to add you.</p>` : sections}
</main>`,
      ).text,
    );
  });
}
