// Data access of the proposals context. Parameterised SQL only; every table lives in the `proposals`
// schema and no other service reads it.
import type { LintFinding } from '@dss/schema';
import type { Pool, PoolClient } from 'pg';

export const SCHEMA = 'proposals';

export type Queryable = Pool | PoolClient;

export type StoredState = 'pending' | 'applied' | 'declined' | 'expired';

export interface ProposalCountsRow {
  tables: number;
  columns: number;
  relationships: number;
  groups: number;
  sticky_notes: number;
  deletions: number;
}

export interface ProposalRow {
  uuid: string;
  diagram_uuid: string;
  team_id: string;
  author_user_id: string;
  counts: ProposalCountsRow;
  title: string;
  message: string;
  state: StoredState;
  opened_at: Date | null;
  applied_at: Date | null;
  applied_version_uuid: string | null;
  declined_at: Date | null;
  decline_reason: string | null;
  decided_by_user_id: string | null;
  /**
   * The diagram version the latest revision was made on (each revision is checked against the diagram as it
   * is when sent); null for proposals made before it was recorded.
   */
  base_version_uuid: string | null;
  revision: number;
  changes_requested_at: Date | null;
  changes_requested_by: string | null;
  comment_count: number;
  open_thread_count: number;
  /** Lint findings of the proposed schema (the latest revision's), computed when it was sent. */
  lint: LintFinding[];
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  /** The database clock when the row was read: expiry is judged against it. */
  read_at: Date;
}

// Every query names the proposals table `p`, so the conversation's counts can be read beside the row.
const COLUMNS = `p.uuid, p.diagram_uuid, p.team_id, p.author_user_id, p.counts, p.title, p.message, p.state,
  p.opened_at, p.applied_at, p.applied_version_uuid, p.declined_at, p.decline_reason, p.expires_at,
  p.created_at, p.updated_at, p.decided_by_user_id, p.base_version_uuid, p.revision, p.changes_requested_at,
  p.changes_requested_by, p.lint,
  (SELECT count(*)::int FROM proposals.comments c WHERE c.proposal_uuid = p.uuid) AS comment_count,
  (SELECT count(*)::int FROM proposals.comments c
    WHERE c.proposal_uuid = p.uuid AND c.reply_to IS NULL AND c.resolved_at IS NULL) AS open_thread_count,
  clock_timestamp() AS read_at`;

export interface NewProposal {
  uuid: string;
  diagram_uuid: string;
  team_id: string;
  author_user_id: string;
  patch: unknown;
  base_version_uuid: string | null;
  counts: ProposalCountsRow;
  title: string;
  message: string;
  lint: LintFinding[];
  lifetimeSeconds: number;
}

export async function insertProposal(db: Queryable, input: NewProposal): Promise<ProposalRow> {
  const { rows } = await db.query<ProposalRow>(
    `INSERT INTO proposals.proposals AS p
       (uuid, diagram_uuid, team_id, author_user_id, patch, counts, title, message, state, expires_at,
        created_at, updated_at, base_version_uuid, lint)
     SELECT $1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, 'pending', now + make_interval(secs => $9), now, now,
            $10, $11::jsonb
       FROM (SELECT clock_timestamp() AS now) clock
     RETURNING ${COLUMNS}`,
    [
      input.uuid,
      input.diagram_uuid,
      input.team_id,
      input.author_user_id,
      JSON.stringify(input.patch),
      JSON.stringify(input.counts),
      input.title,
      input.message,
      input.lifetimeSeconds,
      input.base_version_uuid,
      JSON.stringify(input.lint),
    ],
  );
  return rows[0]!;
}

export async function findProposal(db: Queryable, uuid: string): Promise<ProposalRow | null> {
  const { rows } = await db.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals.proposals p WHERE p.uuid = $1`,
    [uuid],
  );
  return rows[0] ?? null;
}

/** The proposal row-locked until the transaction ends. */
export async function findProposalForUpdate(client: PoolClient, uuid: string): Promise<ProposalRow | null> {
  const { rows } = await client.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals.proposals p WHERE p.uuid = $1 FOR UPDATE OF p`,
    [uuid],
  );
  return rows[0] ?? null;
}

