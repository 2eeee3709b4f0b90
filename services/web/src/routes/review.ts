// `/review/{uuid}` (the proposal's review_url): title and message as plain text, the diff against the
// diagram as it is now, the diagram with the change highlighted, and for owners and editors of a pending
// proposal "Apply changes" and "Decline". Apply, decline and reopen are the proposals service's review
// calls, which check the reviewer's role themselves; a patch that no longer fits is shown with its
// reasons and the proposal stays pending.
import { isServiceError, type ServiceError } from '@dss/platform';
import { type DiagramDocument, diff, emptyDocument, MAX_DECLINE_REASON_CHARACTERS } from '@dss/schema';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { findVisibleDiagram, fullDocument, userNames } from '../lookups';
import { notFound, PageError, pageErrorOf, pageStatusOf } from '../page-errors';
import { type ProposedChange, proposalChange } from '../proposed-document';
import { requireViewer, viewerOf } from '../session';
import { canEdit, membershipOf, principalFor, type Viewer } from '../viewer';
import { changeView } from '../views/change';
import { csrfField, messagePage, page, timestamp } from '../views/layout';

/** Something to tell the reviewer above the proposal: a refused action and its reasons. */
interface Notice {
  message: string;
  problems?: { path: string; message: string }[];
}

/** Failures of a review action the page shows inline (the proposal stays as it was). */
const INLINE_FAILURES = new Set([
  'invalid_schema',
  'plan_limit',
  'diagram_not_ready',
  'conflict',
  'invalid_request',
]);

export function reviewRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  async function loadReview(viewer: Viewer, uuid: string) {
    try {
      return await clients.proposals.GetProposalForReview({ uuid, user_id: viewer.user.id });
    } catch (error) {
      throw pageErrorOf(error) ?? error;
    }
  }

  async function renderReview(req: Request, res: Response, notice?: Notice, status = 200) {
    const viewer = viewerOf(res)!;
    const review = await loadReview(viewer, String(req.params.uuid));
    let proposal = review.proposal!;
    const membership = membershipOf(viewer, proposal.team_id);
    if (!membership) throw notFound();
    const reviewer = canEdit(review.role);
    if (reviewer && !proposal.opened_at && req.method === 'GET')
      proposal = await clients.proposals.MarkOpened({
        uuid: proposal.uuid,
        user_id: viewer.user.id,
        team_id: '',
        reason: '',
      });
    const found = await findVisibleDiagram(clients, viewer, proposal.diagram_uuid).catch((error: unknown) => {
      if (error instanceof PageError && error.status === 404) return null;
      throw error;
    });
    // The proposal is the team's, so the person may learn that its diagram is gone (in the Trash or purged).
    if (found === null) {
      const chrome = {
        title: `Review: ${proposal.title}`,
        viewer: { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) },
      };
      const message =
        `The diagram of the proposal “${proposal.title}” was deleted, so the proposal can no longer be ` +
        'reviewed. An owner can restore the diagram from the Trash within 30 days of its deletion.';
      res.status(404).send(messagePage(chrome, 'The diagram was deleted', message).text);
      return;
    }
    const { diagram } = found;
    const before = await fullDocument(clients, viewer, membership, diagram);
    // Who decided: the proposal records it; for an applied one the version's author says the same.
    let decidedBy: string | null = proposal.decided_by_user_id
      ? ((await userNames(clients, [proposal.decided_by_user_id])).get(proposal.decided_by_user_id) ?? null)
      : null;
    let appliedNumber = 0;
    /** What an applied proposal changed: its version against the one before, as stored. */
    const appliedChange = async (versionUuid: string | undefined): Promise<ProposedChange | null> => {
      if (!versionUuid) return null;
      const stored = await clients.diagrams
        .GetVersionChange({
          principal: principalFor(viewer, membership),
          uuid: diagram.uuid,
          version_uuid: versionUuid,
        })
        .catch(() => null);
      if (stored === null) return null;
      appliedNumber = stored.number;
      decidedBy ??= (await userNames(clients, [stored.author_user_id])).get(stored.author_user_id) ?? null;
      const after = JSON.parse(stored.after_json) as DiagramDocument;
      const previous = stored.before_json
        ? (JSON.parse(stored.before_json) as DiagramDocument)
        : emptyDocument(after.driver);
      return { fits: true, before: previous, after, changes: diff(previous, after) };
    };
    const change =
      proposal.state === 'applied'
        ? await appliedChange(proposal.applied_version_uuid)
        : before
          ? await proposalChange(clients, proposal.uuid, viewer.user.id)
          : null;
    const csrfToken = csrfTokenFor(context, req, res);
    res.status(status).send(
      page(
        {
          title: `Review: ${proposal.title}`,
          viewer: { ...viewer.user, csrfToken },
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js', '/assets/copy.js'],
        },
        html`<main class="review">
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>Proposal <span class="state state-${proposal.state}">${proposal.state}</span></h1>
${notice ? noticeView(notice) : ''}
<section class="proposal-text">
<h2 class="plain-text" id="proposal-title">${proposal.title}</h2>
<p class="plain-text" id="proposal-message">${proposal.message}</p>
<p class="meta">Proposed ${timestamp(proposal.created_at)}${
          proposal.state === 'pending' ? html` · expires ${timestamp(proposal.expires_at)}` : ''
        }</p>
</section>
${stateView(proposal, reviewer, csrfToken, decidedBy, appliedNumber)}
${proposal.state === 'pending' && reviewer && change?.fits ? actions(proposal.uuid, csrfToken) : ''}
${change ? changeView(change, diagram.name) : ''}
${before || change ? '' : html`<p class="notice" id="diagram-not-ready">The diagram has no schema right now (it is importing, or its import failed), so the changes cannot be shown or applied.</p>`}
${proposal.state === 'pending' && !reviewer ? html`<p class="muted" id="viewer-note">You can view this proposal; owners and editors of the team apply or decline it.</p>` : ''}
</main>`,
      ).text,
    );
  }

  /** Runs a review action; shows its refusal inline on the review page, else returns to it. */
  async function reviewAction(
    req: Request,
    res: Response,
    action: (viewer: Viewer, uuid: string) => Promise<unknown>,
  ) {
    const viewer = viewerOf(res)!;
    const uuid = String(req.params.uuid);
    // The proposal must be visible to this person at all; else the same 404 as for an unknown one.
    await loadReview(viewer, uuid);
    try {
      await action(viewer, uuid);
    } catch (error) {
      if (isServiceError(error) && INLINE_FAILURES.has(error.code))
        return renderReview(
          req,
          res,
          { message: error.message, problems: error.extra.errors },
          statusOf(error),
        );
      throw pageErrorOf(error) ?? error;
    }
    res.redirect(303, `/review/${uuid}`);
  }

  router.get('/review/:uuid', requireViewer, (req, res) => renderReview(req, res));

  router.post('/review/:uuid/apply', requireViewer, (req, res) =>
    reviewAction(req, res, (viewer, uuid) =>
      clients.proposals.ApplyProposal({ uuid, user_id: viewer.user.id, team_id: '', reason: '' }),
    ),
  );

  router.post('/review/:uuid/decline', requireViewer, (req, res) => {
    const raw = (req.body as Record<string, unknown>).reason;
    const reason = typeof raw === 'string' ? raw.replace(/\r\n/g, '\n') : '';
    return reviewAction(req, res, (viewer, uuid) =>
      clients.proposals.DeclineProposal({ uuid, user_id: viewer.user.id, team_id: '', reason }),
    );
  });

  router.post('/review/:uuid/reopen', requireViewer, (req, res) =>
    reviewAction(req, res, (viewer, uuid) =>
      clients.proposals.ReopenProposal({ uuid, user_id: viewer.user.id, team_id: '', reason: '' }),
    ),
  );
}

