// Table entries matched to the diagram: which existing table each one changes (by old_name when renaming,
// else by name), its columns resolved, and every way the entry conflicts with the rest of the patch.
import type { Driver, DocumentTable } from '../model';
import type { Strategy } from '../patch-types';
import { type ResolvedColumn, resolveColumn } from './column-checks';
import { type DeletionPlan, EXPLICIT_TABLE_DELETION } from './deletion-plan';
import type { DocumentIndex } from './document-index';
import { type ProblemList, pathOf, quoteName } from './problem-list';
import { checkRenames } from './renames';
import type { Located, ShapedColumn, ShapedTable } from './shaped-types';

export interface TablePlan {
  located: Located<ShapedTable>;
  /** The existing table the entry changes; null for a new table. */
  target: DocumentTable | null;
  /** Resolved columns; null when a column has a problem (already reported). */
  columns: ResolvedColumn[] | null;
}

interface Context {
  driver: Driver;
  strategy: Strategy | null;
  index: DocumentIndex;
  deletions: DeletionPlan;
  problems: ProblemList;
}

/** A column entry whose path is built only when a problem names it (most columns of a patch have none). */
class LocatedColumn implements Located<ShapedColumn> {
  constructor(
    readonly entry: ShapedColumn,
    private readonly tablePath: string,
    private readonly position: number,
  ) {}

  get path(): string {
    return `${this.tablePath}.columns[${this.position}]`;
  }
}

function locatedColumns(table: Located<ShapedTable>): Located<ShapedColumn>[] {
  return (table.entry.columns ?? []).map((entry, position) => new LocatedColumn(entry, table.path, position));
}

function checkMemberConflicts(plan: TablePlan, columns: Located<ShapedColumn>[], context: Context): void {
  const target = plan.target;
  if (target === null) return;
  const deletedColumns = context.deletions.columns.get(target);
  if (deletedColumns !== undefined)
    for (const { entry, path } of columns) {
      const existingName = entry.old_name ?? entry.name;
      if (deletedColumns.has(existingName))
        context.problems.add(
          path,
          `column ${quoteName(existingName)} of table ${quoteName(target.name)} is both in tables and in deletions.columns`,
        );
    }
  const deletedIndexes = context.deletions.indexes.get(target);
  if (deletedIndexes !== undefined)
    for (const [position, entry] of (plan.located.entry.indexes ?? []).entries())
      if (deletedIndexes.has(entry.name))
        context.problems.add(
          `${plan.located.path}.indexes[${position}]`,
          `index ${quoteName(entry.name)} of table ${quoteName(target.name)} is both in tables and in deletions.indexes`,
        );
}

function planTable(located: Located<ShapedTable>, context: Context): TablePlan {
  const { entry, path } = located;
  const target = context.index.tableByName.get(entry.old_name ?? entry.name) ?? null;
  const plan: TablePlan = { located, target, columns: null };
  const deletedBecause = target === null ? undefined : context.deletions.tables.get(target);
  if (deletedBecause !== undefined) {
    const name = quoteName(target!.name);
    const message =
      deletedBecause === EXPLICIT_TABLE_DELETION
        ? `table ${name} is both in tables and in deletions.tables`
        : `table ${name} is in tables but is also deleted ${deletedBecause}`;
    context.problems.add(pathOf(path, 'name'), message);
  }
  const columns = locatedColumns(located);
  if (columns.some((column) => column.entry.old_name !== undefined)) {
    const existingNames = target === null ? new Set<string>() : context.index.columnLookup(target);
    const container =
      target === null ? `new table ${quoteName(entry.name)}` : `table ${quoteName(target.name)}`;
    checkRenames(
      columns,
      { kind: 'column', container, existingNames, strategy: context.strategy },
      context.problems,
    );
  }
  checkMemberConflicts(plan, columns, context);
  const resolved = columns.map((column) => resolveColumn(context.driver, column, context.problems));
  if (resolved.every((column) => column !== null)) plan.columns = resolved as ResolvedColumn[];
  return plan;
}

export function planTables(
  tables: readonly Located<ShapedTable>[],
  driver: Driver,
  strategy: Strategy | null,
  index: DocumentIndex,
  deletions: DeletionPlan,
  problems: ProblemList,
): TablePlan[] {
  if (tables.some((table) => table.entry.old_name !== undefined)) {
    const scope = { kind: 'table', container: 'the diagram', existingNames: index.tableByName, strategy };
    checkRenames(tables, scope, problems);
  }
  const context: Context = { driver, strategy, index, deletions, problems };
  return tables.map((table) => planTable(table, context));
}
