// The revisions of a proposal on the review page, and "what changed since revision N": the diagram as
// revision N would leave it against the diagram as the latest revision leaves it, through the one diff engine.
import type { DocumentDiff } from '@dss/schema';
import { type Html, html } from '../html';
import { diffView } from './diff';
import { timestamp } from './layout';

export interface RevisionView {
  number: number;
  message?: string;
  author_user_id: string;
  created_at: string;
}

export type SinceChange = { since: number; changes: DocumentDiff } | { since: number; problem: string };

export function revisionsView(
  proposalUuid: string,
  revisions: RevisionView[],
  names: Map<string, string>,
  since: SinceChange | null,
): Html | '' {
  if (revisions.length < 2) return '';
  const latest = revisions[revisions.length - 1]!.number;
  return html`<section class="revisions" id="revisions" aria-labelledby="revisions-title">
<h2 id="revisions-title">Revisions <span class="muted">showing revision ${String(latest)}, the one "Apply changes" applies</span></h2>
<ol class="revision-list">${revisions.map(
    (revision) =>
      html`<li id="revision-${String(revision.number)}"><strong>Revision ${String(revision.number)}</strong> by ${
        names.get(revision.author_user_id) ?? 'a former user'
      } · ${timestamp(revision.created_at)}${revision.message ? html` — <span class="plain-text">${revision.message}</span>` : ''}${
        revision.number < latest
          ? html` · <a href="/review/${proposalUuid}?since=${String(revision.number)}#since-revision">compare with revision ${String(latest)}</a>`
          : ''
      }</li>`,
  )}</ol>
</section>
${since ? sinceView(since, latest) : ''}`;
}

function sinceView(since: SinceChange, latest: number): Html {
  const title = html`<h2>What changed since revision ${String(since.since)} <span class="muted">(revision ${String(since.since)} → ${String(latest)})</span></h2>`;
  if ('problem' in since)
    return html`<section class="changes-section" id="since-revision">${title}<p class="notice">${since.problem}</p></section>`;
  return html`<section class="changes-section" id="since-revision">${title}${diffView(since.changes)}</section>`;
}
