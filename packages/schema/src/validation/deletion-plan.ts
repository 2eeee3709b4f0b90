// What the patch's deletions remove from the diagram, resolved against the document. Naming something the
// diagram does not have is a problem: a careful author expects a deletion to delete something, and a typo
// that silently does nothing would hide a mistake.
import type { DocumentTable, Group } from '../model';
import { type DocumentIndex, relationshipKey } from './document-index';
import { describeEndpoints, type ProblemList, pathOf, quoteName } from './problem-list';
import type { ShapedPatch } from './shaped-types';

/** The reason recorded for a table named in deletions.tables. */
export const EXPLICIT_TABLE_DELETION = 'in deletions.tables';

export interface DeletionPlan {
  /** Tables removed, with why: in deletions.tables, or with a group deleted with `delete_children`. */
  tables: Map<DocumentTable, string>;
  columns: Map<DocumentTable, Set<string>>;
  indexes: Map<DocumentTable, Set<string>>;
  groups: Map<Group, string>;
  relationshipKeys: Set<string>;
  /** How many entries deletions names; 0 for an absent or empty section. */
  entryCount: number;
}

function addTo<K>(map: Map<K, Set<string>>, key: K, name: string): void {
  const names = map.get(key);
  if (names === undefined) map.set(key, new Set([name]));
  else names.add(name);
}

function deleteGroupChildren(group: Group, index: DocumentIndex, plan: DeletionPlan): void {
  const groupUuids = new Set([group.uuid]);
  // Nested groups go with their parent; a few passes over the groups reach every level.
  for (let grew = true; grew; ) {
    grew = false;
    for (const candidate of index.groups)
      if (
        candidate.parent_uuid !== null &&
        groupUuids.has(candidate.parent_uuid) &&
        !groupUuids.has(candidate.uuid)
      ) {
        groupUuids.add(candidate.uuid);
        grew = true;
      }
  }
  const reason = `with group ${quoteName(group.name)} (delete_children)`;
  for (const table of index.tables)
    if (table.parent_uuid !== null && groupUuids.has(table.parent_uuid) && !plan.tables.has(table))
      plan.tables.set(table, reason);
}

function planMemberDeletions(
  entries: ShapedPatch['deletions']['columns'] | ShapedPatch['deletions']['indexes'],
  kind: 'columns' | 'indexes',
  index: DocumentIndex,
  plan: DeletionPlan,
  problems: ProblemList,
): void {
  for (const { entry, path } of entries) {
    const table = index.tableByNameOrUuid(entry.table);
    if (table === undefined) {
      problems.add(pathOf(path, 'table'), `table ${quoteName(entry.table)} does not exist in the diagram`);
      continue;
    }
    const names = 'columns' in entry ? entry.columns : entry.indexes;
    const existing = kind === 'columns' ? index.columnLookup(table) : index.indexNames(table);
    plan.entryCount += names.length;
    for (const [position, name] of names.entries()) {
      if (existing.has(name)) addTo(kind === 'columns' ? plan.columns : plan.indexes, table, name);
      else
        problems.add(
          `${pathOf(path, kind)}[${position}]`,
          `${kind === 'columns' ? 'column' : 'index'} ${quoteName(name)} does not exist in table ${quoteName(table.name)}`,
        );
    }
  }
}

export function planDeletions(
  shaped: ShapedPatch,
  index: DocumentIndex,
  problems: ProblemList,
): DeletionPlan {
  const deletions = shaped.deletions;
  const plan: DeletionPlan = {
    tables: new Map(),
    columns: new Map(),
    indexes: new Map(),
    groups: new Map(),
    relationshipKeys: new Set(),
    entryCount: deletions.tables.length + deletions.relationships.length,
  };
  plan.entryCount += deletions.groups.length + deletions.sticky_notes.length;
  for (const { entry: name, path } of deletions.tables) {
    const table = index.tableByName.get(name);
    if (table === undefined) problems.add(path, `table ${quoteName(name)} does not exist in the diagram`);
    else plan.tables.set(table, EXPLICIT_TABLE_DELETION);
  }
  for (const { entry, path } of deletions.groups) {
    const group = index.groupByName.get(entry.name);
    if (group === undefined) {
      problems.add(pathOf(path, 'name'), `group ${quoteName(entry.name)} does not exist in the diagram`);
      continue;
    }
    plan.groups.set(group, path);
    if (entry.delete_children === true) deleteGroupChildren(group, index, plan);
  }
  planMemberDeletions(deletions.columns, 'columns', index, plan, problems);
  planMemberDeletions(deletions.indexes, 'indexes', index, plan, problems);
  for (const { entry, path } of deletions.relationships) {
    const key = relationshipKey(entry);
    if (index.relationshipKeys.has(key)) plan.relationshipKeys.add(key);
    else problems.add(path, `the diagram has no relationship ${describeEndpoints(entry)}`);
  }
  for (const { entry: uuid, path } of deletions.sticky_notes)
    if (!index.stickyNoteUuids.has(uuid))
      problems.add(path, `sticky note ${quoteName(uuid)} does not exist in the diagram`);
  return plan;
}
