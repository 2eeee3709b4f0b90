// `/settings/webhooks`: the webhooks of the teams the signed-in person owns — register (URL and event
// types; the secret shown once), delete, rotate the secret (shown once), enable after sustained failure, and
// each endpoint's delivery log with redelivery. Every call carries the person's principal, so the
// notifications service checks the owner role and the team; another team's webhook is the 404 page.
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { forbidden } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { type Membership, principalFor, type Viewer } from '../viewer';
import { csrfField, page, timestamp } from '../views/layout';

/** The event types, as the notifications service and the API name them. */
const EVENT_TYPES = [
  'proposal.created',
  'proposal.commented',
  'proposal.changes_requested',
  'proposal.revised',
  'proposal.applied',
  'proposal.declined',
  'proposal.expired',
  'diagram.created',
  'diagram.updated',
  'diagram.deleted',
  'import.finished',
  'import.failed',
];

const ownedTeams = (viewer: Viewer) => viewer.memberships.filter((membership) => membership.role === 'owner');

/** The owned team a form names (the `team` field or query); anything else is refused. */
function ownedTeam(viewer: Viewer, slug: unknown): Membership {
  const membership = ownedTeams(viewer).find((candidate) => candidate.team_slug === slug);
  if (!membership) throw forbidden('Only owners of a team manage its webhooks.');
  return membership;
}

const formField = (req: Request, name: string) => (req.body as Record<string, unknown>)[name];
const idParam = (req: Request, name: string) => String(req.params[name]);

export function webhookRoutes(router: Router, context: WebAppContext): void {
  const { notifications } = context.clients;
  const principal = (viewer: Viewer, membership: Membership) => ({
    ...principalFor(viewer, membership),
    write: true,
  });

  /** A secret, on this page only: never cached, never stored by the web app. */
  const showSecret = (req: Request, res: Response, viewer: Viewer, title: string, secret: string) => {
    res.setHeader('Cache-Control', 'no-store');
    res.send(
      page(
        { title, viewer: { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) } },
        html`<main class="narrow">
<h1>${title}</h1>
<p>Copy the signing secret now: it is shown this once. Receivers verify each delivery's
<code>webhook-signature</code> with it (Standard Webhooks).</p>
<pre class="secret" id="webhook-secret">${secret}</pre>
<p><a href="/settings/webhooks">Back to webhooks</a></p>
</main>`,
      ).text,
    );
  };

  router.get('/settings/webhooks', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const teams = ownedTeams(viewer);
    const lists = await Promise.all(
      teams.map(async (membership) => ({
        membership,
        webhooks: (await notifications.ListWebhooks({ principal: principal(viewer, membership) })).webhooks,
      })),
    );
    const csrfToken = csrfTokenFor(context, req, res);
    res.send(
      page(
        { title: 'Webhooks', viewer: { ...viewer.user, csrfToken } },
        html`<main>
<h1>Webhooks</h1>
<p>Webhooks send your team's events (proposals, diagrams, imports) to a URL as they happen, signed so the
receiver can check they come from here. Only team owners manage them.</p>
${
  teams.length === 0
    ? html`<p class="muted">You own no team, so there are no webhooks for you to manage.</p>`
    : html`${createForm(teams, csrfToken)}${lists.map(({ membership, webhooks }) => teamSection(membership, webhooks, csrfToken))}`
}
</main>`,
      ).text,
    );
  });

  router.post('/settings/webhooks', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const membership = ownedTeam(viewer, formField(req, 'team'));
    const chosen = formField(req, 'events');
    const events = (Array.isArray(chosen) ? chosen : chosen === undefined ? [] : [chosen]).map(String);
    const created = await notifications.CreateWebhook({
      principal: principal(viewer, membership),
      url: String(formField(req, 'url') ?? ''),
      events,
    });
    showSecret(req, res, viewer, 'Webhook created', created.secret ?? '');
  });

  const action = (
    name: string,
    run: (viewer: Viewer, membership: Membership, id: string) => Promise<unknown>,
  ) =>
    router.post(`/settings/webhooks/:id/${name}`, requireViewer, async (req, res) => {
      const viewer = viewerOf(res)!;
      await run(viewer, ownedTeam(viewer, formField(req, 'team')), idParam(req, 'id'));
      res.redirect(303, '/settings/webhooks');
    });
  action('delete', (viewer, membership, id) =>
    notifications.DeleteWebhook({ principal: principal(viewer, membership), id }),
  );
  action('enable', (viewer, membership, id) =>
    notifications.EnableWebhook({ principal: principal(viewer, membership), id }),
  );

  router.post('/settings/webhooks/:id/rotate', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const membership = ownedTeam(viewer, formField(req, 'team'));
    const rotated = await notifications.RotateWebhookSecret({
      principal: principal(viewer, membership),
      id: idParam(req, 'id'),
    });
    showSecret(req, res, viewer, 'Secret rotated', rotated.secret ?? '');
  });

  router.get('/settings/webhooks/:id/deliveries', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const membership = ownedTeam(viewer, req.query.team);
    const id = idParam(req, 'id');
    const { deliveries } = await notifications.ListDeliveries({
      principal: principal(viewer, membership),
      id,
      limit: 50,
    });
    const csrfToken = csrfTokenFor(context, req, res);
    res.send(
      page(
        { title: 'Webhook deliveries', viewer: { ...viewer.user, csrfToken } },
        html`<main>
<h1>Deliveries</h1>
<p><a href="/settings/webhooks">Back to webhooks</a></p>
${
  deliveries.length === 0
    ? html`<p class="muted">Nothing was sent to this webhook yet.</p>`
    : html`<table class="list" id="deliveries">
<thead><tr><th>Event</th><th>Status</th><th>Attempts</th><th>Last answer</th><th>Created</th><th></th></tr></thead>
<tbody>${deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return html`<tr data-delivery="${delivery.id}">
<td>${delivery.event_type}</td><td>${delivery.status}</td><td>${delivery.attempt_count}</td>
<td>${last ? html`${last.status_code ?? last.error ?? ''} · ${last.latency_ms} ms<pre class="excerpt">${last.response_excerpt}</pre>` : html`<span class="muted">not sent yet</span>`}</td>
<td>${timestamp(delivery.created_at)}</td>
<td><form method="post" action="/settings/webhooks/${id}/deliveries/${delivery.id}/redeliver" class="inline">${csrfField(csrfToken)}<input type="hidden" name="team" value="${membership.team_slug}"><button type="submit">Redeliver</button></form></td>
</tr>`;
      })}</tbody></table>`
}
</main>`,
      ).text,
    );
  });

  router.post('/settings/webhooks/:id/deliveries/:delivery/redeliver', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const membership = ownedTeam(viewer, formField(req, 'team'));
    const id = idParam(req, 'id');
    await notifications.Redeliver({
      principal: principal(viewer, membership),
      id,
      delivery_id: idParam(req, 'delivery'),
    });
    res.redirect(
      303,
      `/settings/webhooks/${encodeURIComponent(id)}/deliveries?team=${encodeURIComponent(membership.team_slug)}`,
    );
  });
}

