// Creating a diagram from a schema patch (ARCHITECTURE.md, "Create from a patch"): replay check, then
// normalise and validate the patch, check the plan caps, lay out the tables, and store the diagram, its
// first version, the replay record and the `diagrams.changed` event in one transaction.
//
// Replays (spec "Retry rules"): the key is a SHA-256 over the token id, name, driver and payload. Creates
// with one key are serialised by an advisory lock, so two identical requests at the same moment make one
// diagram. A failed create stores nothing, so it is never replayed.
import { createHash, randomUUID } from 'node:crypto';
import { enqueueEvent, ServiceError, withTransaction } from '@dss/platform';
import {
  apply,
  type DiagramDocument,
  type Driver,
  documentCounts,
  emptyDocument,
  normalize,
  type Patch,
  type PatchWarning,
  validate,
} from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import { lockReplayKey, lockTeamCaps, lockTeamListClockShared } from './locks';
import { buildRepresentations } from './representations';
import * as repo from './repository';
import {
  type Caller,
  diagramDriver,
  diagramName,
  invalidField,
  MAX_DDL_BYTES,
  MAX_SCHEMA_BYTES,
  slugOf,
} from './requests';
import { toDiagram } from './wire';

export const DIAGRAMS_CHANGED_SUBJECT = 'diagrams.changed';
/** Seconds a client waits between polls of an importing diagram. */
export const POLL_AFTER_SECONDS = 2;

export interface CreateDiagramInput {
  name: string;
  driver: string;
  ddl?: string;
  schema_json?: string;
}

export interface CreateContext {
  pool: Pool;
  appUrl: string;
  replayWindowSeconds: number;
}

export async function createDiagram(context: CreateContext, caller: Caller, input: CreateDiagramInput) {
  const name = diagramName(input.name);
  const driver = diagramDriver(input.driver);
  const hasDdl = input.ddl !== undefined && input.ddl !== null;
  const hasSchema = input.schema_json !== undefined && input.schema_json !== null;
  if (hasDdl === hasSchema) {
    throw new ServiceError('invalid_request', 'send exactly one of ddl and schema', {
      errors: [
        { path: 'ddl', message: 'exactly one of ddl and schema is required' },
        { path: 'schema', message: 'exactly one of ddl and schema is required' },
      ],
    });
  }
  if (hasDdl) {
    if (Buffer.byteLength(input.ddl!, 'utf8') > MAX_DDL_BYTES)
      throw new ServiceError('payload_too_large', `ddl must be at most ${MAX_DDL_BYTES} bytes`);
    throw new ServiceError('unavailable', 'DDL import is not available yet');
  }
  return createFromPatch(context, caller, { name, driver, schemaJson: input.schema_json! });
}

async function createFromPatch(
  context: CreateContext,
  caller: Caller,
  input: { name: string; driver: Driver; schemaJson: string },
) {
  if (Buffer.byteLength(input.schemaJson, 'utf8') > MAX_SCHEMA_BYTES)
    throw new ServiceError('payload_too_large', `schema must be at most ${MAX_SCHEMA_BYTES} bytes`);
  const key = replayKey(caller.tokenId, input.name, input.driver, 'schema', input.schemaJson);
  const answer = (record: repo.ReplayRecord) => replayAnswer(context, caller, record);

  // The common retry finds its diagram before any validation or layout work.
  const earlier = await repo.findReplay(context.pool, key, caller.teamId);
  if (earlier) return answer(earlier);

  const { patch, warnings } = validPatch(input.schemaJson, input.driver);
  checkTablesCap(caller, patch.tables.length);
  const document = apply(emptyDocument(input.driver), patch).document;
  const counts = documentCounts(document);

  return withTransaction(context.pool, async (client) => {
    await lockReplayKey(client, key);
    const concurrent = await repo.findReplay(client, key, caller.teamId);
    if (concurrent) return answer(concurrent);
    await lockTeamCaps(client, caller.teamId);
    await checkPrivateDiagramsCap(client, caller);
    const diagram = await storeNewDiagram(client, caller, { ...input, document });
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

function replayKey(...parts: string[]): string {
  const hash = createHash('sha256');
  // Length-prefixed, so no two different part lists hash the same text.
  for (const part of parts) hash.update(`${Buffer.byteLength(part, 'utf8')}:${part}\n`);
  return hash.digest('hex');
}

function replayAnswer(context: CreateContext, caller: Caller, record: repo.ReplayRecord) {
  return {
    diagram: toDiagram(record.diagram, context.appUrl, teamNames(caller)),
    counts_json: JSON.stringify(record.counts ?? null),
    warnings_json: JSON.stringify(record.warnings ?? []),
    replayed: true,
    poll_after_seconds: POLL_AFTER_SECONDS,
  };
}

function teamNames(caller: Caller) {
  return { team_slug: caller.teamSlug, team_name: caller.teamName };
}

function validPatch(schemaJson: string, driver: Driver): { patch: Patch; warnings: PatchWarning[] } {
  let input: unknown;
  try {
    input = JSON.parse(schemaJson);
  } catch {
    throw invalidField('schema', 'must be a JSON object');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalidField('schema', 'must be a JSON object');
  const normalized = normalize(input);
  const result = validate(normalized.patch, null, driver, 'create');
  if (!result.ok) throw validationError(result);
  return { patch: result.patch, warnings: normalized.warnings };
}

/** The spec's error for a patch that failed validation, with the extra members its code carries. */
export function validationError(result: Extract<ReturnType<typeof validate>, { ok: false }>): ServiceError {
  switch (result.code) {
    case 'unsupported_field':
      return new ServiceError('unsupported_field', result.message, { paths: result.paths ?? [] });
    case 'no_tables':
      return new ServiceError('no_tables', result.message);
    default:
      return new ServiceError('invalid_schema', result.message, { errors: result.problems });
  }
}

function checkTablesCap(caller: Caller, requested: number): void {
  const limit = caller.caps.maxTablesPerDiagram;
  if (limit !== null && requested > limit) {
    throw new ServiceError(
      'plan_limit',
      `the team's plan allows at most ${limit} tables per diagram; the patch defines ${requested}`,
      { limit_type: 'tables', limit, requested },
    );
  }
}

async function checkPrivateDiagramsCap(client: PoolClient, caller: Caller): Promise<void> {
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

async function storeNewDiagram(
  client: PoolClient,
  caller: Caller,
  input: { name: string; driver: Driver; document: DiagramDocument },
): Promise<repo.DiagramRow> {
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
    source_kind: 'api',
    source_id: caller.tokenId,
    document: input.document,
  });
  await repo.setCurrentVersion(client, uuid, versionUuid);
  await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_CHANGED_SUBJECT, {
    diagram_uuid: uuid,
    team_id: caller.teamId,
    version_uuid: versionUuid,
    source: 'create',
    updated_at: diagram.updated_at.toISOString(),
  });
  return { ...diagram, current_version_uuid: versionUuid };
}
