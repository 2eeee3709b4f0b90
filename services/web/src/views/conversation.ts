// The review conversation on the review page: comment threads (anchored to a table or column of the changes,
// or on the whole proposal), replies, resolution, and the forms to start a thread and to request changes.
// Every body is plain text: html`` escapes it and `.plain-text` keeps its line breaks, so nothing in a
// comment is markup or a live link.
import { type Html, html } from '../html';
import { csrfField, timestamp } from './layout';

/** The comment limit the proposals service enforces (the form only helps by saying it first). */
export const MAX_COMMENT_CHARACTERS = 4000;

export interface CommentView {
  id: string;
  revision: number;
  anchor?: { table: string; column?: string } | null;
  reply_to: string;
  body: string;
  author_user_id: string;
  author_kind: string;
  kind: string;
  created_at: string;
  resolved_at?: string;
  resolved_by?: string;
}

export interface ConversationContext {
  proposalUuid: string;
  comments: CommentView[];
  names: Map<string, string>;
  anchors: { table: string; column?: string }[];
  latestRevision: number;
  viewerId: string;
  /** Owner or editor: may resolve any thread and request changes. */
  reviewer: boolean;
  csrfToken: string;
}

const anchorLabel = (anchor: { table: string; column?: string }) =>
  anchor.column ? `${anchor.table}.${anchor.column}` : anchor.table;

/** The value of an anchor option: JSON, so no table or column name can be confused with a separator. */
export const anchorValue = (anchor: { table: string; column?: string }) => JSON.stringify(anchor);

function threadsOf(comments: CommentView[]): CommentView[][] {
  const threads = new Map<string, CommentView[]>();
  for (const comment of comments) {
    const key = comment.reply_to || comment.id;
    threads.set(key, [...(threads.get(key) ?? []), comment]);
  }
  return [...threads.values()];
}

function commentView(comment: CommentView, context: ConversationContext): Html {
  const name = context.names.get(comment.author_user_id) ?? 'a former user';
  return html`<li class="thread-comment" id="comment-${comment.id}">
<p class="comment-meta"><strong class="comment-author">${name}</strong>${
    comment.author_kind === 'token' ? html` <span class="badge">via API</span>` : ''
  } · ${timestamp(comment.created_at)}</p>
<p class="plain-text comment-body">${comment.body}</p>
</li>`;
}

function threadView(thread: CommentView[], context: ConversationContext): Html {
  const first = thread[0]!;
  const resolved = Boolean(first.resolved_at);
  const outdated = first.anchor && first.revision < context.latestRevision;
  const subject = first.anchor
    ? html`on <code class="thread-anchor">${anchorLabel(first.anchor)}</code>`
    : html`on the whole proposal`;
  const mayResolve = context.reviewer || first.author_user_id === context.viewerId;
  return html`<article class="thread${resolved ? ' resolved' : ''}" id="thread-${first.id}" aria-label="Thread ${first.anchor ? anchorLabel(first.anchor) : 'on the whole proposal'}">
<details${resolved ? '' : ' open'}>
<summary>${first.kind === 'changes_requested' ? html`<span class="badge changes">Changes requested</span> ` : ''}${subject} · revision ${String(first.revision)}${
    outdated ? html` <span class="badge">outdated</span>` : ''
  }${resolved ? html` <span class="badge resolved-badge">Resolved by ${context.names.get(first.resolved_by ?? '') ?? 'a former user'}</span>` : ''}</summary>
<ol class="thread-comments">${thread.map((comment) => commentView(comment, context))}</ol>
<form method="post" action="/review/${context.proposalUuid}/comments" class="stack reply-form">
${csrfField(context.csrfToken)}<input type="hidden" name="reply_to" value="${first.id}">
<label>Reply <textarea name="body" rows="2" required maxlength="${MAX_COMMENT_CHARACTERS}"></textarea></label>
<div class="thread-actions"><button type="submit">Reply</button></div>
</form>
${
  !resolved && mayResolve
    ? html`<form method="post" action="/review/${context.proposalUuid}/comments/${first.id}/resolve" class="inline">${csrfField(context.csrfToken)}<button type="submit">Resolve thread</button></form>`
    : ''
}
</details>
</article>`;
}

export function conversationView(context: ConversationContext): Html {
  const threads = threadsOf(context.comments);
  const open = threads.filter((thread) => !thread[0]!.resolved_at).length;
  return html`<section class="conversation" id="conversation" aria-labelledby="conversation-title">
<h2 id="conversation-title">Conversation <span class="muted">${String(threads.length)} thread${threads.length === 1 ? '' : 's'}, ${String(open)} open</span></h2>
${threads.length === 0 ? html`<p class="muted">No comments yet.</p>` : threads.map((thread) => threadView(thread, context))}
<form method="post" action="/review/${context.proposalUuid}/comments" class="stack" id="new-thread-form">
${csrfField(context.csrfToken)}
<label>Comment on <select name="anchor"><option value="">The whole proposal</option>${context.anchors.map(
    (anchor) => html`<option value="${anchorValue(anchor)}">${anchorLabel(anchor)}</option>`,
  )}</select></label>
<label>Comment <textarea name="body" rows="3" required maxlength="${MAX_COMMENT_CHARACTERS}"></textarea></label>
<div><button type="submit">Start thread</button></div>
</form>
</section>`;
}

/** A reviewer's "Request changes": the proposal stays pending and the message starts a thread. */
export function requestChangesForm(proposalUuid: string, csrfToken: string): Html {
  return html`<form method="post" action="/review/${proposalUuid}/request-changes" id="request-changes-form" class="stack">
${csrfField(csrfToken)}
<label>What should change <textarea name="message" rows="3" required maxlength="${MAX_COMMENT_CHARACTERS}"></textarea></label>
<button type="submit">Request changes</button>
</form>`;
}

/** Pending after a request for changes: who asked, when, and whether a revision came since. */
export function changesRequestedNote(
  proposal: { changes_requested_at?: string; changes_requested_by?: string; latest_revision: number },
  names: Map<string, string>,
  comments: { kind: string; revision: number }[],
): Html {
  const askedOn = comments.filter((comment) => comment.kind === 'changes_requested').at(-1)?.revision;
  const revisedSince = askedOn !== undefined && askedOn < proposal.latest_revision;
  return html`<p class="notice" id="changes-requested">Changes requested by <span id="changes-requested-by">${
    names.get(proposal.changes_requested_by ?? '') ?? 'a former user'
  }</span> ${timestamp(proposal.changes_requested_at)}.${
    revisedSince
      ? html` Revision ${String(proposal.latest_revision)} was sent since.`
      : html` Waiting for a revision.`
  }</p>`;
}
