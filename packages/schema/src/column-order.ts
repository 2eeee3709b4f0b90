// The order of a table's columns, which a merge patch cannot change (it only appends new columns). The web
// editor sends it beside its patch, `{"<table>": ["id", "name", …]}` (names as after the patch), and the
// diagrams service and the editor apply it with the same function. Each list names every column of its
// table exactly once. The order is documentation: the diff and migrations compare columns by identity, so
// a reorder alone adds no statement (PostgreSQL cannot reorder columns in place).
import type { DiagramDocument } from './model';

export type ColumnOrder = Record<string, string[]>;

export type ColumnOrderResult<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

const MAX_TABLES = 5000;

/** Reads an order from untrusted JSON: table name → array of column names. */
export function parseColumnOrder(value: unknown): ColumnOrderResult<ColumnOrder> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, path: 'column_order', message: 'must be a JSON object' };
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_TABLES)
    return { ok: false, path: 'column_order', message: `must hold at most ${MAX_TABLES} tables` };
  const order: ColumnOrder = {};
  for (const [table, names] of entries) {
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string'))
      return { ok: false, path: `column_order.${table}`, message: 'must be an array of column names' };
    order[table] = names as string[];
  }
  return { ok: true, value: order };
}

/**
 * The document with each named table's columns in the given order. A table the document lacks, or a list
 * that does not name each of the table's columns exactly once, is refused and nothing changes.
 */
export function applyColumnOrder(
  document: DiagramDocument,
  order: ColumnOrder | undefined,
): ColumnOrderResult<DiagramDocument> {
  if (order === undefined || Object.keys(order).length === 0) return { ok: true, value: document };
  const byName = new Map(document.tables.map((table) => [table.name, table]));
  for (const [name, columns] of Object.entries(order)) {
    const table = byName.get(name);
    if (!table)
      return { ok: false, path: `column_order.${name}`, message: `the diagram has no table ${name}` };
    const present = new Set(table.columns.map((column) => column.name));
    const named = new Set(columns);
    if (named.size !== columns.length || named.size !== present.size || columns.some((c) => !present.has(c)))
      return {
        ok: false,
        path: `column_order.${name}`,
        message: `must name each column of ${name} exactly once`,
      };
  }
  return {
    ok: true,
    value: {
      ...document,
      tables: document.tables.map((table) => {
        const columns = order[table.name];
        if (!Object.hasOwn(order, table.name) || columns === undefined) return table;
        const at = new Map(columns.map((name, index) => [name, index]));
        const sorted = [...table.columns].sort((a, b) => at.get(a.name)! - at.get(b.name)!);
        return sorted.every((column, index) => column === table.columns[index])
          ? table
          : { ...table, columns: sorted };
      }),
    },
  };
}

/**
 * The orders that turn `from` into `to`: for each table of both (by uuid) whose shared columns (by uuid)
 * come in another order, or whose new columns do not come last, the full list of `to`'s column names.
 */
export function columnOrderBetween(from: DiagramDocument, to: DiagramDocument): ColumnOrder | undefined {
  const before = new Map(from.tables.map((table) => [table.uuid, table]));
  const order: ColumnOrder = {};
  for (const table of to.tables) {
    const old = before.get(table.uuid);
    // The same record, or the same column records in the same order: nothing moved.
    if (!old || old === table || old.columns === table.columns) continue;
    const oldAt = new Map(old.columns.map((column, index) => [column.uuid, index]));
    // As a merge patch leaves it: the columns kept, in their old order, then the new ones in order.
    const kept = table.columns.filter((column) => oldAt.has(column.uuid));
    const added = table.columns.filter((column) => !oldAt.has(column.uuid));
    const merged = [...kept.sort((a, b) => oldAt.get(a.uuid)! - oldAt.get(b.uuid)!), ...added];
    if (merged.some((column, index) => column.uuid !== table.columns[index]?.uuid))
      order[table.name] = table.columns.map((column) => column.name);
  }
  return Object.keys(order).length > 0 ? order : undefined;
}
