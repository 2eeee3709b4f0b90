// One truth for keys: a primary or unique key changed through the column flags or through an index entry
// is the same change, so migration, export, Markdown and diff (which read both) never disagree.
// - Primary key: the columns marked `is_primary_key` are the key; a primary index record, when the table
//   has one, lists exactly those columns (its name is the key's name). An index entry of type `primary`
//   sets the flags (newly marked columns become NOT NULL unless the entry's column says otherwise); a
//   change of the flags rewrites the record's columns (kept in its order, new ones appended), and removes
//   it when no column is marked. Deleting the record clears the flags.
// - Single-column unique key: `is_unique_key` and a one-column `unique` index record say the same thing.
//   An index entry of that shape sets the flag; clearing the flag removes such records; removing or
//   replacing the last such record of a column clears its flag. A flag without a record is a key too
//   (the export names it).
import type { DocumentDraft } from './apply-draft';
import type { DocumentTable, Index } from './model';
import type { PatchColumn, PatchIndex } from './patch-types';

/** Key flags of a table by column uuid, taken before an entry changes it. */
export interface KeyFlags {
  primary: ReadonlySet<string>;
  unique: ReadonlySet<string>;
  /** Names of columns with a one-column unique index record. */
  uniqueRecords: ReadonlySet<string>;
}

export function keyFlagsOf(table: DocumentTable): KeyFlags {
  return {
    primary: new Set(table.columns.filter((c) => c.is_primary_key).map((c) => c.uuid)),
    unique: new Set(table.columns.filter((c) => c.is_unique_key).map((c) => c.uuid)),
    uniqueRecords: uniqueRecordColumns(table.indexes),
  };
}

function uniqueRecordColumns(indexes: readonly Index[]): Set<string> {
  return new Set(
    indexes
      .filter((index) => index.type === 'unique' && index.columns.length === 1)
      .map((i) => i.columns[0]!),
  );
}

/** After a merge entry changed a table: flags and index records brought to say the same thing. */
export function reconcileKeys(
  draft: DocumentDraft,
  table: DocumentTable,
  entry: { columns: readonly PatchColumn[]; indexes: readonly PatchIndex[] },
  before: KeyFlags,
): void {
  const sentPrimary = [...entry.indexes].reverse().find((index) => index.type === 'primary');
  if (sentPrimary !== undefined) markPrimary(draft, table, sentPrimary.columns, entry.columns);
  else followPrimaryFlags(table, before);
  const sentUnique = new Set(
    entry.indexes.filter((i) => i.type === 'unique' && i.columns.length === 1).map((i) => i.columns[0]!),
  );
  const flagCleared = new Set(
    table.columns.filter((c) => before.unique.has(c.uuid) && !c.is_unique_key).map((c) => c.name),
  );
  if (flagCleared.size > 0)
    table.indexes = table.indexes.filter(
      (index) =>
        !(index.type === 'unique' && index.columns.length === 1 && flagCleared.has(index.columns[0]!)) ||
        sentUnique.has(index.columns[0]!),
    );
  const recordsNow = uniqueRecordColumns(table.indexes);
  for (const [position, column] of table.columns.entries()) {
    const sentFlag = entry.columns.find((c) => c.name === column.name)?.is_unique_key;
    if (sentUnique.has(column.name) && !column.is_unique_key)
      draft.editColumn(table, position).is_unique_key = true;
    else if (
      before.uniqueRecords.has(column.name) &&
      !recordsNow.has(column.name) &&
      sentFlag !== true &&
      column.is_unique_key
    )
      draft.editColumn(table, position).is_unique_key = false;
  }
}

export function markPrimary(
  draft: DocumentDraft,
  table: DocumentTable,
  names: readonly string[],
  sent: readonly PatchColumn[],
): void {
  const listed = new Set(names);
  for (const [position, column] of table.columns.entries()) {
    const wanted = listed.has(column.name);
    if (column.is_primary_key === wanted) continue;
    const edited = draft.editColumn(table, position);
    edited.is_primary_key = wanted;
    if (wanted && sent.find((c) => c.name === column.name)?.is_nullable === undefined)
      edited.is_nullable = false;
  }
}

function followPrimaryFlags(table: DocumentTable, before: KeyFlags): void {
  const marked = table.columns.filter((column) => column.is_primary_key);
  const unchanged = marked.length === before.primary.size && marked.every((c) => before.primary.has(c.uuid));
  if (unchanged) return;
  const at = table.indexes.findIndex((index) => index.type === 'primary');
  if (at < 0) return;
  if (marked.length === 0) {
    table.indexes = table.indexes.filter((_, position) => position !== at);
    return;
  }
  const names = new Set(marked.map((column) => column.name));
  const record = table.indexes[at]!;
  const kept = record.columns.filter((name) => names.has(name));
  const columns = [...kept, ...marked.map((c) => c.name).filter((name) => !kept.includes(name))];
  table.indexes = table.indexes.map((index, position) => (position === at ? { ...record, columns } : index));
}

/** After index records were deleted from a table: the flags they carried are cleared with them. */
export function clearDeletedKeyFlags(
  draft: DocumentDraft,
  table: DocumentTable,
  removed: readonly Index[],
): void {
  const primaryRemoved = removed.some((index) => index.type === 'primary');
  const remaining = uniqueRecordColumns(table.indexes);
  const uniqueRemoved = new Set([...uniqueRecordColumns(removed)].filter((name) => !remaining.has(name)));
  for (const [position, column] of table.columns.entries()) {
    if (primaryRemoved && column.is_primary_key) draft.editColumn(table, position).is_primary_key = false;
    if (uniqueRemoved.has(column.name) && column.is_unique_key)
      draft.editColumn(table, position).is_unique_key = false;
  }
}
