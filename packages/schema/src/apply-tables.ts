// Table entries of a patch: new tables are created, existing ones are extended (additive) or updated,
// renamed and extended (merge). Identity is the uuid, so a rename keeps every record's uuid.
import { createColumn, createIndex, renameIndexColumns, setOptional, updateColumn } from './apply-columns';
import type { DocumentDraft } from './apply-draft';
import { keyFlagsOf, markPrimary, reconcileKeys } from './apply-keys';
import type { Check, DocumentTable } from './model';
import { NameIndex } from './name-index';
import type { PatchCheck, PatchColumn, PatchIndex, PatchTable, Strategy } from './patch-types';
import { SmallMap } from './small-map';
import { estimateTableSize } from './table-size';

export function applyTableEntry(draft: DocumentDraft, entry: PatchTable, strategy: Strategy): void {
  // An additive patch never renames, so `old_name` plays no part in finding the table.
  const uuid =
    strategy === 'additive'
      ? draft.tableNames.get(entry.name)
      : draft.tableNames.find(entry.name, entry.old_name);
  if (uuid === undefined) createTable(draft, entry);
  else if (strategy === 'additive') addMissingParts(draft, uuid, entry);
  else mergeTable(draft, uuid, entry);
}

function createTable(draft: DocumentDraft, entry: PatchTable): void {
  const uuid = draft.newUuid();
  const columns = entry.columns.map((column) => createColumn(column, draft.newUuid()));
  const size = estimateTableSize({ name: entry.name, columns });
  const table: DocumentTable = {
    uuid,
    name: entry.name,
    comment: entry.comment ?? null,
    columns,
    indexes: entry.indexes.map((index) => createIndex(index, draft.newUuid())),
    ...(entry.checks !== undefined && entry.checks.length > 0
      ? { checks: mergeChecks([], entry.checks) }
      : {}),
    ...(entry.charset !== undefined && entry.charset !== '' ? { charset: entry.charset } : {}),
    ...(entry.collation !== undefined && entry.collation !== '' ? { collation: entry.collation } : {}),
    left: entry.left ?? 0,
    top: entry.top ?? 0,
    width: entry.width ?? size.width,
    height: entry.height ?? size.height,
    color: null,
    parent_uuid: draft.resolveParent(entry.parent_uuid, entry.parent_name) ?? null,
  };
  // A new table's primary index entry marks its columns; its records are otherwise stored as sent.
  const primary = entry.indexes.findLast((index) => index.type === 'primary');
  if (primary !== undefined) markPrimary(draft, table, primary.columns, entry.columns);
  draft.addTable(table);
  if (entry.left === undefined || entry.top === undefined) draft.unplaced.tables.add(uuid);
}

/** Additive: columns and indexes the table does not have yet are appended; nothing existing changes. */
function addMissingParts(draft: DocumentDraft, uuid: string, entry: PatchTable): void {
  const existing = draft.tables.get(uuid)!;
  const columnNames = new Set(existing.columns.map((column) => column.name));
  const indexNames = new Set(existing.indexes.map((index) => index.name));
  const columns = entry.columns.filter((column) => !columnNames.has(column.name));
  const indexes = entry.indexes.filter((index) => !indexNames.has(index.name));
  const checkNames = new Set((existing.checks ?? []).map((check) => check.name));
  const checks = (entry.checks ?? []).filter((check) => !checkNames.has(check.name));
  if (columns.length === 0 && indexes.length === 0 && checks.length === 0) return;
  const table = draft.editTable(uuid);
  if (checks.length > 0) table.checks = mergeChecks(table.checks ?? [], checks);
  for (const column of columns) {
    if (columnNames.has(column.name)) continue;
    columnNames.add(column.name);
    table.columns.push(createColumn(column, draft.newUuid()));
  }
  for (const index of indexes) {
    if (indexNames.has(index.name)) continue;
    indexNames.add(index.name);
    table.indexes.push(createIndex(index, draft.newUuid()));
  }
}

/** Merge: the fields the entry sends replace the table's; columns and indexes are matched by name. */
function mergeTable(draft: DocumentDraft, uuid: string, entry: PatchTable): void {
  const table = draft.editTable(uuid);
  const keysBefore = keyFlagsOf(table);
  if (entry.name !== table.name) draft.renameTable(table, entry.name);
  if (entry.comment !== undefined) table.comment = entry.comment;
  if (entry.charset !== undefined) setOptional(table, 'charset', entry.charset);
  if (entry.collation !== undefined) setOptional(table, 'collation', entry.collation);
  const parent = draft.resolveParent(entry.parent_uuid, entry.parent_name);
  if (parent !== undefined) table.parent_uuid = parent;
  if (entry.left !== undefined) table.left = entry.left;
  if (entry.top !== undefined) table.top = entry.top;
  if (entry.width !== undefined) table.width = entry.width;
  if (entry.height !== undefined) table.height = entry.height;
  const renames = mergeColumns(draft, table, entry.columns);
  if (renames !== null) table.indexes = renameIndexColumns(table.indexes, renames);
  // Unique records as they were, under the column names this entry gives.
  const keys =
    renames === null ? keysBefore : { ...keysBefore, uniqueRecords: keyFlagsOf(table).uniqueRecords };
  mergeIndexes(draft, table, entry.indexes);
  reconcileKeys(draft, table, entry, keys);
  if (entry.checks !== undefined && entry.checks.length > 0)
    table.checks = mergeChecks(table.checks ?? [], entry.checks);
}

/** A new list: checks of the same name take the entry's expression in place, others are appended. */
function mergeChecks(existing: readonly Check[], entries: readonly PatchCheck[]): Check[] {
  const checks = existing.map((check) => ({ ...check }));
  for (const entry of entries) {
    const same = checks.find((check) => check.name === entry.name);
    if (same !== undefined) same.expression = entry.expression;
    else checks.push({ name: entry.name, expression: entry.expression });
  }
  return checks;
}

/**
 * Returns the column renames of this entry (name before → name after) for the table's indexes, or null
 * when it renames none (most entries).
 */
function mergeColumns(
  draft: DocumentDraft,
  table: DocumentTable,
  entries: PatchColumn[],
): Map<string, string> | null {
  // Positions identify columns here: a merge entry only appends, so existing positions never move.
  const names = new NameIndex(
    table.columns.map((column) => column.name),
    table.columns.map((_, position) => position),
  );
  let renames: Map<string, string> | null = null;
  for (const entry of entries) {
    const position = names.find(entry.name, entry.old_name);
    if (position === undefined) {
      names.add(entry.name, table.columns.length);
      table.columns.push(createColumn(entry, draft.newUuid()));
      continue;
    }
    const column = draft.editColumn(table, position);
    if (column.name !== entry.name) {
      renames ??= new Map();
      renames.set(column.name, entry.name);
      names.rename(position, column.name, entry.name);
    }
    updateColumn(column, entry);
  }
  return renames;
}

function mergeIndexes(draft: DocumentDraft, table: DocumentTable, entries: PatchIndex[]): void {
  if (entries.length === 0) return;
  const positions = SmallMap.from(
    table.indexes.map((index) => index.name),
    table.indexes.map((_, position) => position),
  );
  for (const entry of entries) {
    const position = positions.get(entry.name);
    if (position === undefined) {
      positions.set(entry.name, table.indexes.length);
      table.indexes.push(createIndex(entry, draft.newUuid()));
    } else {
      table.indexes[position] = createIndex(entry, table.indexes[position]!.uuid, table.indexes[position]);
    }
  }
}
