// Applying a stored patch to a diagram as it is now (proposal review): under the diagram's row lock the
// patch is validated again against the current document (it was validated against the document of its
// time, which may have changed since), applied, and stored as a new version with fresh representations
// and a `diagrams.changed` event, all in one transaction. Applying a proposal is idempotent: the caller
// records the version in its own transaction, so a retry after that failed gets the version already
// written instead of a second one.
//
// Editor saves (source `editor`): a save made on an older version than the current one is rebased onto
// it when the two touch different entities (@dss/schema's rebasePatch), else refused with `conflict` naming
// the entities.
// Consecutive saves of one person make one editing session: while the newest version is that person's
// `editor` version whose session began less than SESSION_MINUTES ago, a save amends it (README, "Editing
// sessions") instead of adding a version per edit.
import { randomUUID } from 'node:crypto';
import { enqueueEvent, invalidField, isUuid, ServiceError, withTransaction } from '@dss/platform';
import {
  apply,
  applyCanvasColors,
  applyColumnOrder,
  type DiagramDocument,
  type Driver,
  normalize,
  parseCanvasColors,
  parseColumnOrder,
  type RebaseConflict,
  rebaseConflictMessage,
  rebasePatch,
  validate,
} from '@dss/schema';
import type { Pool } from 'pg';
import { DIAGRAMS_CHANGED_SUBJECT, validationError } from './create-diagram';
import * as life from './lifecycle-repository';
import { lockTeamListClockShared } from './locks';
import { buildRepresentations } from './representations';
import { auditDiagramAction } from './audit';
import * as repo from './repository';
import { diagramNotFound } from './requests';
import { toDiagram } from './wire';

export interface ApplyPatchInput {
  diagram_uuid: string;
  team_id: string;
  user_id: string;
  patch_json: string;
  source: string;
  source_id: string;
  base_version_uuid?: string;
  note_positions_json?: string;
  colors_json?: string;
  column_order_json?: string;
  max_tables_per_diagram?: number | null;
}

const SOURCE_KIND = /^[a-z][a-z_]{0,31}$/;
const PROPOSAL = 'proposal';
const EDITOR = 'editor';
/** An editing session amends its version for this long after the session's first save. */
export const SESSION_MINUTES = 10;

