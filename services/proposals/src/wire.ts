// Rows to the proto's Proposal message, and the status object of GET /proposals/{uuid} whose exact JSON
// bytes the ETag is computed over (the gateway serialises the same object in the same key order).
import { strongEtag } from '@dss/platform';
import { lintCounts } from '@dss/schema';
import type { CommentRow, RevisionRow } from './conversation-repository';
import type { ProposalRow, StoredState } from './repository';

/** The state a reader sees: a pending proposal past `expires_at` is expired at once, swept or not. */
export function effectiveState(row: ProposalRow): StoredState {
  return row.state === 'pending' && row.expires_at.getTime() <= row.read_at.getTime() ? 'expired' : row.state;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/**
 * The spec's status table: every field present, null where due; then the fields of the review conversation
 * (additions within v1): counts of comments and unresolved threads, the latest revision's number, and the
 * last request for changes (null until a reviewer asks for changes).
 */
export function proposalStatus(row: ProposalRow) {
  return {
    uuid: row.uuid,
    state: effectiveState(row),
    opened_at: iso(row.opened_at),
    applied_at: iso(row.applied_at),
    applied_version_uuid: row.applied_version_uuid,
    declined_at: iso(row.declined_at),
    decline_reason: row.decline_reason,
    expires_at: row.expires_at.toISOString(),
    base_version_uuid: row.base_version_uuid,
    comment_count: row.comment_count,
    open_thread_count: row.open_thread_count,
    latest_revision: row.revision,
    review:
      row.changes_requested_at === null
        ? null
        : { requested_changes_at: row.changes_requested_at.toISOString(), by: row.changes_requested_by },
    lint: lintCounts(row.lint),
  };
}

export function toProposal(row: ProposalRow, appUrl: string) {
  const status = proposalStatus(row);
  return {
    uuid: row.uuid,
    diagram_uuid: row.diagram_uuid,
    state: status.state,
    review_url: `${appUrl}/review/${row.uuid}`,
    ...(row.opened_at ? { opened_at: row.opened_at.toISOString() } : {}),
    ...(row.applied_at ? { applied_at: row.applied_at.toISOString() } : {}),
    ...(row.applied_version_uuid ? { applied_version_uuid: row.applied_version_uuid } : {}),
    ...(row.declined_at ? { declined_at: row.declined_at.toISOString() } : {}),
    ...(row.decline_reason !== null ? { decline_reason: row.decline_reason } : {}),
    expires_at: status.expires_at,
    counts: row.counts,
    created_at: row.created_at.toISOString(),
    title: row.title,
    message: row.message,
    etag: strongEtag(JSON.stringify({ data: status })),
    team_id: row.team_id,
    author_user_id: row.author_user_id,
    updated_at: row.updated_at.toISOString(),
    decided_by_user_id: row.decided_by_user_id ?? '',
    base_version_uuid: row.base_version_uuid ?? '',
    comment_count: row.comment_count,
    open_thread_count: row.open_thread_count,
    latest_revision: row.revision,
    ...(row.changes_requested_at ? { changes_requested_at: row.changes_requested_at.toISOString() } : {}),
    ...(row.changes_requested_by ? { changes_requested_by: row.changes_requested_by } : {}),
    lint: status.lint,
  };
}

export function toComment(row: CommentRow) {
  return {
    id: row.id,
    proposal_uuid: row.proposal_uuid,
    revision: row.revision,
    anchor:
      row.anchor_table === null
        ? null
        : { table: row.anchor_table, ...(row.anchor_column !== null ? { column: row.anchor_column } : {}) },
    reply_to: row.reply_to ?? '',
    body: row.body,
    author_user_id: row.author_user_id,
    author_kind: row.author_kind,
    kind: row.kind,
    created_at: row.created_at.toISOString(),
    ...(row.resolved_at ? { resolved_at: row.resolved_at.toISOString() } : {}),
    ...(row.resolved_by ? { resolved_by: row.resolved_by } : {}),
  };
}

export function toRevision(row: RevisionRow, withPatch = false) {
  return {
    number: row.number,
    ...(row.message !== null ? { message: row.message } : {}),
    counts: row.counts,
    author_user_id: row.author_user_id,
    created_at: row.created_at.toISOString(),
    patch_json: withPatch ? JSON.stringify(row.patch) : '',
    base_version_uuid: row.base_version_uuid ?? '',
  };
}
