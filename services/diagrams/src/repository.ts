// Data access of the diagrams context. Parameterised SQL only; every table lives in the `diagrams` schema,
// no other service reads it, and every query that starts from a caller names the caller's team.
import { withTransaction } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import { lockTeamListClockExclusive } from './locks';
import type { ListPosition } from './list-cursor';
import type { StoredRepresentations } from './representations';

export const SCHEMA = 'diagrams';

export type Queryable = Pool | PoolClient;

export type DiagramStatus = 'ready' | 'importing' | 'failed';

export interface DiagramRow {
  uuid: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  name: string;
  slug: string;
  description: string | null;
  driver: string;
  status: DiagramStatus;
  error_code: string | null;
  error_message: string | null;
  table_count: number | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  current_version_uuid: string | null;
  /** What the DDL import skipped or changed; null for other diagrams. */
  import_warnings: ImportWarningsRecord | null;
}

/** A DDL import's warnings as stored: the total and the first 100 (`packages/ddl`'s DdlWarning). */
export interface ImportWarningsRecord {
  total: number;
  items: { line: number; column: number; code: string; message: string; statement: string }[];
}

export interface VersionRow {
  uuid: string;
  author_user_id: string;
  source: string;
  source_kind: string | null;
  source_id: string;
  created_at: Date;
  label: string | null;
}

export const DIAGRAM_COLUMNS = `d.uuid, d.team_id, d.team_slug, d.team_name, d.name, d.slug, d.description, d.driver,
  d.status, d.error_code, d.error_message, d.table_count, d.created_by, d.created_at, d.updated_at,
  d.current_version_uuid, d.import_warnings`;