export async function applyStoredPatch(context: { pool: Pool; appUrl: string }, input: ApplyPatchInput) {
  if (!isUuid(input.team_id)) throw invalidField('team_id', 'must be a UUID');
  if (!isUuid(input.user_id)) throw invalidField('user_id', 'must be a UUID');
  const sourceKind = input.source === '' ? 'api' : input.source;
  if (!SOURCE_KIND.test(sourceKind)) throw invalidField('source', 'must be a short lowercase word');
  if (input.source_id.length > 200) throw invalidField('source_id', 'must be at most 200 characters');
  if (sourceKind === PROPOSAL && input.source_id === '')
    throw invalidField('source_id', 'must name the proposal');
  if (!isUuid(input.diagram_uuid)) throw diagramNotFound();
  const patchInput = parsePatch(input.patch_json);
  const notePositions = parseNotePositions(input.note_positions_json ?? '');
  const colors = parseBeside(input.colors_json ?? '', 'colors', parseCanvasColors);
  const columnOrder = parseBeside(input.column_order_json ?? '', 'column_order', parseColumnOrder);
  const teamId = input.team_id.toLowerCase();

  return withTransaction(context.pool, async (client) => {
    const current = await repo.findDiagramForUpdate(client, teamId, input.diagram_uuid.toLowerCase());
    if (!current) throw diagramNotFound();
    if (sourceKind === PROPOSAL) {
      const earlier = await repo.findProposalVersion(client, current.uuid, input.source_id);
      if (earlier !== null) return { version_uuid: earlier, diagram: toDiagram(current, context.appUrl) };
    }
    const base = input.base_version_uuid?.toLowerCase() ?? '';
    const stale = base !== '' && base !== current.current_version_uuid;
    if (stale && sourceKind !== EDITOR)
      throw new ServiceError(
        'conflict',
        'the diagram has changed since this patch was previewed; preview it again against the diagram as it is now',
      );
    if (current.status !== 'ready' || current.document === null)
      throw new ServiceError(
        'diagram_not_ready',
        'the diagram has no schema yet (it is importing or failed)',
      );
    const driver = current.driver as Driver;
    const normalized = normalize(patchInput);
    if (stale) {
      const baseText = isUuid(base) ? await life.findVersionDocumentByUuid(client, current.uuid, base) : null;
      if (baseText === null) throw invalidField('base_version_uuid', 'is not a version of this diagram');
      const baseDocument = JSON.parse(baseText) as DiagramDocument;
      // The edit was made (and checked) on its base; rebasePatch decides whether it means the same here.
      const onBase = validate(normalized.patch, baseDocument, driver, 'propose');
      if (!onBase.ok) throw validationError(onBase);
      const rebased = rebasePatch(onBase.patch, baseDocument, current.document);
      if (!rebased.ok) throw rebaseConflict(rebased.conflicts);
    }
    const result = validate(normalized.patch, current.document, driver, 'propose');
    if (!result.ok) throw validationError(result);
    const document = apply(current.document, result.patch).document;
    const maxTables = input.max_tables_per_diagram ?? null;
    // A diagram already past the cap (the plan changed) may still be edited, as long as it does not grow.
    if (maxTables !== null && document.tables.length > Math.max(maxTables, current.document.tables.length))
      throw new ServiceError(
        'plan_limit',
        `the team's plan allows at most ${maxTables} tables per diagram; the change makes ${document.tables.length}`,
        { limit_type: 'tables', limit: maxTables, requested: document.tables.length },
      );
    for (const [uuid, [left, top]] of notePositions) {
      const note = document.sticky_notes.find((entry) => entry.uuid === uuid);
      if (!note) throw invalidField('note_positions_json', `the diagram has no sticky note ${uuid}`);
      note.left = left;
      note.top = top;
    }
    // On a rebased save a name is the one the edit was made with: someone renamed or removed it since.
    const colored = applyCanvasColors(document, colors);
    if (!colored.ok)
      throw besideRefusal(stale, colored, `${colored.message} any more: it changed after the edit was made`);
    const ordered = applyColumnOrder(colored.value, columnOrder);
    if (!ordered.ok)
      throw besideRefusal(
        stale,
        ordered,
        `column_order: ${ordered.message}; the table changed after the edit was made`,
      );
    Object.assign(document, { tables: ordered.value.tables, groups: ordered.value.groups });

    const versionUuid = randomUUID();
    const userId = input.user_id.toLowerCase();
    const session =
      sourceKind === EDITOR && current.current_version_uuid !== null
        ? await life.findOpenSession(client, current.current_version_uuid, userId, SESSION_MINUTES)
        : null;
    await lockTeamListClockShared(client, teamId);
    const diagram = await repo.touchDiagram(client, current.uuid, {
      table_count: document.tables.length,
      current_version_uuid: versionUuid,
    });
    await repo.saveContents(client, current.uuid, document, buildRepresentations(document));
    await repo.insertVersion(client, {
      uuid: versionUuid,
      diagram_uuid: current.uuid,
      author_user_id: userId,
      source: 'apply',
      source_kind: sourceKind,
      source_id: input.source_id,
      session_started_at: session?.session_started_at ?? null,
    });
    if (session) await life.supersedeVersion(client, session.uuid, versionUuid);
    const versionNumber = await life.countVisibleVersions(client, current.uuid);
    // One entry per editing session (its first save), like the one History entry the session makes.
    if (sourceKind === EDITOR && !session)
      await auditDiagramAction(
        client,
        { tokenId: '', userId, teamId },
        'editor_session.started',
        { id: current.uuid, name: current.name },
        { version: versionNumber, session_minutes: SESSION_MINUTES },
      );
    await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_CHANGED_SUBJECT, {
      diagram_uuid: current.uuid,
      team_id: teamId,
      version_uuid: versionUuid,
      source: 'apply',
      source_kind: sourceKind,
      user_id: userId,
      version_number: versionNumber,
      ...(session ? { amends_version_uuid: session.uuid } : {}),
      updated_at: diagram.updated_at.toISOString(),
    });
    return {
      version_uuid: versionUuid,
      diagram: toDiagram(diagram, context.appUrl),
      version_number: versionNumber,
      rebased: stale,
    };
  });
}

