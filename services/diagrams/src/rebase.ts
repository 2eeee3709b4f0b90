// Rebasing an editor save made on an older version onto the current one. Patches address entities by
// name (tables, and their columns and indexes through the table), so a patch that touches none of the
// tables changed between its base and the current document applies to the current one as it is; one that
// touches such a table is refused with `conflict` naming the tables, so nothing is overwritten silently.
// A table counts as changed when it was added, removed or renamed, or its columns, indexes, comment,
// colour or group changed, or a relationship ending at it changed; moving or resizing it is no change.
import { ServiceError } from '@dss/platform';
import type { DiagramDocument, DocumentTable, Patch, Relationship } from '@dss/schema';

/** Throws `conflict` when `patch` touches a table changed between `base` and `current`. */
export function ensureRebasable(base: DiagramDocument, current: DiagramDocument, patch: Patch): void {
  const changed = changedTables(base, current);
  if (changed.size === 0) return;
  const conflicts = [...touchedTables(patch, current)].filter((name) => changed.has(name));
  if (conflicts.length === 0) return;
  const names = conflicts.map((name) => changed.get(name)!);
  throw new ServiceError(
    'conflict',
    `${names.map((name) => `table "${name}"`).join(', ')} changed since this edit's version: reload it and apply the edit again`,
    {
      errors: names.map((name) => ({
        path: `tables.${name}`,
        message: 'changed by another save since this edit began',
      })),
    },
  );
}

/** Lower-cased names (old and new) of the tables that differ between the documents → a name to show. */
function changedTables(base: DiagramDocument, current: DiagramDocument): Map<string, string> {
  const changed = new Map<string, string>();
  const mark = (table: { name: string } | undefined) => {
    if (table) changed.set(table.name.toLowerCase(), table.name);
  };
  const before = new Map(base.tables.map((table) => [table.uuid, table]));
  const after = new Map(current.tables.map((table) => [table.uuid, table]));
  for (const [uuid, table] of before) {
    const now = after.get(uuid);
    if (!now || tableKey(now) !== tableKey(table)) {
      mark(table);
      mark(now);
    }
  }
  for (const [uuid, table] of after) if (!before.has(uuid)) mark(table);
  const relationshipsBefore = new Set(base.relationships.map(relationshipKey));
  const relationshipsAfter = new Set(current.relationships.map(relationshipKey));
  // Relationships name their tables.
  for (const relationship of [...base.relationships, ...current.relationships]) {
    const key = relationshipKey(relationship);
    if (relationshipsBefore.has(key) && relationshipsAfter.has(key)) continue;
    mark({ name: relationship.source_table });
    mark({ name: relationship.target_table });
  }
  return changed;
}

/** Lower-cased names of the tables the patch adds, changes, deletes or relates (uuids resolved in `current`). */
function touchedTables(patch: Patch, current: DiagramDocument): Set<string> {
  const names = new Set<string>();
  const nameOf = (reference: string) =>
    (current.tables.find((table) => table.uuid === reference.toLowerCase())?.name ?? reference).toLowerCase();
  for (const table of patch.tables) {
    names.add(table.name.toLowerCase());
    if (table.old_name) names.add(table.old_name.toLowerCase());
  }
  for (const name of patch.deletions.tables) names.add(nameOf(name));
  for (const entry of [...patch.deletions.columns, ...patch.deletions.indexes])
    names.add(nameOf(entry.table));
  for (const relationship of [...patch.relationships, ...patch.deletions.relationships]) {
    names.add(nameOf(relationship.source_table));
    names.add(nameOf(relationship.target_table));
  }
  return names;
}

function tableKey(table: DocumentTable): string {
  const { left: _left, top: _top, width: _width, height: _height, ...schema } = table;
  return JSON.stringify(schema);
}

function relationshipKey(relationship: Relationship): string {
  return JSON.stringify(relationship);
}
