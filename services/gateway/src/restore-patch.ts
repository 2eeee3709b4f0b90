// The patch of a restore proposal: applied to the diagram as it is now, it takes the schema back to an
// older version. Tokens cannot change an existing diagram, so an agent proposes this patch and a person
// applies it on the review page like any proposal. Everything is named, as patches name it: tables,
// columns and indexes of the old version are written in full (with their positions and groups), and
// what the diagram has now but the old version had not is deleted. Sticky notes are left as they are (a
// patch can add notes but not address the ones the diagram has), and a field the old version did not set
// (a comment, a default) is not cleared.
import { type DiagramDocument, documentToPatch } from '@dss/schema';

const endpoints = (r: {
  source_table: string;
  source_column: string;
  target_table: string;
  target_column: string;
}) => `${r.source_table}.${r.source_column}>${r.target_table}.${r.target_column}`;

export function restorePatch(current: DiagramDocument, target: DiagramDocument): Record<string, unknown> {
  const { sticky_notes: _notes, ...written } = documentToPatch(target, { positions: true });
  const targetTables = new Map(target.tables.map((table) => [table.name, table]));
  const targetGroups = new Set(target.groups.map((group) => group.name));
  const currentRelationships = new Set(current.relationships.map(endpoints));
  const targetRelationships = new Set(target.relationships.map(endpoints));

  const tables = current.tables.filter((table) => !targetTables.has(table.name)).map((table) => table.name);
  const columns: { table: string; columns: string[] }[] = [];
  const indexes: { table: string; indexes: string[] }[] = [];
  for (const table of current.tables) {
    const old = targetTables.get(table.name);
    if (!old) continue;
    const oldColumns = new Set(old.columns.map((column) => column.name));
    const gone = table.columns.filter((column) => !oldColumns.has(column.name)).map((column) => column.name);
    if (gone.length > 0) columns.push({ table: table.name, columns: gone });
    const oldIndexes = new Set(old.indexes.map((index) => index.name));
    const goneIndexes = table.indexes
      .filter((index) => !oldIndexes.has(index.name))
      .map((index) => index.name);
    if (goneIndexes.length > 0) indexes.push({ table: table.name, indexes: goneIndexes });
  }
  const relationships = current.relationships
    .filter((relationship) => !targetRelationships.has(endpoints(relationship)))
    // A relationship of a table deleted anyway goes with it.
    .filter(
      (relationship) =>
        !tables.includes(relationship.source_table) && !tables.includes(relationship.target_table),
    )
    .map(({ source_table, source_column, target_table, target_column }) => ({
      source_table,
      source_column,
      target_table,
      target_column,
    }));
  const groups = current.groups
    .filter((group) => !targetGroups.has(group.name))
    .map((group) => ({ name: group.name, delete_children: false }));

  const deletions = {
    ...(tables.length > 0 ? { tables } : {}),
    ...(columns.length > 0 ? { columns } : {}),
    ...(indexes.length > 0 ? { indexes } : {}),
    ...(relationships.length > 0 ? { relationships } : {}),
    ...(groups.length > 0 ? { groups } : {}),
  };
  const added = (written.relationships ?? []).filter(
    (relationship) => !currentRelationships.has(endpoints(relationship)),
  );
  return {
    ...written,
    strategy: 'merge',
    ...(added.length > 0 ? { relationships: added } : { relationships: undefined }),
    ...(Object.keys(deletions).length > 0 ? { deletions } : {}),
  };
}
