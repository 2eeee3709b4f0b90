// Rename rules shared by tables and columns (callers skip scopes where no entry renames: without renames,
// normalisation has already merged entries that share a name): an old name must exist, a new name must not collide with an
// existing one or another entry's, and no entity may be renamed twice or renamed while another entry
// still uses its old name. Existing names count even when that entity is itself renamed away, so a
// patch never depends on the order renames are applied in.
import type { Strategy } from '../patch-types';
import { SmallMap } from '../small-map';
import { type ProblemList, pathOf, quoteName } from './problem-list';
import type { Located } from './shaped-types';

interface Renameable {
  name: string;
  old_name?: string;
}

export interface RenameScope {
  /** `table` or `column`, for messages. */
  kind: string;
  /** Where the entities live, for messages: `the diagram`, `table "users"`. */
  container: string;
  existingNames: { has(name: string): boolean };
  strategy: Strategy | null;
}

/**
 * Reports every rename problem among the entries of one scope (the tables, or one table's columns). Entries'
 * paths are read only to report a problem: a column entry builds its path on demand, and most have none.
 */
export function checkRenames<T extends Renameable>(
  entries: readonly Located<T>[],
  scope: RenameScope,
  problems: ProblemList,
): void {
  const byName = new SmallMap<Located<T>>();
  const byOldName = new SmallMap<Located<T>>();
  for (const located of entries) {
    const entry = located.entry;
    if (byName.has(entry.name))
      problems.add(
        pathOf(located.path, 'name'),
        `two ${scope.kind} entries are named ${quoteName(entry.name)} but rename different ${scope.kind}s`,
      );
    else byName.set(entry.name, located);
    const oldName = entry.old_name;
    if (oldName === undefined || oldName === entry.name) continue;
    if (scope.strategy === 'additive')
      problems.add(
        pathOf(located.path, 'old_name'),
        `renaming ${scope.kind} ${quoteName(oldName)} needs strategy merge (additive only adds)`,
      );
    if (byOldName.has(oldName))
      problems.add(pathOf(located.path, 'old_name'), `${scope.kind} ${quoteName(oldName)} is renamed twice`);
    byOldName.set(oldName, located);
    if (!scope.existingNames.has(oldName))
      problems.add(
        pathOf(located.path, 'old_name'),
        `${scope.kind} ${quoteName(oldName)} does not exist in ${scope.container}`,
      );
    if (scope.existingNames.has(entry.name))
      problems.add(
        pathOf(located.path, 'name'),
        `cannot rename ${scope.kind} ${quoteName(oldName)} to ${quoteName(entry.name)}: ${scope.container} already has a ${scope.kind} with that name`,
      );
  }
  byOldName.forEach((renamer, oldName) => {
    const user = byName.get(oldName);
    if (user !== undefined)
      problems.add(
        pathOf(user.path, 'name'),
        `${scope.kind} ${quoteName(oldName)} is renamed by ${renamer.path}, so another entry cannot also use that name`,
      );
  });
}
