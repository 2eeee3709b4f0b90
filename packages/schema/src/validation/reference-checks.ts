// What entries refer to must exist once the patch is applied: index columns, relationship endpoints,
// parent groups. References to something the same patch renames or deletes are reported as conflicts.
import type { Group } from '../model';
import type { DeletionPlan } from './deletion-plan';
import { type DocumentIndex, relationshipKey } from './document-index';
import type { FinalSchema } from './final-schema';
import { describeEndpoints, type ProblemList, pathOf, quoteName } from './problem-list';
import type { Located, ShapedGroup, ShapedPatch } from './shaped-types';
import type { TablePlan } from './table-plan';

export function checkIndexColumns(
  plans: readonly TablePlan[],
  final: FinalSchema,
  problems: ProblemList,
): void {
  for (const { located } of plans) {
    const tableName = located.entry.name;
    for (const [position, index] of (located.entry.indexes ?? []).entries())
      for (const [columnPosition, column] of index.columns.entries())
        if (!final.hasColumn(tableName, column))
          problems.add(
            `${located.path}.indexes[${position}].columns[${columnPosition}]`,
            `index ${quoteName(index.name)}: ${final.missingColumnReason(tableName, column)}`,
          );
  }
}

interface EndpointContext {
  final: FinalSchema;
  /** Tables whose entries failed the contract: their columns are unknown, so references go unchecked. */
  unchecked: ReadonlySet<string>;
  problems: ProblemList;
}

function checkEndpoint(table: string, column: string, path: string, context: EndpointContext): void {
  const { final, problems } = context;
  if (context.unchecked.has(table)) return;
  if (!final.hasTable(table)) problems.add(path, final.missingTableReason(table));
  else if (!final.hasColumn(table, column)) problems.add(path, final.missingColumnReason(table, column));
}

export function checkRelationships(
  shaped: ShapedPatch,
  final: FinalSchema,
  deletions: DeletionPlan,
  problems: ProblemList,
): void {
  const seen = new Set<string>();
  for (const { entry, path } of shaped.relationships) {
    const context = { final, unchecked: shaped.rejectedTableNames, problems };
    checkEndpoint(entry.source_table, entry.source_column, pathOf(path, 'source_column'), context);
    checkEndpoint(entry.target_table, entry.target_column, pathOf(path, 'target_column'), context);
    const key = relationshipKey(entry);
    if (deletions.relationshipKeys.has(key))
      problems.add(
        path,
        `relationship ${describeEndpoints(entry)} is both in relationships and in deletions.relationships`,
      );
    if (seen.has(key)) problems.add(path, `relationship ${describeEndpoints(entry)} is listed twice`);
    seen.add(key);
  }
}

interface Parented {
  parent_name?: string;
  parent_uuid?: string;
}

/** Checks that groups and the parents tables and sticky notes name exist and are not being deleted. */
export function checkGroups(
  shaped: ShapedPatch,
  index: DocumentIndex,
  deletions: DeletionPlan,
  problems: ProblemList,
): void {
  const deletedGroupNames = new Set([...deletions.groups.keys()].map((group) => group.name));
  const patchGroups = new Map<string, Located<ShapedGroup>>();
  for (const located of shaped.groups) {
    patchGroups.set(located.entry.name, located);
    if (deletedGroupNames.has(located.entry.name))
      problems.add(
        pathOf(located.path, 'name'),
        `group ${quoteName(located.entry.name)} is both in groups and in deletions.groups`,
      );
  }
  const checkParent = ({ entry, path }: Located<Parented>, what: string): void => {
    let named: Group | string | undefined;
    if (entry.parent_name !== undefined) {
      const name = entry.parent_name;
      const known = patchGroups.has(name) || shaped.rejectedGroupNames.has(name);
      named = known ? name : index.groupByName.get(name);
      if (named === undefined)
        problems.add(
          pathOf(path, 'parent_name'),
          `group ${quoteName(name)} exists neither in the diagram nor in the patch`,
        );
      else if (deletedGroupNames.has(name))
        problems.add(
          pathOf(path, 'parent_name'),
          `${what} is put in group ${quoteName(name)}, which deletions.groups deletes`,
        );
    }
    if (entry.parent_uuid === undefined) return;
    const group = index.groupByUuid.get(entry.parent_uuid);
    const uuidPath = pathOf(path, 'parent_uuid');
    if (group === undefined)
      problems.add(uuidPath, `no group of the diagram has UUID ${quoteName(entry.parent_uuid)}`);
    else if (deletions.groups.has(group))
      problems.add(
        uuidPath,
        `${what} is put in group ${quoteName(group.name)}, which deletions.groups deletes`,
      );
    else if (named !== undefined && named !== group && named !== group.name)
      problems.add(uuidPath, `parent_uuid and parent_name name different groups`);
  };
  for (const table of shaped.tables) checkParent(table, `table ${quoteName(table.entry.name)}`);
  for (const [position, note] of shaped.sticky_notes.entries())
    checkParent(note, `sticky note ${position + 1}`);
}
