// `/settings/audit`: the audit log of a team the person owns, newest first, 50 entries a page (`limit`), filtered by
// action (or group), actor (an email, a user or token id), target id and a date range. The filters are a
// GET form, so a filtered page is a link an owner can share with another owner. Accounts checks every
// filter; a bad one is shown above the table, naming the field. Every value is plain text.
import {
  type AuditEventResource,
  auditEventResource,
  isServiceError,
  type ServiceClient,
} from '@dss/platform';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { forbidden } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { page, timestamp } from '../views/layout';

const PAGE_SIZE = 50;
const FILTERS = ['action', 'actor', 'target', 'since', 'until'] as const;
type Filter = (typeof FILTERS)[number];

/** The action groups offered in the form's list (any action may still be typed into the URL). */
const ACTION_CHOICES: { value: string; label: string }[] = [
  { value: '', label: 'All actions' },
  { value: 'user', label: 'Sign-in, sign-out, failures, deleted users' },
  { value: 'user.sign_in_failed', label: 'Failed sign-ins only' },
  { value: 'token', label: 'API tokens' },
  { value: 'member', label: 'Members and invitations' },
  { value: 'invitation', label: 'Revoked invitations' },
  { value: 'password_reset', label: 'Password resets' },
  { value: 'diagram', label: 'Diagrams' },
  { value: 'version', label: 'Versions' },
  { value: 'share_link', label: 'Share links' },
  { value: 'editor_session', label: 'Editing sessions' },
  { value: 'proposal', label: 'Proposals' },
  { value: 'webhook', label: 'Webhooks' },
  { value: 'lint_settings', label: 'Lint settings' },
  { value: 'team', label: 'Team plan and deletion' },
];

function queryText(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim().slice(0, 320) : '';
}

export function auditLogRoutes(router: Router, context: WebAppContext): void {
  const accounts: ServiceClient<'Accounts'> = context.clients.accounts;

  router.get('/settings/audit', requireViewer, async (req: Request, res: Response) => {
    const viewer = viewerOf(res)!;
    const owned = viewer.memberships.filter((membership) => membership.role === 'owner');
    if (owned.length === 0) throw forbidden('Only owners of a team can read its audit log.');
    const team = owned.find((membership) => membership.team_slug === queryText(req, 'team')) ?? owned[0]!;
    const filters = Object.fromEntries(FILTERS.map((name) => [name, queryText(req, name)])) as Record<
      Filter,
      string
    >;
    const cursor = queryText(req, 'cursor');
    const asked = Number(queryText(req, 'limit'));
    const limit = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : PAGE_SIZE;
    let events: AuditEventResource[] = [];
    let nextCursor = '';
    let problem: { path: string; message: string } | null = null;
    try {
      const answer = await accounts.ListAuditEvents({
        team_id: team.team_id,
        ...filters,
        cursor,
        limit,
      });
      events = answer.events.map(auditEventResource);
      nextCursor = answer.has_more ? answer.next_cursor : '';
    } catch (error) {
      if (!isServiceError(error) || error.code !== 'invalid_request') throw error;
      problem = error.extra.errors?.[0] ?? { path: 'filters', message: error.message };
      res.status(422);
    }
    const linkTo = (more: Record<string, string>) =>
      `/settings/audit?${new URLSearchParams({
        team: team.team_slug,
        ...nonEmpty(filters),
        ...(limit === PAGE_SIZE ? {} : { limit: String(limit) }),
        ...more,
      })}`;
    res.send(
      page(
        {
          title: `Audit log · ${team.team_name}`,
          viewer: { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) },
        },
        html`<main class="stack">
<h1>Audit log</h1>
<p>Who did what in <strong>${team.team_name}</strong>: sign-ins, tokens, members, diagrams, versions, share links,
proposals, editing sessions, webhooks and settings. Entries are never changed or removed; they are kept for a year.</p>
<form method="get" action="/settings/audit" class="card audit-filters" aria-label="Filter the audit log">
${
  owned.length > 1
    ? html`<label>Team <select name="team">${owned.map(
        (membership) =>
          html`<option value="${membership.team_slug}"${membership.team_id === team.team_id ? html` selected` : ''}>${membership.team_name}</option>`,
      )}</select></label>`
    : html`<input type="hidden" name="team" value="${team.team_slug}">`
}
<label>Action <select name="action">${actionOptions(filters.action)}</select></label>
<label>Actor <input type="text" name="actor" value="${filters.actor}" placeholder="email, user or token id" autocomplete="off"></label>
<label>Target id <input type="text" name="target" value="${filters.target}" placeholder="diagram, user, token… id" autocomplete="off"></label>
<label>From (date) <input type="date" name="since" value="${filters.since}"></label>
<label>Before (date) <input type="date" name="until" value="${filters.until}"></label>
<div class="buttons"><button type="submit" class="primary">Filter</button><a href="${`/settings/audit?team=${encodeURIComponent(team.team_slug)}`}">Clear filters</a></div>
</form>
${problem ? html`<div class="notice error" role="alert" id="audit-problem"><p>The filter <code>${problem.path}</code> ${problem.message}</p></div>` : ''}
${
  events.length === 0 && !problem
    ? html`<p class="muted" id="audit-empty">No entries${cursor ? ' on this page' : ' match these filters'}.</p>`
    : ''
}
${events.length > 0 ? eventsTable(events) : ''}
<nav class="pager" aria-label="Audit log pages">
${cursor ? html`<a href="${linkTo({})}">Newest entries</a>` : ''}
${nextCursor ? html`<a href="${linkTo({ cursor: nextCursor })}" rel="next">Older entries</a>` : ''}
</nav>
</main>`,
      ).text,
    );
  });
}