/**
 * `conflict` naming the entities: the message lists the reasons, `errors` one entry per entity with a path
 * such as `tables.orders.columns.email` (the entity as the save's base names it).
 */
function rebaseConflict(conflicts: RebaseConflict[]): ServiceError {
  return new ServiceError('conflict', rebaseConflictMessage(conflicts), {
    errors: conflicts.map((conflict) => ({ path: conflictPath(conflict), message: conflict.reason })),
  });
}

function conflictPath(conflict: RebaseConflict): string {
  const table = conflict.table === undefined ? [] : ['tables', conflict.table];
  switch (conflict.entity) {
    case 'table':
      return table.join('.');
    case 'column':
      return [...table, 'columns', conflict.column ?? ''].join('.');
    case 'index':
      return [...table, 'indexes', conflict.name ?? ''].join('.');
    case 'relationship':
      return ['relationships', conflict.name ?? ''].join('.');
    case 'group':
      return ['groups', conflict.name ?? ''].join('.');
    default:
      return ['sticky_notes', conflict.name ?? ''].join('.');
  }
}

/**
 * What travels beside the patch (colours, column order), refused where it names what the diagram lacks:
 * `conflict` on a rebased save (the diagram changed after the edit), else `invalid_request` at its path.
 */
function besideRefusal(stale: boolean, refusal: { path: string; message: string }, conflictMessage: string) {
  if (!stale) return invalidField(refusal.path, refusal.message);
  return new ServiceError('conflict', conflictMessage, {
    errors: [{ path: refusal.path, message: refusal.message }],
  });
}

/**
 * A JSON field beside the patch (`colors_json`, `column_order_json`) read by its parser; empty text is none.
 * Not JSON is refused at `field`, a parser's refusal at its own path.
 */
function parseBeside<T>(
  text: string,
  field: string,
  parse: (value: unknown) => { ok: true; value: T } | { ok: false; path: string; message: string },
): T | undefined {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidField(field, 'must be a JSON object');
  }
  const parsed = parse(value);
  if (!parsed.ok) throw invalidField(parsed.path, parsed.message);
  return parsed.value;
}

/** `{"<uuid>": [left, top]}` as whole, non-negative positions; empty text is none. */
function parseNotePositions(text: string): Map<string, [number, number]> {
  const positions = new Map<string, [number, number]>();
  if (text === '') return positions;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidField('note_positions_json', 'must be a JSON object');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidField('note_positions_json', 'must be a JSON object');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 5000) throw invalidField('note_positions_json', 'must hold at most 5,000 notes');
  for (const [uuid, position] of entries) {
    if (!isUuid(uuid) || !Array.isArray(position) || position.length !== 2)
      throw invalidField('note_positions_json', 'must map note uuids to [left, top]');
    const [left, top] = position.map((n) => Math.round(Number(n)));
    if (!Number.isFinite(left) || !Number.isFinite(top) || Math.abs(left!) > 1e7 || Math.abs(top!) > 1e7)
      throw invalidField('note_positions_json', 'positions must be numbers');
    positions.set(uuid.toLowerCase(), [Math.max(0, left!), Math.max(0, top!)]);
  }
  return positions;
}

function parsePatch(patchJson: string): unknown {
  try {
    return JSON.parse(patchJson);
  } catch {
    throw invalidField('patch_json', 'must be the JSON text of a patch');
  }
}
