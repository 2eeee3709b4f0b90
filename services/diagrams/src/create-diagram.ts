// Creating a diagram from a schema patch (ARCHITECTURE.md, "Create from a patch"): replay check, then
// normalise and validate the patch, check the plan caps, lay out the tables, and store the diagram, its
// first version, the replay record and the `diagrams.changed` event in one transaction.
//
// Replays (spec "Retry rules"): the key is a SHA-256 over the token id, name, driver and payload. Creates
// with one key are serialised by an advisory lock, so two identical requests at the same moment make one
// diagram. A failed create stores nothing, so it is never replayed.
import { createHash, randomUUID } from 'node:crypto';
import {
  enqueueEvent,
  ensureWithinBytes,
  invalidField,
  isUuid,
  ServiceError,
  withTransaction,
} from '@dss/platform';
import {
  type DiagramDocument,
  type Driver,
  ddlNestingProblem,
  documentCounts,
  emptyDocument,
  normalize,
  type NormalizedPatch,
  type PatchWarning,
  type validate,
  MAX_DDL_BYTES,
  MAX_SCHEMA_BYTES,
} from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import type { CreateLayouts } from './create-layout';
import { lockReplayKey, lockTeamCaps, lockTeamListClockShared } from './locks';
import type { ImportWaiters } from './import-waiters';
import { buildRepresentations } from './representations';
import { auditDiagramAction } from './audit';
import * as repo from './repository';
import { type Caller, diagramDriver, diagramName, diagramNotFound, slugOf } from './requests';
import { toDiagram } from './wire';

export const DIAGRAMS_CHANGED_SUBJECT = 'diagrams.changed';
export const IMPORT_FINISHED_SUBJECT = 'diagrams.import.finished';
export const IMPORTER_JOBS_SUBJECT = 'importer.jobs';
/** The longest a create waits for its import, whatever wait_ms asks. */
export const MAX_IMPORT_WAIT_MS = 30_000;
/**
 * How often a waiting create re-reads its diagram when no "import finished" event woke it (the bus is
 * down or slow); with the bus up the event wakes it within milliseconds of the commit.
 */
const IMPORT_RECHECK_MS = 250;
/** Seconds a client waits between polls of an importing diagram. */
export const POLL_AFTER_SECONDS = 2;

export interface CreateDiagramInput {
  name: string;
  driver: string;
  ddl?: string;
  schema_json?: string;
  dbml?: string;
  wait_ms?: number;
  empty?: boolean;
}

export interface CreateContext {
  pool: Pool;
  appUrl: string;
  replayWindowSeconds: number;
  importWaiters: ImportWaiters;
  /** Where a create from a JSON schema is validated and laid out (a worker thread for a large schema). */
  layouts: CreateLayouts;
}

export async function createDiagram(context: CreateContext, caller: Caller, input: CreateDiagramInput) {
  const name = diagramName(input.name);
  const driver = diagramDriver(input.driver);
  const hasDdl = input.ddl !== undefined && input.ddl !== null;
  const hasSchema = input.schema_json !== undefined && input.schema_json !== null;
  const hasDbml = input.dbml !== undefined && input.dbml !== null;
  if (input.empty === true) {
    if (hasDdl || hasSchema || hasDbml)
      throw new ServiceError('invalid_request', 'an empty diagram is created without ddl, schema or dbml');
    return createEmpty(context, caller, { name, driver });
  }
  if (Number(hasDdl) + Number(hasSchema) + Number(hasDbml) !== 1) {
    const message = 'exactly one of ddl, schema and dbml is required';
    throw new ServiceError('invalid_request', 'send exactly one of ddl, schema and dbml', {
      errors: [
        { path: 'ddl', message },
        { path: 'schema', message },
        { path: 'dbml', message },
      ],
    });
  }
  if (hasDdl || hasDbml) {
    const field = hasDdl ? 'ddl' : 'dbml';
    const text = (hasDdl ? input.ddl : input.dbml) as string;
    ensureWithinBytes(field, text, MAX_DDL_BYTES);
    const nesting = hasDdl ? ddlNestingProblem(text) : null;
    if (nesting)
      throw new ServiceError('invalid_request', `ddl ${nesting.message}`, {
        errors: [{ path: 'ddl', message: nesting.message }],
      });
    return createFromDdl(context, caller, {
      name,
      driver,
      ddl: text,
      format: hasDdl ? 'sql' : 'dbml',
      waitMs: input.wait_ms ?? 0,
    });
  }
  return createFromPatch(context, caller, { name, driver, schemaJson: input.schema_json! });
}