function nonEmpty(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

function actionOptions(selected: string): Html[] {
  const choices = ACTION_CHOICES.some((choice) => choice.value === selected)
    ? ACTION_CHOICES
    : [...ACTION_CHOICES, { value: selected, label: selected }];
  return choices.map(
    (choice) =>
      html`<option value="${choice.value}"${choice.value === selected ? html` selected` : ''}>${choice.label}</option>`,
  );
}

function eventsTable(events: AuditEventResource[]): Html {
  return html`<div class="table-scroll"><table class="list" id="audit-events">
<caption class="visually-hidden">Audit entries, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th><th scope="col">Details</th><th scope="col">IP address</th><th scope="col">Request id</th></tr></thead>
<tbody>${events.map(
    (event) => html`<tr data-audit-id="${event.id}" data-action="${event.action}">
<td>${timestamp(event.created_at)}</td>
<td><code>${event.action}</code></td>
<td>${actorText(event)}</td>
<td>${event.target.name ?? html`<span class="muted">—</span>`}<br><span class="meta">${event.target.kind}${event.target.id ? html` <code>${event.target.id}</code>` : ''}</span></td>
<td class="meta">${detailsText(event.details)}</td>
<td><code>${event.ip ?? '—'}</code></td>
<td><code class="meta">${event.request_id ?? '—'}</code></td>
</tr>`,
  )}</tbody></table></div>`;
}

function actorText(event: AuditEventResource): Html {
  const who = event.actor.user?.email ?? event.actor.user?.name;
  switch (event.actor.kind) {
    case 'token':
      return html`${who ?? 'a former user'}<br><span class="meta">API token <code>${event.actor.id ?? ''}</code></span>`;
    case 'user':
      return html`${who ?? 'a former user'}`;
    case 'anonymous':
      return html`<span class="muted">not signed in</span>`;
    default:
      // No person behind it: the Trash sweeper, or an operator's CLI command.
      return html`<span class="muted">system or operator</span>`;
  }
}

/** The details as `key: value` pairs, one level deep (nested values as compact JSON), all plain text. */
function detailsText(details: Record<string, unknown>): Html[] {
  return Object.entries(details).map(([key, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return html`<span class="detail">${key}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}</span> `;
  });
}
