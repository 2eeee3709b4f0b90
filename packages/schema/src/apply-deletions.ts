// The `deletions` section (merge only). Deletions name entities as the document has them before the patch;
// a table may also be named by UUID or by the new name the same patch gives it.
import type { DocumentDraft } from './apply-draft';
import { clearDeletedKeyFlags } from './apply-keys';
import { endpointKey, reversedEndpointKey } from './apply-relationships';
import type { DocumentTable } from './model';
import type { PatchDeletions } from './patch-types';

interface Removed {
  tables: Set<string>;
  /** Table name → names of its deleted columns. */
  columns: Map<string, Set<string>>;
}

/**
 * Applies every deletion; references that no longer resolve are skipped (the diagram may have changed
 * between validation and review). `renamedFrom` maps a table's new name in the patch to its old name.
 */
export function applyDeletions(
  draft: DocumentDraft,
  deletions: PatchDeletions,
  renamedFrom: ReadonlyMap<string, string>,
): void {
  const resolve = (reference: string) =>
    draft.resolveTable(reference) ?? draft.resolveTable(renamedFrom.get(reference) ?? '\u0000');
  const removed: Removed = { tables: new Set(), columns: new Map() };
  for (const name of deletions.tables) {
    const table = resolve(name);
    if (table !== undefined) removeTable(draft, table, removed);
  }
  for (const entry of deletions.columns) {
    const table = resolve(entry.table);
    if (table !== undefined) removeColumns(draft, table, new Set(entry.columns), removed);
  }
  for (const entry of deletions.indexes) {
    const table = resolve(entry.table);
    if (table !== undefined) removeIndexes(draft, table, new Set(entry.indexes));
  }
  removeGroups(draft, deletions.groups, removed);
  for (const uuid of deletions.sticky_notes) draft.notes.delete(uuid);
  removeRelationships(draft, deletions, removed);
}

function removeTable(draft: DocumentDraft, table: DocumentTable, removed: Removed): void {
  draft.tables.delete(table.uuid);
  removed.tables.add(table.name);
}

/** A deleted column takes with it every index that uses it and every relationship that links it. */
function removeColumns(
  draft: DocumentDraft,
  table: DocumentTable,
  names: Set<string>,
  removed: Removed,
): void {
  if (!table.columns.some((column) => names.has(column.name))) return;
  const edited = draft.editTable(table.uuid);
  edited.columns = edited.columns.filter((column) => !names.has(column.name));
  edited.indexes = edited.indexes.filter((index) => !index.columns.some((column) => names.has(column)));
  const columns = removed.columns.get(table.name) ?? new Set<string>();
  for (const name of names) columns.add(name);
  removed.columns.set(table.name, columns);
}

/** Removes the named indexes and CHECK constraints (deletions.indexes names either). */
function removeIndexes(draft: DocumentDraft, table: DocumentTable, names: Set<string>): void {
  const checks = table.checks ?? [];
  if (!table.indexes.some((index) => names.has(index.name)) && !checks.some((check) => names.has(check.name)))
    return;
  const edited = draft.editTable(table.uuid);
  const removed = edited.indexes.filter((index) => names.has(index.name));
  edited.indexes = edited.indexes.filter((index) => !names.has(index.name));
  clearDeletedKeyFlags(draft, edited, removed);
  if (checks.some((check) => names.has(check.name)))
    edited.checks = checks.filter((check) => !names.has(check.name));
}

/**
 * `delete_children: false` ungroups the members (tables, sticky notes and nested groups move to the top
 * level); `true` deletes the group with its tables, its sticky notes and its nested groups, recursively.
 */
function removeGroups(draft: DocumentDraft, entries: PatchDeletions['groups'], removed: Removed): void {
  if (entries.length === 0) return;
  const deleted = new Set<string>();
  const ungrouped = new Set<string>();
  const children = childGroupsByParent(draft);
  for (const entry of entries) {
    const uuid = draft.groupNames.get(entry.name);
    if (uuid === undefined) continue;
    if (!entry.delete_children) ungrouped.add(uuid);
    else for (const descendant of withDescendants(uuid, children)) deleted.add(descendant);
  }
  for (const uuid of [...deleted, ...ungrouped]) draft.groups.delete(uuid);
  for (const group of [...draft.groups.values()]) {
    if (group.parent_uuid !== null && ungrouped.has(group.parent_uuid))
      draft.editGroup(group.uuid).parent_uuid = null;
  }
  for (const table of [...draft.tables.values()]) {
    if (table.parent_uuid === null) continue;
    if (deleted.has(table.parent_uuid)) removeTable(draft, table, removed);
    else if (ungrouped.has(table.parent_uuid)) draft.editTable(table.uuid).parent_uuid = null;
  }
  for (const note of [...draft.notes.values()]) {
    if (note.parent_uuid === null) continue;
    if (deleted.has(note.parent_uuid)) draft.notes.delete(note.uuid);
    else if (ungrouped.has(note.parent_uuid)) draft.editNote(note.uuid).parent_uuid = null;
  }
}

function childGroupsByParent(draft: DocumentDraft): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const group of draft.groups.values()) {
    if (group.parent_uuid === null) continue;
    const siblings = children.get(group.parent_uuid) ?? [];
    siblings.push(group.uuid);
    children.set(group.parent_uuid, siblings);
  }
  return children;
}

function withDescendants(uuid: string, children: ReadonlyMap<string, string[]>): Set<string> {
  const found = new Set<string>([uuid]);
  for (const current of found) for (const child of children.get(current) ?? []) found.add(child);
  return found;
}

/** Drops relationships named in deletions (either direction) and those whose table or column is gone. */
function removeRelationships(draft: DocumentDraft, deletions: PatchDeletions, removed: Removed): void {
  const named = new Set<string>();
  for (const endpoints of deletions.relationships) {
    named.add(endpointKey(endpoints));
    named.add(reversedEndpointKey(endpoints));
  }
  if (named.size === 0 && removed.tables.size === 0 && removed.columns.size === 0) return;
  const isGone = (table: string, column: string) =>
    removed.tables.has(table) || removed.columns.get(table)?.has(column) === true;
  draft.relationships = draft.relationships.filter(
    (r) =>
      !isGone(r.source_table, r.source_column) &&
      !isGone(r.target_table, r.target_column) &&
      (named.size === 0 || !named.has(endpointKey(r))),
  );
}