/** The job an importer consumes from `importer.jobs`. */
export interface ImportJob {
  job_id: string;
  diagram_uuid: string;
  driver: Driver;
  ddl: string;
  /** `dbml` for a DBML create; absent for DDL. */
  format?: 'dbml';
}

/**
 * A DDL create (ARCHITECTURE.md, "Create from DDL"): stores the diagram as `importing` with a replay
 * record whose window stays open while it imports and the importer job (outbox), in one transaction;
 * then waits up to `waitMs` for the import to finish (woken by its event, re-reading the diagram) and
 * answers the diagram as it then is.
 */
async function createFromDdl(
  context: CreateContext,
  caller: Caller,
  input: { name: string; driver: Driver; ddl: string; format: 'sql' | 'dbml'; waitMs: number },
) {
  const key = replayKey(
    replayOwner(caller),
    input.name,
    input.driver,
    input.format === 'dbml' ? 'dbml' : 'ddl',
    input.ddl,
  );
  const earlier = await repo.findReplay(context.pool, key, caller.teamId);
  if (earlier) return replayAnswer(context, caller, earlier);

  const created = await withTransaction(context.pool, async (client) => {
    await lockReplayKey(client, key);
    const concurrent = await repo.findReplay(client, key, caller.teamId);
    if (concurrent) return { diagram: concurrent.diagram, replay: concurrent };
    await lockTeamCaps(client, caller.teamId);
    await checkPrivateDiagramsCap(client, caller);
    const uuid = randomUUID();
    const jobId = randomUUID();
    await lockTeamListClockShared(client, caller.teamId);
    const diagram = await repo.insertDiagram(client, {
      uuid,
      team_id: caller.teamId,
      team_slug: caller.teamSlug,
      team_name: caller.teamName,
      name: input.name,
      slug: slugOf(input.name),
      driver: input.driver,
      status: 'importing',
      table_count: null,
      created_by: caller.userId,
      import_job_id: jobId,
      import_max_tables: caller.caps.maxTablesPerDiagram,
    });
    await repo.insertReplay(client, {
      key,
      diagram_uuid: uuid,
      counts: null,
      warnings: [],
      windowSeconds: null,
    });
    const job: ImportJob = {
      job_id: jobId,
      diagram_uuid: uuid,
      driver: input.driver,
      ddl: input.ddl,
      ...(input.format === 'dbml' ? { format: 'dbml' as const } : {}),
    };
    await enqueueEvent(client, repo.SCHEMA, IMPORTER_JOBS_SUBJECT, job);
    await auditDiagramAction(
      client,
      caller,
      'diagram.created',
      { id: uuid, name: input.name },
      {
        from: input.format === 'dbml' ? 'dbml' : 'ddl',
        driver: input.driver,
      },
    );
    return { diagram, replay: null };
  });
  if (created.replay) return replayAnswer(context, caller, created.replay);

  const deadline = Date.now() + Math.min(Math.max(input.waitMs, 0), MAX_IMPORT_WAIT_MS);
  const watch = context.importWaiters.watch(created.diagram.uuid);
  let current: Awaited<ReturnType<typeof repo.findCreated>>;
  try {
    current = await repo.findCreated(context.pool, created.diagram.uuid);
    while (current?.diagram.status === 'importing' && Date.now() < deadline) {
      await watch.wait(Math.min(IMPORT_RECHECK_MS, deadline - Date.now()));
      current = await repo.findCreated(context.pool, created.diagram.uuid);
    }
  } finally {
    watch.close();
  }
  const diagram = current?.diagram ?? created.diagram;
  return {
    diagram: toDiagram(diagram, context.appUrl, teamNames(caller)),
    counts_json: JSON.stringify(createCounts(diagram, current?.counts)),
    warnings_json: JSON.stringify(current?.warnings ?? []),
    replayed: false,
    poll_after_seconds: POLL_AFTER_SECONDS,
  };
}

/** The counts of a create answer: always an object; zeros while a diagram imports or after it failed. */
function createCounts(diagram: repo.DiagramRow, counts: unknown) {
  if (counts !== null && counts !== undefined && typeof counts === 'object') return counts;
  return documentCounts(emptyDocument(diagram.driver as Driver));
}

