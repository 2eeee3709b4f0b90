// The drawing of a proposal under review: the document after the change, plus what the change removes
// (taken from the document before it, so it can be drawn struck out), with a mark on everything the diff
// added, changed or removed.
import type { DiagramDocument, DocumentDiff, Relationship } from '@dss/schema';
import { type ChangeMark, type DiagramHighlight, emptyHighlight } from './highlight';

export interface ReviewDrawing {
  document: DiagramDocument;
  highlight: DiagramHighlight;
}

export function reviewDiagram(
  before: DiagramDocument,
  after: DiagramDocument,
  diff: DocumentDiff,
): ReviewDrawing {
  return { document: mergeRemoved(before, after, diff), highlight: highlightOf(diff) };
}

function highlightOf(diff: DocumentDiff): DiagramHighlight {
  const highlight = emptyHighlight();
  const markSection = <T>(
    marks: Map<string, ChangeMark>,
    section: { added: T[]; changed: { uuid: string }[]; removed: T[] },
    uuidOf: (record: T) => string,
  ) => {
    for (const record of section.added) marks.set(uuidOf(record), 'added');
    for (const change of section.changed) marks.set(change.uuid, 'changed');
    for (const record of section.removed) marks.set(uuidOf(record), 'removed');
  };
  const ownUuid = (record: { uuid: string }) => record.uuid;
  const partUuid = (part: { record: { uuid: string } }) => part.record.uuid;
  markSection(highlight.tables, diff.tables, ownUuid);
  markSection(highlight.columns, diff.columns, partUuid);
  markSection(highlight.indexes, diff.indexes, partUuid);
  markSection(highlight.relationships, diff.relationships, ownUuid);
  markSection(highlight.groups, diff.groups, ownUuid);
  markSection(highlight.sticky_notes, diff.sticky_notes, ownUuid);
  return highlight;
}

function mergeRemoved(before: DiagramDocument, after: DiagramDocument, diff: DocumentDiff): DiagramDocument {
  const beforeTables = new Map(before.tables.map((table) => [table.uuid, table]));
  const removedColumns = groupByTable(diff.columns.removed);
  const removedIndexes = groupByTable(diff.indexes.removed);
  const tables = after.tables.map((table) => {
    const columns = removedColumns.get(table.uuid);
    const indexes = removedIndexes.get(table.uuid);
    if (columns === undefined && indexes === undefined) return table;
    const old = beforeTables.get(table.uuid);
    return {
      ...table,
      columns: columns === undefined ? table.columns : interleave(table.columns, columns, old?.columns ?? []),
      indexes: indexes === undefined ? table.indexes : interleave(table.indexes, indexes, old?.indexes ?? []),
    };
  });
  // Removed records go first, so that what replaces them is drawn on top.
  return {
    ...after,
    tables: [...diff.tables.removed, ...tables],
    relationships: [...namedAsAfter(diff.relationships.removed, before, after), ...after.relationships],
    groups: [...diff.groups.removed, ...after.groups],
    sticky_notes: [...diff.sticky_notes.removed, ...after.sticky_notes],
  };
}

function groupByTable<T>(parts: { table_uuid: string; record: T }[]): Map<string, T[]> {
  const byTable = new Map<string, T[]>();
  for (const part of parts) {
    const list = byTable.get(part.table_uuid) ?? [];
    list.push(part.record);
    byTable.set(part.table_uuid, list);
  }
  return byTable;
}

/**
 * The current records with the removed ones put back where they were: each removed record follows the
 * nearest record that preceded it before the change and is still there (or starts the list).
 */
function interleave<T extends { uuid: string }>(current: T[], removed: T[], previous: T[]): T[] {
  const removedUuids = new Set(removed.map((record) => record.uuid));
  const currentUuids = new Set(current.map((record) => record.uuid));
  const following = new Map<string | null, T[]>();
  let anchor: string | null = null;
  for (const record of previous) {
    if (removedUuids.has(record.uuid)) {
      const list = following.get(anchor) ?? [];
      list.push(record);
      following.set(anchor, list);
    } else if (currentUuids.has(record.uuid)) anchor = record.uuid;
  }
  const result: T[] = [...(following.get(null) ?? [])];
  for (const record of current) result.push(record, ...(following.get(record.uuid) ?? []));
  return result;
}

/**
 * Removed relationships' endpoints, renamed as the tables and columns they point at are named after the
 * change (a relationship removed along with a rename still names the old ones).
 */
function namedAsAfter(
  removed: Relationship[],
  before: DiagramDocument,
  after: DiagramDocument,
): Relationship[] {
  if (removed.length === 0) return removed;
  const beforeByName = new Map(before.tables.map((table) => [table.name, table]));
  const afterByUuid = new Map(after.tables.map((table) => [table.uuid, table]));
  const endpointAfter = (tableName: string, columnName: string): [string, string] => {
    const oldTable = beforeByName.get(tableName);
    const newTable = oldTable && afterByUuid.get(oldTable.uuid);
    if (oldTable === undefined || newTable === undefined) return [tableName, columnName];
    const oldColumn = oldTable.columns.find((column) => column.name === columnName);
    const newColumn = oldColumn && newTable.columns.find((column) => column.uuid === oldColumn.uuid);
    return [newTable.name, newColumn?.name ?? columnName];
  };
  return removed.map((relationship) => {
    const [source_table, source_column] = endpointAfter(
      relationship.source_table,
      relationship.source_column,
    );
    const [target_table, target_column] = endpointAfter(
      relationship.target_table,
      relationship.target_column,
    );
    const unchanged =
      source_table === relationship.source_table &&
      source_column === relationship.source_column &&
      target_table === relationship.target_table &&
      target_column === relationship.target_column;
    return unchanged
      ? relationship
      : { ...relationship, source_table, source_column, target_table, target_column };
  });
}
