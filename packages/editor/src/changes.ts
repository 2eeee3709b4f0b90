// The patch that turns one diagram document into another: how the editor writes the inverse of an edit
// (undo) and the one patch a save sends (the saved document → the document on screen). Records are
// matched by uuid; the patch names them by name, as every patch does, so it applies to any copy of the
// document whose names agree (the server's copy has other uuids for records the editor created).
//
// Table and group colours and column order, which the patch format cannot say (it has no colour, and a
// merge only appends columns), travel beside it in `colors` and `column_order` (applied by @dss/schema's
// applyCanvasColors and applyColumnOrder, here and in the diagrams service). What none can say is left
// out: relationship names and referential actions.
import {
  applyCanvasColors,
  applyColumnOrder,
  type CanvasColors,
  type ColumnOrder,
  canvasColorsBetween,
  columnOrderBetween,
  isEmptyCanvasColors,
  type Column,
  type DiagramDocument,
  type DocumentTable,
  type Index,
  parseCanvasColors,
  parseColumnOrder,
  type Relationship,
  writtenType,
} from '@dss/schema';

export interface EditPatch {
  strategy: 'merge';
  tables?: Record<string, unknown>[];
  relationships?: Record<string, unknown>[];
  groups?: Record<string, unknown>[];
  sticky_notes?: Record<string, unknown>[];
  deletions?: {
    tables?: string[];
    columns?: { table: string; columns: string[] }[];
    indexes?: { table: string; indexes: string[] }[];
    relationships?: Record<string, string>[];
    groups?: { name: string; delete_children: boolean }[];
    sticky_notes?: string[];
  };
  /** Colours of tables and groups (named as after the patch), sent beside the patch. */
  colors?: CanvasColors;
  /** Tables whose columns were reordered: every column name in order (names as after the patch). */
  column_order?: ColumnOrder;
}

/** The patch the engine reads, and what travels beside it. */
export function splitPatch(patch: EditPatch): {
  schemaPatch: Omit<EditPatch, 'colors' | 'column_order'>;
  beside: Pick<EditPatch, 'colors' | 'column_order'>;
} {
  const { colors, column_order, ...schemaPatch } = patch;
  return {
    schemaPatch,
    beside: { ...(colors ? { colors } : {}), ...(column_order ? { column_order } : {}) },
  };
}

/**
 * Applies what travels beside a patch (after the patch itself), as the diagrams service does: untrusted
 * input is checked, and a refusal names its place and changes nothing.
 */
export function applyBeside(
  document: DiagramDocument,
  beside: Pick<EditPatch, 'colors' | 'column_order'>,
): { ok: true; document: DiagramDocument } | { ok: false; path: string; message: string } {
  let next = document;
  if (beside.colors !== undefined) {
    const parsed = parseCanvasColors(beside.colors);
    if (!parsed.ok) return parsed;
    const colored = applyCanvasColors(next, parsed.value);
    if (!colored.ok) return colored;
    next = colored.value;
  }
  if (beside.column_order !== undefined) {
    const parsed = parseColumnOrder(beside.column_order);
    if (!parsed.ok) return parsed;
    const ordered = applyColumnOrder(next, parsed.value);
    if (!ordered.ok) return ordered;
    next = ordered.value;
  }
  return { ok: true, document: next };
}

/** A patch that changes nothing: no tables, relationships, groups, notes, deletions or colours. */
export function isEmptyPatch(patch: EditPatch): boolean {
  const d = patch.deletions ?? {};
  return (
    isEmptyCanvasColors(patch.colors) &&
    Object.keys(patch.column_order ?? {}).length === 0 &&
    !patch.tables?.length &&
    !patch.relationships?.length &&
    !patch.groups?.length &&
    !patch.sticky_notes?.length &&
    !d.tables?.length &&
    !d.columns?.length &&
    !d.indexes?.length &&
    !d.relationships?.length &&
    !d.groups?.length &&
    !d.sticky_notes?.length
  );
}

