// The `proposals.changed` events: one per written change of a proposal, in the transaction of the change
// (outbox). Ids, numbers and the state only, never names or values from a patch or text of a comment.
import { enqueueEvent, type Metrics, recordAudit } from '@dss/platform';
import type { PoolClient } from 'pg';
import * as repo from './repository';
import { effectiveState } from './wire';

export const PROPOSALS_CHANGED_SUBJECT = 'proposals.changed';

export type ProposalEventKind =
  | 'created'
  | 'applied'
  | 'declined'
  | 'reopened'
  | 'expired'
  | 'opened'
  | 'commented'
  | 'resolved'
  | 'changes_requested'
  | 'revised';

/** What an event names beside the proposal: the comment written or resolved, the revision sent. */
export interface EventDetail {
  comment_id?: string;
  revision?: number;
}

export type Announce = (
  client: PoolClient,
  row: repo.ProposalRow,
  kind: ProposalEventKind,
  detail?: EventDetail,
  /** The person who made the change (recorded in the audit log for the kinds in AUDITED_KINDS). */
  actorUserId?: string,
) => Promise<void>;

/** The transitions a person makes that the audit log records (as `proposal.<kind>`). */
const AUDITED_KINDS = new Set<ProposalEventKind>([
  'created',
  'applied',
  'declined',
  'reopened',
  'changes_requested',
  'revised',
]);

/**
 * The writer of `proposals.changed` events. Also counts `dss_proposal_transitions_total{transition}` when
 * given metrics (counted when written; a transaction that then fails to commit, rare since the event is the
 * last write of each, still counts).
 */
export function createAnnounce(metrics?: Metrics): Announce {
  const counter = metrics?.counter('proposal_transitions_total', 'Proposal transitions written, by kind', [
    'transition',
  ]);
  return async (client, row, kind, detail = {}, actorUserId) => {
    await enqueueEvent(client, repo.SCHEMA, PROPOSALS_CHANGED_SUBJECT, {
      proposal_uuid: row.uuid,
      diagram_uuid: row.diagram_uuid,
      team_id: row.team_id,
      transition: kind,
      state: effectiveState(row),
      at: row.updated_at.toISOString(),
      ...detail,
    });
    if (AUDITED_KINDS.has(kind))
      await recordAudit(client, repo.SCHEMA, {
        action: `proposal.${kind}`,
        team_id: row.team_id,
        target: { kind: 'proposal', id: row.uuid, name: row.title },
        user_id: actorUserId ?? null,
        details: {
          diagram_uuid: row.diagram_uuid,
          ...(kind === 'applied' ? { version_uuid: row.applied_version_uuid } : {}),
          ...(detail.revision ? { revision: detail.revision } : {}),
        },
      });
    counter?.inc({ transition: kind });
  };
}

/** Stores and announces the expiry of a locked row that is pending but past `expires_at`. */
export async function settleExpiry(
  client: PoolClient,
  row: repo.ProposalRow,
  announce: Announce,
): Promise<repo.ProposalRow> {
  if (row.state !== 'pending' || effectiveState(row) !== 'expired') return row;
  const expired = await repo.transition(client, row.uuid, { kind: 'expired' });
  await announce(client, expired, 'expired');
  return expired;
}
