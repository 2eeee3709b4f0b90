// The entities of a revision's changes that a comment may be anchored to: every table the patch names (added,
// changed, renamed, deleted, or at either end of a relationship it adds or deletes) and every column it names
// within one. Read from the stored (normalised) patch, so no diagram has to be loaded to check an anchor.
import { invalidField } from '@dss/platform';

export interface Anchor {
  table: string;
  column?: string;
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields[] =>
  Array.isArray(value)
    ? value.filter((item): item is Fields => typeof item === 'object' && item !== null)
    : [];
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(text).filter((item): item is string => item !== null) : [];

/** Tables (in first-seen order) with the columns named under each. */
export function anchorsOf(patch: unknown): Anchor[] {
  const tables = new Map<string, Set<string>>();
  const note = (table: string | null, ...columns: (string | null)[]) => {
    if (table === null) return;
    const key = [...tables.keys()].find((name) => name.toLowerCase() === table.toLowerCase()) ?? table;
    const known = tables.get(key) ?? new Set<string>();
    for (const column of columns) if (column !== null) known.add(column);
    tables.set(key, known);
  };
  const body = (typeof patch === 'object' && patch !== null ? patch : {}) as Fields;
  for (const table of fieldsOf(body.tables)) {
    const columns = fieldsOf(table.columns).map((column) => text(column.name));
    note(text(table.name), ...columns);
    if (text(table.old_name)) note(text(table.old_name));
    for (const index of fieldsOf(table.indexes)) note(text(table.name), ...texts(index.columns));
  }
  const relationshipsOf = (value: unknown) =>
    fieldsOf(value).forEach((link) => {
      note(text(link.source_table), text(link.source_column));
      note(text(link.target_table), text(link.target_column));
    });
  relationshipsOf(body.relationships);
  const deletions = (
    typeof body.deletions === 'object' && body.deletions !== null ? body.deletions : {}
  ) as Fields;
  for (const table of texts(deletions.tables)) note(table);
  for (const entry of fieldsOf(deletions.columns)) note(text(entry.table), ...texts(entry.columns));
  for (const entry of fieldsOf(deletions.indexes)) note(text(entry.table));
  relationshipsOf(deletions.relationships);

  const anchors: Anchor[] = [];
  for (const [table, columns] of tables) {
    anchors.push({ table });
    for (const column of columns) anchors.push({ table, column });
  }
  return anchors;
}

/**
 * The anchor as the patch spells it, or `invalid_request` naming what the changes do not touch. Names
 * compare without regard to case (as table and column names do in the diagram).
 */
export function checkedAnchor(patch: unknown, wanted: Anchor): Anchor {
  const anchors = anchorsOf(patch);
  const same = (a: string | undefined, b: string | undefined) =>
    (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
  const table = anchors.find((anchor) => anchor.column === undefined && same(anchor.table, wanted.table));
  // The name is quoted back, cut short: the field may be any length.
  const quoted = wanted.table.length > 80 ? `${wanted.table.slice(0, 80)}…` : wanted.table;
  if (!table) throw invalidField('anchor.table', `names no table of the proposal's changes: ${quoted}`);
  if (wanted.column === undefined) return table;
  const column = anchors.find(
    (anchor) => same(anchor.table, wanted.table) && same(anchor.column, wanted.column),
  );
  if (!column)
    throw invalidField('anchor.column', `names no column of table ${table.table} in the proposal's changes`);
  return column;
}