export async function findPatch(db: Queryable, uuid: string): Promise<unknown> {
  const { rows } = await db.query<{ patch: unknown }>(
    'SELECT patch FROM proposals.proposals WHERE uuid = $1',
    [uuid],
  );
  return rows[0]?.patch;
}

export async function listForDiagram(
  db: Queryable,
  teamId: string,
  diagramUuid: string,
): Promise<ProposalRow[]> {
  const { rows } = await db.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals.proposals p
      WHERE p.diagram_uuid = $1 AND p.team_id = $2
      ORDER BY p.created_at DESC, p.uuid DESC`,
    [diagramUuid, teamId],
  );
  return rows;
}

export type Transition =
  | { kind: 'applied'; versionUuid: string; by: string }
  | { kind: 'declined'; reason: string | null; by: string }
  | { kind: 'reopened'; lifetimeSeconds: number }
  | { kind: 'expired' }
  | { kind: 'opened' }
  | { kind: 'changes_requested'; by: string }
  | {
      kind: 'revised';
      revision: number;
      patch: unknown;
      counts: ProposalCountsRow;
      baseVersionUuid: string | null;
      lint: LintFinding[];
    }
  | { kind: 'touched' };

/** Writes one transition of a row the caller holds locked; returns the row as it is now. */
export async function transition(client: PoolClient, uuid: string, change: Transition): Promise<ProposalRow> {
  const set = {
    applied: `state = 'applied', applied_at = clock_timestamp(), applied_version_uuid = $2::uuid, decided_by_user_id = $3::uuid`,
    declined: `state = 'declined', declined_at = clock_timestamp(), decline_reason = $2::text, decided_by_user_id = $3::uuid`,
    reopened: `state = 'pending', expires_at = clock_timestamp() + make_interval(secs => $2::int)`,
    expired: `state = 'expired'`,
    opened: 'opened_at = coalesce(opened_at, clock_timestamp())',
    changes_requested: 'changes_requested_at = clock_timestamp(), changes_requested_by = $2::uuid',
    revised: `revision = $2::int, patch = $3::jsonb, counts = $4::jsonb, base_version_uuid = $5::uuid,
      lint = $6::jsonb`,
    // A comment or a resolution: the conversation changed, so the status (and its ETag) did.
    touched: 'uuid = uuid',
  }[change.kind];
  const { rows } = await client.query<ProposalRow>(
    `UPDATE proposals.proposals p SET ${set}, updated_at = clock_timestamp() WHERE p.uuid = $1 RETURNING ${COLUMNS}`,
    [uuid, ...transitionParameters(change)],
  );
  return rows[0]!;
}

function transitionParameters(change: Transition): unknown[] {
  switch (change.kind) {
    case 'applied':
      return [change.versionUuid, change.by];
    case 'declined':
      return [change.reason, change.by];
    case 'reopened':
      return [change.lifetimeSeconds];
    case 'changes_requested':
      return [change.by];
    case 'revised':
      return [
        change.revision,
        JSON.stringify(change.patch),
        JSON.stringify(change.counts),
        change.baseVersionUuid,
        JSON.stringify(change.lint),
      ];
    default:
      return [];
  }
}

/** Pending proposals past their expiry, row-locked (others skipped) for the sweeper, at most `limit`. */
export async function lockDueExpiries(client: PoolClient, limit: number): Promise<ProposalRow[]> {
  const { rows } = await client.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals.proposals p
      WHERE p.state = 'pending' AND p.expires_at <= clock_timestamp()
      ORDER BY p.expires_at
      LIMIT $1
      FOR UPDATE OF p SKIP LOCKED`,
    [limit],
  );
  return rows;
}