/** Warnings kept per diagram (the importer sends at most this many; the total counts them all). */
const MAX_IMPORT_WARNINGS = 100;

export interface CompleteImportInput {
  diagram_uuid: string;
  job_id: string;
  document_json?: string | null;
  error?: { code: string; message: string } | null;
  /** With a document: what the conversion skipped or changed (the total and at most 100 items). */
  warnings?: repo.ImportWarningsRecord | null;
}

/**
 * The importer's report of a job. Only an importing diagram with that job id changes, so a repeated or
 * stale report answers the diagram unchanged. Success stores the document as a create does (contents,
 * representations, a version with source `import`); failure stores `failed` and the error. Either way
 * the replay window starts, and `diagrams.import.finished` and `diagrams.changed` go out via the outbox.
 */
export async function completeImport(context: CreateContext, input: CompleteImportInput) {
  if (!isUuid(input.diagram_uuid)) throw diagramNotFound();
  const hasDocument = input.document_json !== undefined && input.document_json !== null;
  if (hasDocument === (input.error !== undefined && input.error !== null))
    throw new ServiceError('invalid_request', 'send exactly one of document_json and error');
  const document = hasDocument ? importedDocument(input.document_json!) : null;

  return withTransaction(context.pool, async (client) => {
    const current = await repo.findImportForUpdate(client, input.diagram_uuid.toLowerCase());
    if (!current) throw diagramNotFound();
    if (current.status !== 'importing' || current.import_job_id !== input.job_id.toLowerCase())
      return toDiagram(current, context.appUrl);

    await lockTeamListClockShared(client, current.team_id);
    let diagram: repo.DiagramRow;
    let versionUuid: string | null = null;
    let failure = document
      ? null
      : { code: input.error!.code || 'import_failed', message: input.error!.message };
    const limit = current.import_max_tables;
    if (document && limit !== null && document.tables.length > limit)
      failure = {
        code: 'plan_limit',
        message: `the team's plan allows at most ${limit} tables per diagram; the DDL defines ${document.tables.length}`,
      };
    if (document && !failure) {
      versionUuid = randomUUID();
      diagram = await repo.finishImport(client, current.uuid, {
        status: 'ready',
        table_count: document.tables.length,
        current_version_uuid: versionUuid,
        error_code: null,
        error_message: null,
        import_warnings: importWarnings(input.warnings),
      });
      await repo.saveContents(client, current.uuid, document, buildRepresentations(document));
      await repo.insertVersion(client, {
        uuid: versionUuid,
        diagram_uuid: current.uuid,
        author_user_id: current.created_by,
        source: 'import',
        source_kind: 'import',
        source_id: input.job_id.toLowerCase(),
      });
    } else {
      diagram = await repo.finishImport(client, current.uuid, {
        status: 'failed',
        table_count: null,
        current_version_uuid: null,
        error_code: failure!.code,
        error_message: failure!.message,
        import_warnings: null,
      });
    }
    await repo.closeReplayWindow(client, current.uuid, {
      counts: document && !failure ? documentCounts(document) : null,
      warnings: [],
      windowSeconds: context.replayWindowSeconds,
    });
    const event = {
      diagram_uuid: current.uuid,
      team_id: current.team_id,
      job_id: input.job_id.toLowerCase(),
      status: diagram.status,
      updated_at: diagram.updated_at.toISOString(),
    };
    await enqueueEvent(client, repo.SCHEMA, IMPORT_FINISHED_SUBJECT, event);
    await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_CHANGED_SUBJECT, {
      diagram_uuid: current.uuid,
      team_id: current.team_id,
      ...(versionUuid ? { version_uuid: versionUuid } : {}),
      source: 'import',
      updated_at: event.updated_at,
    });
    return toDiagram(diagram, context.appUrl);
  });
}

/** The warnings to store: at most 100 items of the expected shape (texts bounded), and the total. */
function importWarnings(warnings: repo.ImportWarningsRecord | null | undefined): repo.ImportWarningsRecord {
  const items = (warnings?.items ?? []).slice(0, MAX_IMPORT_WARNINGS).map((item) => ({
    line: Math.max(0, Math.trunc(Number(item.line) || 0)),
    column: Math.max(0, Math.trunc(Number(item.column) || 0)),
    code: String(item.code ?? '').slice(0, 64),
    message: String(item.message ?? '').slice(0, 1000),
    statement: String(item.statement ?? '').slice(0, 400),
  }));
  return { total: Math.max(items.length, Math.trunc(Number(warnings?.total) || 0)), items };
}