/** The same status an error page of the code would have (diagram_not_ready and conflict 409). */
function statusOf(error: ServiceError): number {
  return pageStatusOf(error.code) ?? 422;
}

function noticeView(notice: Notice): Html {
  return html`<div class="notice error" role="alert" id="review-notice">
<p>${notice.message}</p>
${
  notice.problems?.length
    ? html`<ul class="problems">${notice.problems.map(
        (problem) => html`<li><code>${problem.path}</code> ${problem.message}</li>`,
      )}</ul>`
    : ''
}
</div>`;
}

interface ProposalView {
  uuid: string;
  state: string;
  diagram_uuid: string;
  applied_at?: string;
  applied_version_uuid?: string;
  declined_at?: string;
  decline_reason?: string;
  expires_at: string;
}

function stateView(
  proposal: ProposalView,
  reviewer: boolean,
  csrfToken: string,
  decidedBy: string | null,
  appliedNumber = 0,
): Html | '' {
  switch (proposal.state) {
    case 'applied':
      return html`<p class="notice" id="state-note">Applied${decidedBy ? html` by <span id="decided-by">${decidedBy}</span>` : ''} ${timestamp(proposal.applied_at)} as <a href="/diagrams/${proposal.diagram_uuid}#version-${proposal.applied_version_uuid ?? ''}">${appliedNumber > 0 ? `version ${appliedNumber}` : 'its version'}</a>.</p>`;
    case 'declined':
      return html`<div class="notice" id="state-note"><p>Declined${decidedBy ? html` by <span id="decided-by">${decidedBy}</span>` : ''} ${timestamp(proposal.declined_at)}.</p>${
        proposal.decline_reason
          ? html`<p>Reason: <span class="plain-text" id="decline-reason">${proposal.decline_reason}</span></p>`
          : ''
      }</div>`;
    case 'expired':
      return html`<div class="notice" id="state-note"><p>Expired ${timestamp(proposal.expires_at)}.</p>${
        reviewer
          ? html`<form method="post" action="/review/${proposal.uuid}/reopen" class="inline">${csrfField(csrfToken)}<button type="submit">Reopen for another 30 days</button></form>`
          : ''
      }</div>`;
    default:
      return '';
  }
}

function actions(uuid: string, csrfToken: string): Html {
  // Above the changes, so a reviewer reaches them without scrolling past a long diff.
  return html`<section class="review-actions" aria-label="Review actions">
<form method="post" action="/review/${uuid}/apply" id="apply-form">
${csrfField(csrfToken)}
<button type="submit" class="primary">Apply changes</button>
</form>
<form method="post" action="/review/${uuid}/decline" id="decline-form" class="stack">
${csrfField(csrfToken)}
<label>Reason (optional) <textarea name="reason" maxlength="${MAX_DECLINE_REASON_CHARACTERS}" rows="3"></textarea></label>
<button type="submit" class="danger">Decline</button>
</form>
</section>`;
}
