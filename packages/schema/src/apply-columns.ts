// Column and index records built from patch entries, and updates that change only the fields a patch sends.
import type { Column, Index } from './model';
import type { PatchColumn, PatchIndex } from './patch-types';
import { copyDataTypeParams } from './project';

/**
 * A new column. Flags the patch leaves out are false, except `is_nullable`, which defaults to true unless
 * the column is part of the primary key (a primary key column is never nullable by default).
 */
export function createColumn(entry: PatchColumn, uuid: string): Column {
  const isPrimaryKey = entry.is_primary_key ?? false;
  return {
    uuid,
    name: entry.name,
    driver_data_type_name: entry.data_type.name,
    driver_data_type_params: copyDataTypeParams(entry.data_type.params),
    default: entry.default ?? null,
    is_nullable: entry.is_nullable ?? !isPrimaryKey,
    is_primary_key: isPrimaryKey,
    is_unique_key: entry.is_unique_key ?? false,
    is_index: entry.is_index ?? false,
    is_auto_increment: entry.is_auto_increment ?? false,
    is_unsigned: entry.is_unsigned ?? false,
    comment: entry.comment ?? null,
    ...(entry.collation !== undefined && entry.collation !== '' ? { collation: entry.collation } : {}),
    ...(entry.enum_name !== undefined && entry.enum_name !== '' ? { enum_name: entry.enum_name } : {}),
  };
}

/**
 * Applies a merge entry to an existing column: name and type always (a column entry always carries its
 * type), every other field only when the entry sends it. Making a column a primary key without sending
 * `is_nullable` also makes it not nullable.
 */
export function updateColumn(column: Column, entry: PatchColumn): void {
  column.name = entry.name;
  column.driver_data_type_name = entry.data_type.name;
  column.driver_data_type_params = copyDataTypeParams(entry.data_type.params);
  if (entry.default !== undefined) column.default = entry.default;
  if (entry.is_primary_key !== undefined) column.is_primary_key = entry.is_primary_key;
  if (entry.is_nullable !== undefined) column.is_nullable = entry.is_nullable;
  else if (entry.is_primary_key === true) column.is_nullable = false;
  if (entry.is_unique_key !== undefined) column.is_unique_key = entry.is_unique_key;
  if (entry.is_index !== undefined) column.is_index = entry.is_index;
  if (entry.is_auto_increment !== undefined) column.is_auto_increment = entry.is_auto_increment;
  if (entry.is_unsigned !== undefined) column.is_unsigned = entry.is_unsigned;
  if (entry.comment !== undefined) column.comment = entry.comment;
  // An empty string sends the field back to its default (absent).
  if (entry.collation !== undefined) setOptional(column, 'collation', entry.collation);
  if (entry.enum_name !== undefined) setOptional(column, 'enum_name', entry.enum_name);
}

/** Sets an optional text field, or removes it when the value is empty. */
export function setOptional<T extends object, K extends keyof T>(record: T, key: K, value: string): void {
  if (value === '') delete record[key];
  else (record as Record<K, string>)[key] = value;
}

/**
 * An index record from an entry. Replacing an existing index (`previous`), the method, note and constraint
 * form the entry does not send are kept; an empty note removes it.
 */
export function createIndex(entry: PatchIndex, uuid: string, previous?: Index): Index {
  const index: Index = { uuid, name: entry.name, type: entry.type, columns: [...entry.columns] };
  if (previous?.is_constraint === true && entry.type === 'unique') index.is_constraint = true;
  const method = entry.method ?? previous?.method;
  if (method !== undefined && method !== 'btree') index.method = method;
  const note = entry.note ?? previous?.note;
  if (note !== undefined && note !== '') index.note = note;
  return index;
}

/** Index column lists rewritten through a table's column renames (old name → new name). */
export function renameIndexColumns(indexes: Index[], renames: ReadonlyMap<string, string>): Index[] {
  if (renames.size === 0) return indexes;
  return indexes.map((index) =>
    index.columns.some((name) => renames.has(name))
      ? { ...index, columns: index.columns.map((name) => renames.get(name) ?? name) }
      : index,
  );
}
