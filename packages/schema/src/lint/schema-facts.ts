// Facts about a schema that several rules ask: foreign keys as constraints (a composite key is stored as
// one relationship per column pair sharing the constraint's name), which columns an index covers, and a
// table's name without its schema.
import type { Column, Relationship, Table } from '../model';
import type { LintSchema } from './types';

export interface LintForeignKey {
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

/** Named relationships of one table pair form one key; unnamed ones stand alone. */
export function foreignKeysOf(schema: LintSchema): LintForeignKey[] {
  const groups = new Map<string, Relationship[]>();
  for (const relationship of schema.relationships) {
    const key =
      relationship.name === null
        ? relationship.uuid
        : `${relationship.source_table}\u0000${relationship.target_table}\u0000${relationship.name}`;
    groups.set(key, [...(groups.get(key) ?? []), relationship]);
  }
  return [...groups.values()].map((pairs) => ({
    table: (pairs[0] as Relationship).source_table,
    columns: pairs.map((pair) => pair.source_column),
    refTable: (pairs[0] as Relationship).target_table,
    refColumns: pairs.map((pair) => pair.target_column),
  }));
}

export function tableIndex(schema: LintSchema): Map<string, Table> {
  return new Map(schema.tables.map((table) => [table.name, table]));
}

export function columnOf(table: Table | undefined, name: string): Column | undefined {
  return table?.columns.find((column) => column.name === name);
}

/** The column lists of every key and index of a table, including keys made from column flags. */
export function indexedColumnLists(table: Table): string[][] {
  const lists = table.indexes.map((index) => index.columns);
  const primary = table.columns.filter((column) => column.is_primary_key).map((column) => column.name);
  if (primary.length > 0) lists.push(primary);
  for (const column of table.columns) if (column.is_unique_key || column.is_index) lists.push([column.name]);
  return lists;
}

/** True when some index starts with exactly these columns (in any order), so lookups by them can use it. */
export function hasLeadingIndex(table: Table, columns: string[]): boolean {
  const wanted = new Set(columns);
  return indexedColumnLists(table).some(
    (list) =>
      list.length >= columns.length && list.slice(0, columns.length).every((name) => wanted.has(name)),
  );
}

export function hasPrimaryKey(table: Table): boolean {
  return (
    table.columns.some((column) => column.is_primary_key) || table.indexes.some((i) => i.type === 'primary')
  );
}

/** `sales.orders` → `orders`: conventions apply to the name, not the schema it lives in. */
export function bareName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
