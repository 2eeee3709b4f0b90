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
  /** Lint findings of the proposed schema, computed at creation. */
  lint: LintFinding[];
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  /** The database clock when the row was read: expiry is judged against it. */
  read_at: Date;
}

const COLUMNS = `uuid, diagram_uuid, team_id, author_user_id, counts, title, message, state, opened_at,
  applied_at, applied_version_uuid, declined_at, decline_reason, expires_at, created_at, updated_at,
  decided_by_user_id, lint, clock_timestamp() AS read_at`;

export interface NewProposal {
  uuid: string;
  diagram_uuid: string;
  team_id: string;
  author_user_id: string;
  patch: unknown;
  counts: ProposalCountsRow;
  title: string;
  message: string;
  lint: LintFinding[];
  lifetimeSeconds: number;
}

export async function insertProposal(db: Queryable, input: NewProposal): Promise<ProposalRow> {
  const { rows } = await db.query<ProposalRow>(
    `INSERT INTO proposals.proposals
       (uuid, diagram_uuid, team_id, author_user_id, patch, counts, title, message, state, expires_at,
        created_at, updated_at, lint)
     SELECT $1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, 'pending', now + make_interval(secs => $9), now, now,
            $10::jsonb
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
      JSON.stringify(input.lint),
    ],
  );
  return rows[0]!;
}

export async function findProposal(db: Queryable, uuid: string): Promise<ProposalRow | null> {
  const { rows } = await db.query<ProposalRow>(`SELECT ${COLUMNS} FROM proposals.proposals WHERE uuid = $1`, [
    uuid,
  ]);
  return rows[0] ?? null;
}

/** The proposal row-locked until the transaction ends. */
export async function findProposalForUpdate(client: PoolClient, uuid: string): Promise<ProposalRow | null> {
  const { rows } = await client.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals.proposals WHERE uuid = $1 FOR UPDATE`,
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
    `SELECT ${COLUMNS} FROM proposals.proposals
      WHERE diagram_uuid = $1 AND team_id = $2
      ORDER BY created_at DESC, uuid DESC`,
    [diagramUuid, teamId],
  );
  return rows;
}

export type Transition =
  | { kind: 'applied'; versionUuid: string; by: string }
  | { kind: 'declined'; reason: string | null; by: string }
  | { kind: 'reopened'; lifetimeSeconds: number }
  | { kind: 'expired' }
  | { kind: 'opened' };

/** Writes one transition of a row the caller holds locked; returns the row as it is now. */
export async function transition(client: PoolClient, uuid: string, change: Transition): Promise<ProposalRow> {
  const set = {
    applied: `state = 'applied', applied_at = clock_timestamp(), applied_version_uuid = $2::uuid, decided_by_user_id = $3::uuid`,
    declined: `state = 'declined', declined_at = clock_timestamp(), decline_reason = $2::text, decided_by_user_id = $3::uuid`,
    reopened: `state = 'pending', expires_at = clock_timestamp() + make_interval(secs => $2::int)`,
    expired: `state = 'expired'`,
    opened: 'opened_at = coalesce(opened_at, clock_timestamp())',
  }[change.kind];
  const parameter =
    change.kind === 'applied'
      ? [change.versionUuid, change.by]
      : change.kind === 'declined'
        ? [change.reason, change.by]
        : change.kind === 'reopened'
          ? [change.lifetimeSeconds]
          : [];
  const { rows } = await client.query<ProposalRow>(
    `UPDATE proposals.proposals SET ${set}, updated_at = clock_timestamp() WHERE uuid = $1 RETURNING ${COLUMNS}`,
    [uuid, ...parameter],
  );
  return rows[0]!;
}

/** Pending proposals past their expiry, row-locked (others skipped) for the sweeper, at most `limit`. */
export async function lockDueExpiries(client: PoolClient, limit: number): Promise<ProposalRow[]> {
  const { rows } = await client.query<ProposalRow>(
    `SELECT ${COLUMNS} FROM proposals.proposals
      WHERE state = 'pending' AND expires_at <= clock_timestamp()
      ORDER BY expires_at
      LIMIT $1
      FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows;
}
