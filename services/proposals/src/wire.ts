// Rows to the proto's Proposal message, and the status object of GET /proposals/{uuid} whose exact JSON
// bytes the ETag is computed over (the gateway serialises the same object in the same key order).
import { strongEtag } from '@dss/platform';
import { lintCounts } from '@dss/schema';
import type { ProposalRow, StoredState } from './repository';

/** The state a reader sees: a pending proposal past `expires_at` is expired at once, swept or not. */
export function effectiveState(row: ProposalRow): StoredState {
  return row.state === 'pending' && row.expires_at.getTime() <= row.read_at.getTime() ? 'expired' : row.state;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The spec's status table: every field present, null where due. */
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
    lint: status.lint,
  };
}