export function patchBetween(from: DiagramDocument, to: DiagramDocument): EditPatch {
  const patch: EditPatch = { strategy: 'merge' };
  const deletions: Required<NonNullable<EditPatch['deletions']>> = {
    tables: [],
    columns: [],
    indexes: [],
    relationships: [],
    groups: [],
    sticky_notes: [],
  };
  const groupNamesTo = new Map(to.groups.map((group) => [group.uuid, group.name]));
  const groupsFrom = new Map(from.groups.map((group) => [group.uuid, group]));
  const groupsTo = new Map(to.groups.map((group) => [group.uuid, group]));
  const groups: Record<string, unknown>[] = [];
  for (const group of from.groups)
    if (!groupsTo.has(group.uuid)) deletions.groups.push({ name: group.name, delete_children: false });
  for (const group of to.groups) {
    const before = groupsFrom.get(group.uuid);
    if (before && before.name !== group.name)
      deletions.groups.push({ name: before.name, delete_children: false });
    if (!before || !sameFrame(before, group) || before.name !== group.name)
      groups.push({ name: group.name, ...frameOf(group) });
  }

  const tablesTo = new Map(to.tables.map((table) => [table.uuid, table]));
  const tablesFrom = new Map(from.tables.map((table) => [table.uuid, table]));
  const tables: Record<string, unknown>[] = [];
  for (const table of from.tables) if (!tablesTo.has(table.uuid)) deletions.tables.push(table.name);
  for (const table of to.tables) {
    const before = tablesFrom.get(table.uuid);
    const parentName = table.parent_uuid === null ? undefined : groupNamesTo.get(table.parent_uuid);
    if (!before) {
      tables.push({
        name: table.name,
        ...(table.comment ? { comment: table.comment } : {}),
        ...(parentName !== undefined ? { parent_name: parentName } : {}),
        left: Math.round(table.left),
        top: Math.round(table.top),
        columns: table.columns.map((column) => writtenColumn(column)),
        indexes: table.indexes.map(writtenIndex),
      });
      continue;
    }
    // apply shares the records a patch does not touch, so the same object is the same table.
    if (before === table) continue;
    const entry = changedTable(before, table, deletions);
    const parentChanged =
      before.parent_uuid !== table.parent_uuid ||
      (parentName !== undefined && groupsFrom.get(table.parent_uuid!)?.name !== parentName);
    if (parentChanged && parentName !== undefined) entry.parent_name = parentName;
    if (Object.keys(entry).length > 1 || entry.old_name !== undefined) tables.push(entry);
  }

  const endpointsSurvive = survivalCheck(from, to);
  const counterpart = relationshipCounterparts(from, to);
  const matched = new Set<Relationship>();
  const relationships: Record<string, unknown>[] = [];
  for (const r of from.relationships) {
    const after = counterpart(r);
    if (after) matched.add(after);
    // A relationship whose table or column goes is dropped with it; naming it again would be refused.
    if (!after && endpointsSurvive(r)) deletions.relationships.push(endpoints(r));
    else if (after && after.type !== r.type) relationships.push({ type: after.type, ...endpoints(after) });
  }
  for (const r of to.relationships)
    if (!matched.has(r)) relationships.push({ type: r.type, ...endpoints(r) });

  const notesTo = new Set(to.sticky_notes.map((note) => note.uuid));
  const notesFrom = new Map(from.sticky_notes.map((note) => [note.uuid, note]));
  const notes: Record<string, unknown>[] = [];
  for (const note of from.sticky_notes) if (!notesTo.has(note.uuid)) deletions.sticky_notes.push(note.uuid);
  for (const note of to.sticky_notes) {
    const before = notesFrom.get(note.uuid);
    if (before === note) continue;
    // A note has no name to address it by: a changed note is deleted and written anew.
    if (
      before &&
      before.content === note.content &&
      sameFrame(before, note) &&
      before.parent_uuid === note.parent_uuid
    )
      continue;
    if (before) deletions.sticky_notes.push(before.uuid);
    const parentName = note.parent_uuid === null ? undefined : groupNamesTo.get(note.parent_uuid);
    notes.push({
      content: note.content,
      ...frameOf(note),
      ...(parentName !== undefined ? { parent_name: parentName } : {}),
    });
  }

  if (tables.length > 0) patch.tables = tables;
  if (relationships.length > 0) patch.relationships = relationships;
  if (groups.length > 0) patch.groups = groups;
  if (notes.length > 0) patch.sticky_notes = notes;
  const kept = Object.fromEntries(Object.entries(deletions).filter(([, list]) => list.length > 0));
  if (Object.keys(kept).length > 0) patch.deletions = kept;
  const colors = canvasColorsBetween(from, to);
  if (colors) patch.colors = colors;
  const order = columnOrderBetween(from, to);
  if (order) patch.column_order = order;
  return patch;
}

/** The merge entry for a table that exists on both sides: only what changed, plus its name. */
function changedTable(
  before: DocumentTable,
  after: DocumentTable,
  deletions: Required<NonNullable<EditPatch['deletions']>>,
): Record<string, unknown> {
  const entry: Record<string, unknown> = { name: after.name };
  if (before.name !== after.name) entry.old_name = before.name;
  if ((before.comment ?? '') !== (after.comment ?? '')) entry.comment = after.comment ?? '';
  if (
    Math.round(before.left) !== Math.round(after.left) ||
    Math.round(before.top) !== Math.round(after.top)
  ) {
    entry.left = Math.round(after.left);
    entry.top = Math.round(after.top);
  }
  const columnsBefore = new Map(before.columns.map((column) => [column.uuid, column]));
  const kept = new Set(after.columns.map((column) => column.uuid));
  const gone = before.columns.filter((column) => !kept.has(column.uuid)).map((column) => column.name);
  if (gone.length > 0) deletions.columns.push({ table: before.name, columns: gone });
  const columns: Record<string, unknown>[] = [];
  for (const column of after.columns) {
    const old = columnsBefore.get(column.uuid);
    if (old && sameColumn(old, column)) continue;
    columns.push(writtenColumn(column, old && old.name !== column.name ? old.name : undefined));
  }
  if (columns.length > 0) entry.columns = columns;
  const indexesAfter = new Map(after.indexes.map((index) => [index.name, index]));
  const indexesBefore = new Map(before.indexes.map((index) => [index.name, index]));
  const droppedIndexes = before.indexes
    .filter((index) => !indexesAfter.has(index.name))
    .map((index) => index.name);
  if (droppedIndexes.length > 0) deletions.indexes.push({ table: before.name, indexes: droppedIndexes });
  const indexes = after.indexes.filter((index) => {
    const old = indexesBefore.get(index.name);
    return !old || old.type !== index.type || old.columns.join('\u0000') !== index.columns.join('\u0000');
  });
  if (indexes.length > 0) entry.indexes = indexes.map(writtenIndex);
  return entry;
}