function importedDocument(documentJson: string): DiagramDocument {
  let document: unknown;
  try {
    document = JSON.parse(documentJson);
  } catch {
    throw invalidField('document_json', 'must be the JSON text of a document');
  }
  const candidate = document as Partial<DiagramDocument> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    !Array.isArray(candidate.tables) ||
    !Array.isArray(candidate.relationships)
  )
    throw invalidField('document_json', 'must be a diagram document');
  return candidate as DiagramDocument;
}

async function createFromPatch(
  context: CreateContext,
  caller: Caller,
  input: { name: string; driver: Driver; schemaJson: string },
) {
  ensureWithinBytes('schema', input.schemaJson, MAX_SCHEMA_BYTES);
  // A person in the web app holds no token: their creates are not replayed (a replay key without a
  // token would join different people's creates).
  const fromWeb = caller.tokenId === '';
  const key = replayKey(caller.tokenId, input.name, input.driver, 'schema', input.schemaJson);
  const answer = (record: repo.ReplayRecord) => replayAnswer(context, caller, record);

  // The common retry finds its diagram before any validation or layout work.
  const earlier = fromWeb ? null : await repo.findReplay(context.pool, key, caller.teamId);
  if (earlier) return answer(earlier);

  const { patch, warnings } = normalizedPatch(input.schemaJson);
  // Laid out as an import is (a create carries no positions): for a large schema, room for its lines where
  // they crowd (the importer's conversion workers run the same step).
  const laidOut = await context.layouts.run(input.driver, patch);
  if (!laidOut.ok) throw validationError(laidOut);
  checkTablesCap(caller, laidOut.tables);
  const document = JSON.parse(laidOut.document_json) as DiagramDocument;
  const counts = documentCounts(document);

  return withTransaction(context.pool, async (client) => {
    if (!fromWeb) {
      await lockReplayKey(client, key);
      const concurrent = await repo.findReplay(client, key, caller.teamId);
      if (concurrent) return answer(concurrent);
    }
    await lockTeamCaps(client, caller.teamId);
    await checkPrivateDiagramsCap(client, caller);
    const diagram = await storeNewDiagram(client, caller, { ...input, document });
    if (!fromWeb)
      await repo.insertReplay(client, {
        key,
        diagram_uuid: diagram.uuid,
        counts,
        warnings,
        windowSeconds: context.replayWindowSeconds,
      });
    return {
      diagram: toDiagram(diagram, context.appUrl, teamNames(caller)),
      counts_json: JSON.stringify(counts),
      warnings_json: JSON.stringify(warnings),
      replayed: false,
      poll_after_seconds: POLL_AFTER_SECONDS,
    };
  });
}

/**
 * An empty diagram, ready at once (the web app's "New diagram" with an empty start). No replay record:
 * the web's create is a form post, and two of them are two diagrams, as two clicks of "New" are.
 */
async function createEmpty(context: CreateContext, caller: Caller, input: { name: string; driver: Driver }) {
  const document = emptyDocument(input.driver);
  return withTransaction(context.pool, async (client) => {
    await lockTeamCaps(client, caller.teamId);
    await checkPrivateDiagramsCap(client, caller);
    const diagram = await storeNewDiagram(client, caller, { ...input, document });
    return {
      diagram: toDiagram(diagram, context.appUrl, teamNames(caller)),
      counts_json: JSON.stringify(documentCounts(document)),
      warnings_json: '[]',
      replayed: false,
      poll_after_seconds: POLL_AFTER_SECONDS,
    };
  });
}

function replayKey(...parts: string[]): string {
  const hash = createHash('sha256');
  // Length-prefixed, so no two different part lists hash the same text.
  for (const part of parts) hash.update(`${Buffer.byteLength(part, 'utf8')}:${part}\n`);
  return hash.digest('hex');
}

/**
 * Whose creates may replay each other: the token's; a person in the web app (no token) only their own,
 * so a form sent twice makes one import.
 */
function replayOwner(caller: Caller): string {
  return caller.tokenId === '' ? `web:${caller.userId}` : caller.tokenId;
}

