// Data access of a diagram's life around its schema: name and description, the Trash (deleted_at), the
// purge, and the editing sessions that amend a version. Parameterised SQL only, in the `diagrams` schema.
import type { PoolClient } from 'pg';
import { DIAGRAM_COLUMNS, type DiagramRow, type Queryable } from './repository';

export interface TrashedRow extends DiagramRow {
  deleted_at: Date;
  deleted_by: string;
}

const TRASHED_COLUMNS = `${DIAGRAM_COLUMNS}, d.deleted_at, d.deleted_by`;

/** Sets name, slug and description, moves updated_at forward and records it (row and list-clock locks held). */
export async function updateDetails(
  client: PoolClient,
  uuid: string,
  fields: { name: string; slug: string; description: string | null },
): Promise<DiagramRow> {
  const { rows } = await client.query<DiagramRow>(
    `WITH updated AS (
       UPDATE diagrams.diagrams
          SET updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 microsecond'),
              name = $2, slug = $3, description = $4
        WHERE uuid = $1
       RETURNING *
     ), recorded AS (
       INSERT INTO diagrams.diagram_update_times (diagram_uuid, updated_at)
       SELECT uuid, updated_at FROM updated
     )
     SELECT ${DIAGRAM_COLUMNS} FROM updated d`,
    [uuid, fields.name, fields.slug, fields.description],
  );
  return rows[0]!;
}

/** Marks the diagram deleted now by `userId` (the caller holds its row lock). */
export async function trashDiagram(client: PoolClient, uuid: string, userId: string): Promise<TrashedRow> {
  const { rows } = await client.query<TrashedRow>(
    `UPDATE diagrams.diagrams d SET deleted_at = clock_timestamp(), deleted_by = $2
      WHERE d.uuid = $1 RETURNING ${TRASHED_COLUMNS}`,
    [uuid, userId],
  );
  return rows[0]!;
}

/** A trashed diagram of the team, row-locked until the transaction ends. */
export async function findTrashedForUpdate(
  client: PoolClient,
  teamId: string,
  uuid: string,
): Promise<TrashedRow | null> {
  const { rows } = await client.query<TrashedRow>(
    `SELECT ${TRASHED_COLUMNS} FROM diagrams.diagrams d
      WHERE d.uuid = $1 AND d.team_id = $2 AND d.deleted_at IS NOT NULL
      FOR UPDATE OF d`,
    [uuid, teamId],
  );
  return rows[0] ?? null;
}

/** Takes the diagram out of the Trash, moving updated_at forward (row and list-clock locks held). */
export async function restoreDiagram(client: PoolClient, uuid: string): Promise<DiagramRow> {
  const { rows } = await client.query<DiagramRow>(
    `WITH updated AS (
       UPDATE diagrams.diagrams
          SET updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 microsecond'),
              deleted_at = NULL, deleted_by = NULL
        WHERE uuid = $1
       RETURNING *
     ), recorded AS (
       INSERT INTO diagrams.diagram_update_times (diagram_uuid, updated_at)
       SELECT uuid, updated_at FROM updated
     )
     SELECT ${DIAGRAM_COLUMNS} FROM updated d`,
    [uuid],
  );
  return rows[0]!;
}

/** The team's trashed diagrams deleted after `since`, most recently deleted first. */
export async function listTrash(db: Queryable, teamId: string, since: Date): Promise<TrashedRow[]> {
  const { rows } = await db.query<TrashedRow>(
    `SELECT ${TRASHED_COLUMNS} FROM diagrams.diagrams d
      WHERE d.team_id = $1 AND d.deleted_at IS NOT NULL AND d.deleted_at > $2
      ORDER BY d.deleted_at DESC, d.uuid DESC`,
    [teamId, since],
  );
  return rows;
}

/** Trashed diagrams deleted at or before `cutoff`, row-locked (others' locked rows skipped), at most `limit`. */
export async function lockDuePurges(
  client: PoolClient,
  cutoff: Date,
  limit: number,
): Promise<{ uuid: string; team_id: string; name: string }[]> {
  const { rows } = await client.query<{ uuid: string; team_id: string; name: string }>(
    `SELECT uuid, team_id, name FROM diagrams.diagrams
      WHERE deleted_at IS NOT NULL AND deleted_at <= $1
      ORDER BY deleted_at LIMIT $2
      FOR UPDATE SKIP LOCKED`,
    [cutoff, limit],
  );
  return rows;
}

/** Removes the diagram and everything stored with it (the caller holds its row lock). */
export async function purgeDiagram(client: PoolClient, uuid: string): Promise<void> {
  for (const table of [
    'share_links',
    'create_replays',
    'diagram_versions',
    'diagram_contents',
    'diagram_update_times',
  ])
    await client.query(`DELETE FROM diagrams.${table} WHERE diagram_uuid = $1`, [uuid]);
  await client.query('DELETE FROM diagrams.diagrams WHERE uuid = $1', [uuid]);
}

// ---- editing sessions -----------------------------------------------------------------------------

export interface SessionVersion {
  uuid: string;
  author_user_id: string;
  source_kind: string | null;
  session_started_at: Date | null;
}

/**
 * The version `versionUuid` when it is `userId`'s editor save whose session began less than `minutes`
 * ago by the database's clock (the clock that stamps versions), else null.
 */
export async function findOpenSession(
  db: Queryable,
  versionUuid: string,
  userId: string,
  minutes: number,
): Promise<SessionVersion | null> {
  const { rows } = await db.query<SessionVersion>(
    `SELECT uuid, author_user_id, source_kind, session_started_at FROM diagrams.diagram_versions
      WHERE uuid = $1 AND author_user_id = $2 AND source = 'apply' AND source_kind = 'editor'
        AND superseded_by IS NULL
        AND session_started_at > clock_timestamp() - make_interval(mins => $3::int)`,
    [versionUuid, userId, minutes],
  );
  return rows[0] ?? null;
}

/** The document of any version of the diagram, amended ones included (the base of a rebase). */
export async function findVersionDocumentByUuid(
  db: Queryable,
  diagramUuid: string,
  versionUuid: string,
): Promise<string | null> {
  const { rows } = await db.query<{ document: string }>(
    'SELECT document FROM diagrams.diagram_versions WHERE diagram_uuid = $1 AND uuid = $2',
    [diagramUuid, versionUuid],
  );
  return rows[0]?.document ?? null;
}

/** Hides an amended version behind the save that amended it. */
export async function supersedeVersion(client: PoolClient, versionUuid: string, by: string): Promise<void> {
  await client.query('UPDATE diagrams.diagram_versions SET superseded_by = $2 WHERE uuid = $1', [
    versionUuid,
    by,
  ]);
}

/** How many versions History shows: the number of the newest. */
export async function countVisibleVersions(db: Queryable, diagramUuid: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    'SELECT count(*) AS count FROM diagrams.diagram_versions WHERE diagram_uuid = $1 AND superseded_by IS NULL',
    [diagramUuid],
  );
  return Number(rows[0]!.count);
}
