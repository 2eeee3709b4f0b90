// The patch that turns a diagram into what the live database holds: every live table as it is (merge), plus
// deletions for the tables, columns, indexes and relationships the database no longer has.
import { type DiagramDocument, documentToPatch, type WrittenPatch } from '@dss/schema';

export function patchToLive(diagram: DiagramDocument, live: DiagramDocument) {
  const liveTables = new Map(live.tables.map((table) => [table.name, table]));
  const liveLinks = new Set(
    live.relationships.map((r) =>
      [r.source_table, r.source_column, r.target_table, r.target_column].join('\u0000'),
    ),
  );
  const removedTables = diagram.tables
    .filter((table) => !liveTables.has(table.name))
    .map((table) => table.name);
  const columns: { table: string; columns: string[] }[] = [];
  const indexes: { table: string; indexes: string[] }[] = [];
  for (const table of diagram.tables) {
    const now = liveTables.get(table.name);
    if (!now) continue;
    const gone = table.columns.filter((column) => !now.columns.some((c) => c.name === column.name));
    if (gone.length > 0) columns.push({ table: table.name, columns: gone.map((column) => column.name) });
    const goneIndexes = table.indexes.filter((index) => !now.indexes.some((i) => i.name === index.name));
    if (goneIndexes.length > 0)
      indexes.push({ table: table.name, indexes: goneIndexes.map((index) => index.name) });
  }
  const relationships = diagram.relationships
    .filter(
      (r) =>
        !liveLinks.has([r.source_table, r.source_column, r.target_table, r.target_column].join('\u0000')),
    )
    .filter((r) => liveTables.has(r.source_table) && liveTables.has(r.target_table))
    .map(({ source_table, source_column, target_table, target_column }) => ({
      source_table,
      source_column,
      target_table,
      target_column,
    }));
  const patch: WrittenPatch & { deletions?: unknown } = documentToPatch(live);
  patch.deletions = { tables: removedTables, columns, indexes, relationships };
  return patch;
}