/** A column as a patch writes it, every flag spelled out so a merge sets each one. */
export function writtenColumn(column: Column, oldName?: string): Record<string, unknown> {
  const params = column.driver_data_type_params;
  return {
    name: column.name,
    ...(oldName !== undefined ? { old_name: oldName } : {}),
    type: writtenType(column.driver_data_type_name, params),
    ...(params?.values !== undefined ? { enum_values: [...params.values] } : {}),
    is_nullable: column.is_nullable,
    is_primary_key: column.is_primary_key,
    is_unique_key: column.is_unique_key,
    is_index: column.is_index,
    is_auto_increment: column.is_auto_increment,
    is_unsigned: column.is_unsigned,
    ...(column.default !== null ? { default: column.default } : {}),
    ...(column.comment !== null ? { comment: column.comment } : {}),
  };
}

function writtenIndex(index: Index): Record<string, unknown> {
  return { name: index.name, type: index.type, columns: [...index.columns] };
}

function sameColumn(a: Column, b: Column): boolean {
  return JSON.stringify({ ...a, uuid: '' }) === JSON.stringify({ ...b, uuid: '' });
}

function sameFrame(a: { left: number; top: number }, b: { left: number; top: number }): boolean {
  return Math.round(a.left) === Math.round(b.left) && Math.round(a.top) === Math.round(b.top);
}

function frameOf(frame: { left: number; top: number; width: number; height: number }) {
  return {
    left: Math.round(frame.left),
    top: Math.round(frame.top),
    width: Math.round(frame.width),
    height: Math.round(frame.height),
  };
}

function endpoints(r: Relationship): Record<string, string> {
  return {
    source_table: r.source_table,
    source_column: r.source_column,
    target_table: r.target_table,
    target_column: r.target_column,
  };
}

/**
 * The relationship of `to` that a relationship of `from` became: the one with its uuid, else one between
 * the same columns. Undo and redo (or the server's copy after a save) give a relationship a new uuid; the
 * patch must not then delete and add the same relationship, which the engine refuses.
 */
function relationshipCounterparts(
  from: DiagramDocument,
  to: DiagramDocument,
): (r: Relationship) => Relationship | undefined {
  const key = (r: Relationship) =>
    JSON.stringify([r.source_table, r.source_column, r.target_table, r.target_column]);
  const byUuid = new Map(to.relationships.map((r) => [r.uuid, r]));
  const fromUuids = new Set(from.relationships.map((r) => r.uuid));
  const newByEndpoints = new Map<string, Relationship>();
  for (const r of to.relationships) if (!fromUuids.has(r.uuid)) newByEndpoints.set(key(r), r);
  return (r) => {
    const same = byUuid.get(r.uuid);
    if (same) return same;
    const byEnds = newByEndpoints.get(key(r));
    if (byEnds) newByEndpoints.delete(key(r));
    return byEnds;
  };
}

/**
 * Whether both ends of a relationship of `from` (by table and column uuid) are still in `to`. Built once
 * per patch: name → table of `from`, and the column uuids of every table of `to`.
 */
function survivalCheck(from: DiagramDocument, to: DiagramDocument): (r: Relationship) => boolean {
  const tablesFrom = new Map(from.tables.map((table) => [table.name, table]));
  const tablesTo = new Map(to.tables.map((table) => [table.uuid, table]));
  // A table's column uuids on the `to` side, listed only for tables whose columns changed (few, per edit).
  const columnsTo = new Map<string, Set<string>>();
  const survives = (tableName: string, columnName: string) => {
    const table = tablesFrom.get(tableName);
    const column = table?.columns.find((candidate) => candidate.name === columnName);
    if (table === undefined || column === undefined) return false;
    const after = tablesTo.get(table.uuid);
    if (after === undefined) return false;
    if (after.columns === table.columns) return true;
    let uuids = columnsTo.get(table.uuid);
    if (uuids === undefined) {
      uuids = new Set(after.columns.map((held) => held.uuid));
      columnsTo.set(table.uuid, uuids);
    }
    return uuids.has(column.uuid);
  };
  return (r) => survives(r.source_table, r.source_column) && survives(r.target_table, r.target_column);
}