function createForm(teams: Membership[], csrfToken: string): Html {
  return html`<form method="post" action="/settings/webhooks" class="stack card" id="create-webhook">
${csrfField(csrfToken)}
<h2>New webhook</h2>
${
  teams.length > 1
    ? html`<label>Team <select name="team">${teams.map(
        (membership) => html`<option value="${membership.team_slug}">${membership.team_name}</option>`,
      )}</select></label>`
    : html`<input type="hidden" name="team" value="${teams[0]!.team_slug}">`
}
<label>URL <input type="url" name="url" required maxlength="2048" placeholder="https://example.com/hooks/dss"></label>
<fieldset><legend>Events</legend>${EVENT_TYPES.map(
    (type) =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"> ${type}</label>`,
  )}</fieldset>
<button type="submit" class="primary">Create webhook</button>
</form>`;
}

type WebhookRow = {
  id: string;
  url: string;
  events: string[];
  status: string;
  status_notice?: string | null;
  created_at: string;
};

function teamSection(membership: Membership, webhooks: WebhookRow[], csrfToken: string): Html {
  const team = html`<input type="hidden" name="team" value="${membership.team_slug}">`;
  const button = (hook: WebhookRow, name: string, label: string, extra = '') =>
    html`<form method="post" action="/settings/webhooks/${hook.id}/${name}" class="inline">${csrfField(csrfToken)}${team}<button type="submit"${extra === 'danger' ? html` class="danger"` : ''}>${label}</button></form>`;
  return html`<h2>${membership.team_name}</h2>
${
  webhooks.length === 0
    ? html`<p class="muted">No webhooks.</p>`
    : html`<table class="list webhooks">
<thead><tr><th>URL</th><th>Events</th><th>Status</th><th>Created</th><th></th></tr></thead>
<tbody>${webhooks.map(
        (hook) => html`<tr data-webhook="${hook.id}">
<td>${hook.url}</td><td>${hook.events.join(', ')}</td>
<td>${hook.status}${hook.status_notice ? html`<br><span class="muted">${hook.status_notice}</span>` : ''}</td>
<td>${timestamp(hook.created_at)}</td>
<td><a href="/settings/webhooks/${hook.id}/deliveries?team=${membership.team_slug}">Deliveries</a>
${hook.status === 'disabled' ? button(hook, 'enable', 'Enable') : ''}${button(hook, 'rotate', 'Rotate secret')}${button(hook, 'delete', 'Delete', 'danger')}</td>
</tr>`,
      )}</tbody></table>`
}`;
}