function replayAnswer(context: CreateContext, caller: Caller, record: repo.ReplayRecord) {
  return {
    diagram: toDiagram(record.diagram, context.appUrl, teamNames(caller)),
    counts_json: JSON.stringify(createCounts(record.diagram, record.counts)),
    warnings_json: JSON.stringify(record.warnings ?? []),
    replayed: true,
    poll_after_seconds: POLL_AFTER_SECONDS,
  };
}

function teamNames(caller: Caller) {
  return { team_slug: caller.teamSlug, team_name: caller.teamName };
}

/** The create's schema, parsed and normalized; `validate` runs with the layout (create-layout.ts). */
function normalizedPatch(schemaJson: string): { patch: NormalizedPatch; warnings: PatchWarning[] } {
  let input: unknown;
  try {
    input = JSON.parse(schemaJson);
  } catch {
    throw invalidField('schema', 'must be a JSON object');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalidField('schema', 'must be a JSON object');
  return normalize(input);
}

/** The spec's error for a patch that failed validation, with the extra members its code carries. */
export function validationError(result: Extract<ReturnType<typeof validate>, { ok: false }>): ServiceError {
  switch (result.code) {
    case 'unsupported_field':
      return new ServiceError('unsupported_field', result.message, {
        paths: result.paths ?? [],
        errors: result.problems,
      });
    case 'no_tables':
      return new ServiceError('no_tables', result.message);
    default:
      return new ServiceError('invalid_schema', result.message, { errors: result.problems });
  }
}

export function checkTablesCap(caller: Caller, requested: number): void {
  const limit = caller.caps.maxTablesPerDiagram;
  if (limit !== null && requested > limit) {
    throw new ServiceError(
      'plan_limit',
      `the team's plan allows at most ${limit} tables per diagram; the patch defines ${requested}`,
      { limit_type: 'tables', limit, requested },
    );
  }
}

export async function checkPrivateDiagramsCap(client: PoolClient, caller: Caller): Promise<void> {
  const limit = caller.caps.maxPrivateDiagrams;
  if (limit === null) return;
  if ((await repo.countTeamDiagrams(client, caller.teamId)) >= limit) {
    throw new ServiceError(
      'plan_limit',
      `the team's plan allows at most ${limit} private diagrams, and the team has reached that`,
      { limit_type: 'private_diagrams', limit },
    );
  }
}

/**
 * Stores a new ready diagram with its first version and `diagrams.changed`. The version's origin: the
 * token of an API create (kind `api`), the web app (kind `web`, no token) or the diagram duplicated.
 */
export async function storeNewDiagram(
  client: PoolClient,
  caller: Caller,
  input: {
    name: string;
    driver: Driver;
    document: DiagramDocument;
    description?: string | null;
    origin?: { kind: string; id: string };
  },
): Promise<repo.DiagramRow> {
  const origin =
    input.origin ?? (caller.tokenId === '' ? { kind: 'web', id: '' } : { kind: 'api', id: caller.tokenId });
  const uuid = randomUUID();
  const versionUuid = randomUUID();
  await lockTeamListClockShared(client, caller.teamId);
  const diagram = await repo.insertDiagram(client, {
    uuid,
    team_id: caller.teamId,
    team_slug: caller.teamSlug,
    team_name: caller.teamName,
    name: input.name,
    slug: slugOf(input.name),
    description: input.description ?? null,
    driver: input.driver,
    status: 'ready',
    table_count: input.document.tables.length,
    created_by: caller.userId,
  });
  await repo.saveContents(client, uuid, input.document, buildRepresentations(input.document));
  await repo.insertVersion(client, {
    uuid: versionUuid,
    diagram_uuid: uuid,
    author_user_id: caller.userId,
    source: 'create',
    source_kind: origin.kind,
    source_id: origin.id,
  });
  await repo.setCurrentVersion(client, uuid, versionUuid);
  await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_CHANGED_SUBJECT, {
    diagram_uuid: uuid,
    team_id: caller.teamId,
    version_uuid: versionUuid,
    source: 'create',
    updated_at: diagram.updated_at.toISOString(),
  });
  if (origin.kind === 'duplicate')
    await auditDiagramAction(
      client,
      caller,
      'diagram.duplicated',
      { id: uuid, name: input.name },
      {
        source_uuid: origin.id,
      },
    );
  else
    await auditDiagramAction(
      client,
      caller,
      'diagram.created',
      { id: uuid, name: input.name },
      {
        driver: input.driver,
        tables: input.document.tables.length,
      },
    );
  return { ...diagram, current_version_uuid: versionUuid };
}
