// Data access of the review conversation: the revisions of a proposal and its comment threads. Parameterised
// SQL only, in the `proposals` schema. Writes happen while the caller holds the proposal's row lock, so
// numbering and limits are decided one writer at a time.
import type { PoolClient } from 'pg';
import type { ProposalCountsRow, Queryable } from './repository';

export interface RevisionRow {
  proposal_uuid: string;
  number: number;
  patch: unknown;
  counts: ProposalCountsRow;
  message: string | null;
  author_user_id: string;
  created_at: Date;
  /** The diagram version the revision was made on; null for revisions made before it was recorded. */
  base_version_uuid: string | null;
}

export interface NewRevision {
  proposal_uuid: string;
  number: number;
  patch: unknown;
  counts: ProposalCountsRow;
  message: string | null;
  author_user_id: string;
  base_version_uuid: string | null;
}

export async function insertRevision(client: PoolClient, input: NewRevision): Promise<RevisionRow> {
  const { rows } = await client.query<RevisionRow>(
    `INSERT INTO proposals.revisions
       (proposal_uuid, number, patch, counts, message, author_user_id, base_version_uuid, created_at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, clock_timestamp())
     RETURNING *`,
    [
      input.proposal_uuid,
      input.number,
      JSON.stringify(input.patch),
      JSON.stringify(input.counts),
      input.message,
      input.author_user_id,
      input.base_version_uuid,
    ],
  );
  return rows[0]!;
}

export async function listRevisions(db: Queryable, proposalUuid: string): Promise<RevisionRow[]> {
  const { rows } = await db.query<RevisionRow>(
    'SELECT * FROM proposals.revisions WHERE proposal_uuid = $1 ORDER BY number',
    [proposalUuid],
  );
  return rows;
}

export type AuthorKind = 'person' | 'token';
export type CommentKind = 'comment' | 'changes_requested';

export interface CommentRow {
  id: string;
  proposal_uuid: string;
  revision: number;
  reply_to: string | null;
  /** The thread's anchor (a reply reads its first comment's). */
  anchor_table: string | null;
  anchor_column: string | null;
  body: string;
  author_user_id: string;
  author_kind: AuthorKind;
  kind: CommentKind;
  created_at: Date;
  /** The thread's resolution (a reply reads its first comment's). */
  resolved_at: Date | null;
  resolved_by: string | null;
}

export interface NewComment {
  id: string;
  proposal_uuid: string;
  revision: number;
  reply_to: string | null;
  anchor_table: string | null;
  anchor_column: string | null;
  body: string;
  author_user_id: string;
  author_kind: AuthorKind;
  kind: CommentKind;
}

/** A comment with its thread's anchor and resolution, read from the thread's first comment. */
const COMMENT_COLUMNS = `c.id, c.proposal_uuid, c.revision, c.reply_to,
  coalesce(root.anchor_table, c.anchor_table) AS anchor_table,
  coalesce(root.anchor_column, c.anchor_column) AS anchor_column,
  c.body, c.author_user_id, c.author_kind, c.kind, c.created_at,
  CASE WHEN root.id IS NULL THEN c.resolved_at ELSE root.resolved_at END AS resolved_at,
  CASE WHEN root.id IS NULL THEN c.resolved_by ELSE root.resolved_by END AS resolved_by`;

const COMMENT_FROM = 'proposals.comments c LEFT JOIN proposals.comments root ON root.id = c.reply_to';

export async function insertComment(client: PoolClient, input: NewComment): Promise<CommentRow> {
  await client.query(
    `INSERT INTO proposals.comments
       (id, proposal_uuid, revision, reply_to, anchor_table, anchor_column, body, author_user_id, author_kind,
        kind, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, clock_timestamp())`,
    [
      input.id,
      input.proposal_uuid,
      input.revision,
      input.reply_to,
      input.anchor_table,
      input.anchor_column,
      input.body,
      input.author_user_id,
      input.author_kind,
      input.kind,
    ],
  );
  return (await findComment(client, input.proposal_uuid, input.id))!;
}

export async function findComment(
  db: Queryable,
  proposalUuid: string,
  id: string,
): Promise<CommentRow | null> {
  const { rows } = await db.query<CommentRow>(
    `SELECT ${COMMENT_COLUMNS} FROM ${COMMENT_FROM} WHERE c.proposal_uuid = $1 AND c.id = $2`,
    [proposalUuid, id],
  );
  return rows[0] ?? null;
}

/** The conversation in the order it was written. */
export async function listComments(db: Queryable, proposalUuid: string): Promise<CommentRow[]> {
  const { rows } = await db.query<CommentRow>(
    `SELECT ${COMMENT_COLUMNS} FROM ${COMMENT_FROM} WHERE c.proposal_uuid = $1 ORDER BY c.created_at, c.id`,
    [proposalUuid],
  );
  return rows;
}

export async function countComments(db: Queryable, proposalUuid: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM proposals.comments WHERE proposal_uuid = $1',
    [proposalUuid],
  );
  return rows[0]!.count;
}

/** Marks a thread (by its first comment) resolved, once: a thread already resolved keeps its first resolution. */
export async function resolveThread(client: PoolClient, rootId: string, by: string): Promise<void> {
  await client.query(
    `UPDATE proposals.comments SET resolved_at = clock_timestamp(), resolved_by = $2
      WHERE id = $1 AND reply_to IS NULL AND resolved_at IS NULL`,
    [rootId, by],
  );
}