/** A timestamptz as UTC text with all six fractional digits, the form cursors carry. */
const MICROSECOND_TEXT = (expression: string) =>
  `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

// ---- reads ----------------------------------------------------------------------------------------

export async function findDiagram(db: Queryable, teamId: string, uuid: string): Promise<DiagramRow | null> {
  const { rows } = await db.query<DiagramRow>(
    `SELECT ${DIAGRAM_COLUMNS} FROM diagrams.diagrams d
      WHERE d.uuid = $1 AND d.team_id = $2 AND d.deleted_at IS NULL`,
    [uuid, teamId],
  );
  return rows[0] ?? null;
}

/** The diagram and its current document, row-locked until the transaction ends. */
export async function findDiagramForUpdate(
  client: PoolClient,
  teamId: string,
  uuid: string,
): Promise<(DiagramRow & { document: DiagramDocument | null }) | null> {
  const { rows } = await client.query<DiagramRow & { document: string | null }>(
    `SELECT ${DIAGRAM_COLUMNS}, c.document
       FROM diagrams.diagrams d LEFT JOIN diagrams.diagram_contents c ON c.diagram_uuid = d.uuid
      WHERE d.uuid = $1 AND d.team_id = $2 AND d.deleted_at IS NULL
      FOR UPDATE OF d`,
    [uuid, teamId],
  );
  const row = rows[0];
  if (!row) return null;
  // Stored as the JSON text this service wrote (see saveContents).
  return { ...row, document: row.document === null ? null : (JSON.parse(row.document) as DiagramDocument) };
}

export type RepresentationName =
  | 'schema_json'
  | 'markdown_detailed'
  | 'markdown_simple'
  | 'full_document_json';

const ETAG_COLUMN: Record<RepresentationName, string> = {
  schema_json: 'schema_json_etag',
  markdown_detailed: 'markdown_detailed_etag',
  markdown_simple: 'markdown_simple_etag',
  full_document_json: 'full_document_etag',
};

/**
 * One stored representation of a diagram of the team; body null when the diagram has no document.
 * When `knownEtag` is the current ETag the body is not read at all (`unchanged`), so a revalidation
 * costs one index lookup instead of moving the whole representation.
 */
export async function findRepresentation(
  db: Queryable,
  teamId: string,
  uuid: string,
  name: RepresentationName,
  knownEtag = '',
): Promise<{
  status: DiagramStatus;
  body: string | null;
  etag: string | null;
  unchanged: boolean;
  version_uuid: string | null;
} | null> {
  // `name` is one of four fixed identifiers (checked by the type and the map), never client text.
  const etag = `c.${ETAG_COLUMN[name]}`;
  const { rows } = await db.query(
    `SELECT d.status, d.current_version_uuid AS version_uuid, ${etag} AS etag,
            coalesce(${etag} = $3, false) AS unchanged,
            CASE WHEN ${etag} = $3 THEN NULL ELSE c.${name} END AS body
       FROM diagrams.diagrams d LEFT JOIN diagrams.diagram_contents c ON c.diagram_uuid = d.uuid
      WHERE d.uuid = $1 AND d.team_id = $2 AND d.deleted_at IS NULL`,
    [uuid, teamId, knownEtag],
  );
  return rows[0] ?? null;
}

export async function countTeamDiagrams(db: Queryable, teamId: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    // Trashed diagrams do not count: deleting one makes room (restoring checks the cap again).
    'SELECT count(*) AS count FROM diagrams.diagrams WHERE team_id = $1 AND deleted_at IS NULL',
    [teamId],
  );
  return Number(rows[0]!.count);
}

export async function listVersions(db: Queryable, diagramUuid: string): Promise<VersionRow[]> {
  const { rows } = await db.query<VersionRow>(
    `SELECT uuid, author_user_id, source, source_kind, source_id, created_at, label
       FROM diagrams.diagram_versions WHERE diagram_uuid = $1 AND superseded_by IS NULL
      ORDER BY created_at DESC, uuid DESC`,
    [diagramUuid],
  );
  return rows;
}

/** Sets (or clears, null) the label of version `number` (1 = the oldest); null when there is none. */
export async function labelVersion(
  db: Queryable,
  diagramUuid: string,
  number: number,
  label: string | null,
): Promise<VersionRow | null> {
  const { rows } = await db.query<VersionRow>(
    `UPDATE diagrams.diagram_versions SET label = $3
      WHERE uuid = (SELECT uuid FROM diagrams.diagram_versions
                     WHERE diagram_uuid = $1 AND superseded_by IS NULL
                     ORDER BY created_at, uuid OFFSET $2 LIMIT 1)
      RETURNING uuid, author_user_id, source, source_kind, source_id, created_at, label`,
    [diagramUuid, number - 1, label],
  );
  return rows[0] ?? null;
}

/** The document of a diagram's version `number` (1 = the oldest), or null when there is no such version. */
export async function findVersionDocument(
  db: Queryable,
  diagramUuid: string,
  number: number,
): Promise<string | null> {
  const { rows } = await db.query<{ document: string }>(
    `SELECT document FROM diagrams.diagram_versions WHERE diagram_uuid = $1 AND superseded_by IS NULL
      ORDER BY created_at, uuid OFFSET $2 LIMIT 1`,
    [diagramUuid, number - 1],
  );
  return rows[0]?.document ?? null;
}

/** A version's document and the document of the version before it (null before the first). */
export async function findVersionChange(
  db: Queryable,
  diagramUuid: string,
  versionUuid: string,
): Promise<{
  before: string | null;
  after: string;
  author_user_id: string;
  created_at: Date;
  number: number;
} | null> {
  const { rows } = await db.query<{
    after: string;
    before: string | null;
    author_user_id: string;
    created_at: Date;
    number: number;
  }>(
    `SELECT v.document AS after, v.author_user_id, v.created_at,
            (SELECT p.document FROM diagrams.diagram_versions p
              WHERE p.diagram_uuid = v.diagram_uuid AND p.superseded_by IS NULL
                AND (p.created_at, p.uuid) < (v.created_at, v.uuid)
              ORDER BY p.created_at DESC, p.uuid DESC LIMIT 1) AS before,
            (SELECT count(*)::int FROM diagrams.diagram_versions p
              WHERE p.diagram_uuid = v.diagram_uuid AND p.superseded_by IS NULL
                AND (p.created_at, p.uuid) <= (v.created_at, v.uuid)) AS number
       FROM diagrams.diagram_versions v
      WHERE v.diagram_uuid = $1 AND v.uuid = $2 AND v.superseded_by IS NULL`,
    [diagramUuid, versionUuid],
  );
  return rows[0] ?? null;
}

// ---- the list -------------------------------------------------------------------------------------

/**
 * The snapshot time of a new list. Taken under the team's list-clock lock (exclusive), so every writer
 * that read the clock before this moment has committed, and every later writer reads a later time.
 */
export async function takeListSnapshot(pool: Pool, teamId: string): Promise<string> {
  return withTransaction(pool, async (client) => {
    await lockTeamListClockExclusive(client, teamId);
    const { rows } = await client.query<{ snapshot: string }>(
      `SELECT ${MICROSECOND_TEXT('clock_timestamp()')} AS snapshot`,
    );
    return rows[0]!.snapshot;
  });
}

export interface ListedDiagram extends DiagramRow {
  /** updated_at as of the snapshot (microsecond UTC text): the ordering key of the list. */
  as_of: string;
}

/**
 * One page of the team's diagrams as of `snapshot`: diagrams created after it are left out and each
 * diagram sorts by the updated_at it had at that time, newest first, ties by uuid. Diagrams unchanged
 * since the snapshot come straight from the (team_id, updated_at, uuid) index; only those changed since
 * look up their earlier time in the append-only diagram_update_times.
 */
export async function listDiagramPage(
  db: Queryable,
  teamId: string,
  snapshot: string,
  after: ListPosition | null,
  limit: number,
): Promise<ListedDiagram[]> {
  const snapshotAt = `($2::text::timestamp AT TIME ZONE 'UTC')`;
  const afterKey = `(($3::text)::timestamp AT TIME ZONE 'UTC', $4::uuid)`;
  const { rows } = await db.query<ListedDiagram>(
    `WITH page AS (
       (SELECT d.uuid, d.updated_at AS as_of
          FROM diagrams.diagrams d
         WHERE d.team_id = $1 AND d.deleted_at IS NULL AND d.updated_at <= ${snapshotAt}
           AND ($3::text IS NULL OR (d.updated_at, d.uuid) < ${afterKey})
         ORDER BY d.updated_at DESC, d.uuid DESC
         LIMIT $5)
       UNION ALL
       (SELECT d.uuid, earlier.as_of
          FROM diagrams.diagrams d
          CROSS JOIN LATERAL (
            SELECT max(t.updated_at) AS as_of FROM diagrams.diagram_update_times t
             WHERE t.diagram_uuid = d.uuid AND t.updated_at <= ${snapshotAt}) earlier
         WHERE d.team_id = $1 AND d.deleted_at IS NULL AND d.updated_at > ${snapshotAt}
           AND earlier.as_of IS NOT NULL
           AND ($3::text IS NULL OR (earlier.as_of, d.uuid) < ${afterKey}))
     )
     SELECT ${DIAGRAM_COLUMNS}, ${MICROSECOND_TEXT('p.as_of')} AS as_of
       FROM page p JOIN diagrams.diagrams d ON d.uuid = p.uuid
      ORDER BY p.as_of DESC, p.uuid DESC
      LIMIT $5`,
    [teamId, snapshot, after?.updatedAt ?? null, after?.uuid ?? null, limit],
  );
  return rows;
}

// ---- writes (inside the caller's transaction) -----------------------------------------------------

export interface NewDiagram {
  uuid: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  name: string;
  slug: string;
  description?: string | null;
  driver: string;
  status: DiagramStatus;
  table_count: number | null;
  created_by: string;
  /** The import job of a diagram created from DDL (status importing); null otherwise. */
  import_job_id?: string | null;
  /** The plan's tables cap checked when the import completes; null for no cap. */
  import_max_tables?: number | null;
}

/**
 * Inserts the diagram with created_at = updated_at = the clock now (read under the list-clock lock the
 * caller holds), and records that update time.
 */
export async function insertDiagram(client: PoolClient, diagram: NewDiagram): Promise<DiagramRow> {
  const { rows } = await client.query<DiagramRow>(
    `WITH clock AS (SELECT clock_timestamp() AS now), inserted AS (
       INSERT INTO diagrams.diagrams
         (uuid, team_id, team_slug, team_name, name, slug, driver, status, table_count, created_by,
          import_job_id, import_max_tables, description, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, clock.now, clock.now FROM clock
       RETURNING *
     ), recorded AS (
       INSERT INTO diagrams.diagram_update_times (diagram_uuid, updated_at)
       SELECT uuid, updated_at FROM inserted
     )
     SELECT ${DIAGRAM_COLUMNS} FROM inserted d`,
    [
      diagram.uuid,
      diagram.team_id,
      diagram.team_slug,
      diagram.team_name,
      diagram.name,
      diagram.slug,
      diagram.driver,
      diagram.status,
      diagram.table_count,
      diagram.created_by,
      diagram.import_job_id ?? null,
      diagram.import_max_tables ?? null,
      diagram.description ?? null,
    ],
  );
  return rows[0]!;
}

/**
 * Moves updated_at forward (strictly, even if the clock stepped back), sets the given fields and records
 * the new update time. The caller holds the row lock and the team's list-clock lock (shared).
 */
export async function touchDiagram(
  client: PoolClient,
  uuid: string,
  fields: { table_count: number | null; current_version_uuid: string },
): Promise<DiagramRow> {
  const { rows } = await client.query<DiagramRow>(
    `WITH updated AS (
       UPDATE diagrams.diagrams
          SET updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 microsecond'),
              table_count = $2, current_version_uuid = $3
        WHERE uuid = $1
       RETURNING *
     ), recorded AS (
       INSERT INTO diagrams.diagram_update_times (diagram_uuid, updated_at)
       SELECT uuid, updated_at FROM updated
     )
     SELECT ${DIAGRAM_COLUMNS} FROM updated d`,
    [uuid, fields.table_count, fields.current_version_uuid],
  );
  return rows[0]!;
}

/** Any team's diagram with its import job id, row-locked until the transaction ends (CompleteImport). */
export async function findImportForUpdate(
  client: PoolClient,
  uuid: string,
): Promise<(DiagramRow & { import_job_id: string | null; import_max_tables: number | null }) | null> {
  const { rows } = await client.query<
    DiagramRow & { import_job_id: string | null; import_max_tables: number | null }
  >(
    `SELECT ${DIAGRAM_COLUMNS}, d.import_job_id, d.import_max_tables FROM diagrams.diagrams d WHERE d.uuid = $1 FOR UPDATE OF d`,
    [uuid],
  );
  return rows[0] ?? null;
}

/**
 * Ends an import: sets its outcome, moves updated_at forward and records the new update time, as
 * touchDiagram does. The caller holds the row lock and the team's list-clock lock (shared).
 */
export async function finishImport(
  client: PoolClient,
  uuid: string,
  fields: {
    status: 'ready' | 'failed';
    table_count: number | null;
    current_version_uuid: string | null;
    error_code: string | null;
    error_message: string | null;
    import_warnings: ImportWarningsRecord | null;
  },
): Promise<DiagramRow> {
  const { rows } = await client.query<DiagramRow>(
    `WITH updated AS (
       UPDATE diagrams.diagrams
          SET updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 microsecond'),
              status = $2, table_count = $3, current_version_uuid = $4, error_code = $5, error_message = $6,
              import_warnings = $7::jsonb
        WHERE uuid = $1
       RETURNING *
     ), recorded AS (
       INSERT INTO diagrams.diagram_update_times (diagram_uuid, updated_at)
       SELECT uuid, updated_at FROM updated
     )
     SELECT ${DIAGRAM_COLUMNS} FROM updated d`,
    [
      uuid,
      fields.status,
      fields.table_count,
      fields.current_version_uuid,
      fields.error_code,
      fields.error_message,
      fields.import_warnings === null ? null : JSON.stringify(fields.import_warnings),
    ],
  );
  return rows[0]!;
}

/** The diagram of a create and its replay record's counts and warnings (the answer of a DDL create). */
export async function findCreated(db: Queryable, uuid: string): Promise<ReplayRecord | null> {
  const { rows } = await db.query<DiagramRow & { replay_counts: unknown; replay_warnings: unknown }>(
    `SELECT ${DIAGRAM_COLUMNS}, r.counts AS replay_counts, r.warnings AS replay_warnings
       FROM diagrams.diagrams d LEFT JOIN diagrams.create_replays r ON r.diagram_uuid = d.uuid
      WHERE d.uuid = $1
      LIMIT 1`,
    [uuid],
  );
  const row = rows[0];
  if (!row) return null;
  const { replay_counts, replay_warnings, ...diagram } = row;
  return { diagram, counts: replay_counts, warnings: replay_warnings };
}

export async function setCurrentVersion(
  client: PoolClient,
  uuid: string,
  versionUuid: string,
): Promise<void> {
  await client.query('UPDATE diagrams.diagrams SET current_version_uuid = $2 WHERE uuid = $1', [
    uuid,
    versionUuid,
  ]);
}

/**
 * Stores the document (as JSON text: it is only ever read whole and parsed here, so PostgreSQL need not
 * parse it into jsonb and print it back) with its representations.
 */
export async function saveContents(
  client: PoolClient,
  diagramUuid: string,
  document: DiagramDocument,
  representations: StoredRepresentations,
): Promise<void> {
  const r = representations;
  await client.query(
    `INSERT INTO diagrams.diagram_contents
       (diagram_uuid, document, schema_json, schema_json_etag, markdown_detailed, markdown_detailed_etag,
        markdown_simple, markdown_simple_etag, full_document_json, full_document_etag)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (diagram_uuid) DO UPDATE SET
       document = EXCLUDED.document,
       schema_json = EXCLUDED.schema_json, schema_json_etag = EXCLUDED.schema_json_etag,
       markdown_detailed = EXCLUDED.markdown_detailed, markdown_detailed_etag = EXCLUDED.markdown_detailed_etag,
       markdown_simple = EXCLUDED.markdown_simple, markdown_simple_etag = EXCLUDED.markdown_simple_etag,
       full_document_json = EXCLUDED.full_document_json, full_document_etag = EXCLUDED.full_document_etag`,
    [
      diagramUuid,
      JSON.stringify(document),
      r.schema_json,
      r.schema_json_etag,
      r.markdown_detailed,
      r.markdown_detailed_etag,
      r.markdown_simple,
      r.markdown_simple_etag,
      r.full_document_json,
      r.full_document_etag,
    ],
  );
}

export interface NewVersion {
  uuid: string;
  diagram_uuid: string;
  author_user_id: string;
  source: 'create' | 'import' | 'apply';
  source_kind: string | null;
  source_id: string;
  /** An `editor` save: when its editing session began (its first save); null for other versions. */
  session_started_at?: Date | null;
}

/**
 * The version an earlier apply of the same proposal wrote to this diagram, if any (a retry after the
 * caller failed to record it). Unique by the partial index diagram_versions_proposal_source.
 */
export async function findProposalVersion(
  db: Queryable,
  diagramUuid: string,
  proposalId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ uuid: string }>(
    `SELECT uuid FROM diagrams.diagram_versions
      WHERE diagram_uuid = $1 AND source_kind = 'proposal' AND source_id = $2`,
    [diagramUuid, proposalId],
  );
  return rows[0]?.uuid ?? null;
}

/**
 * Writes a version of the document just saved by saveContents in the same transaction, stamped with the
 * diagram's (just written) updated_at. The document is copied inside PostgreSQL from the stored contents,
 * already parsed and compressed, rather than sent and parsed a second time.
 */
export async function insertVersion(client: PoolClient, version: NewVersion): Promise<void> {
  const { rowCount } = await client.query(
    `INSERT INTO diagrams.diagram_versions
       (uuid, diagram_uuid, author_user_id, source, source_kind, source_id, created_at, document,
        session_started_at)
     SELECT $1, $2, $3, $4, $5, $6, d.updated_at, c.document, coalesce($7, d.updated_at)
       FROM diagrams.diagrams d JOIN diagrams.diagram_contents c ON c.diagram_uuid = d.uuid
      WHERE d.uuid = $2`,
    [
      version.uuid,
      version.diagram_uuid,
      version.author_user_id,
      version.source,
      version.source_kind,
      version.source_id,
      version.session_started_at ?? null,
    ],
  );
  if (rowCount !== 1) throw new Error(`diagram ${version.diagram_uuid} has no saved contents to version`);
}

// ---- create replays -------------------------------------------------------------------------------

export interface ReplayRecord {
  diagram: DiagramRow;
  counts: unknown;
  warnings: unknown;
}

/**
 * The diagram of an identical earlier create that is still inside its window: not failed, and either
 * importing (window still open) or before its expiry. The newest one wins.
 */
export async function findReplay(db: Queryable, key: string, teamId: string): Promise<ReplayRecord | null> {
  const { rows } = await db.query<DiagramRow & { replay_counts: unknown; replay_warnings: unknown }>(
    `SELECT ${DIAGRAM_COLUMNS}, r.counts AS replay_counts, r.warnings AS replay_warnings
       FROM diagrams.create_replays r JOIN diagrams.diagrams d ON d.uuid = r.diagram_uuid
      WHERE r.key = $1 AND d.team_id = $2 AND d.status <> 'failed' AND d.deleted_at IS NULL
        AND (r.expires_at IS NULL OR r.expires_at > clock_timestamp())
      ORDER BY r.created_at DESC
      LIMIT 1`,
    [key, teamId],
  );
  const row = rows[0];
  if (!row) return null;
  const { replay_counts, replay_warnings, ...diagram } = row;
  return { diagram, counts: replay_counts, warnings: replay_warnings };
}

export async function insertReplay(
  client: PoolClient,
  record: {
    key: string;
    diagram_uuid: string;
    counts: unknown;
    warnings: unknown;
    windowSeconds: number | null;
  },
): Promise<void> {
  await client.query(
    `INSERT INTO diagrams.create_replays (key, diagram_uuid, counts, warnings, created_at, expires_at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, clock_timestamp(),
             CASE WHEN $5::int IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => $5::int) END)`,
    [
      record.key,
      record.diagram_uuid,
      record.counts === null ? null : JSON.stringify(record.counts),
      JSON.stringify(record.warnings),
      record.windowSeconds,
    ],
  );
}

/** Closes the replay window of a finished import: `windowSeconds` from now, with the create's counts. */
export async function closeReplayWindow(
  client: PoolClient,
  diagramUuid: string,
  record: { counts: unknown; warnings: unknown; windowSeconds: number },
): Promise<void> {
  await client.query(
    `UPDATE diagrams.create_replays
        SET counts = $2::jsonb, warnings = $3::jsonb,
            expires_at = clock_timestamp() + make_interval(secs => $4::int)
      WHERE diagram_uuid = $1`,
    [diagramUuid, JSON.stringify(record.counts), JSON.stringify(record.warnings), record.windowSeconds],
  );
}
