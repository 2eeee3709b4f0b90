// The tables and columns the diagram will have once the patch is applied (document, minus deletions, with
// renames, plus the patch's entries), for checking what indexes and relationships refer to. Answers come
// from the document's indexes and the patch entries directly, so no per-table copy is built.
import type { DocumentTable } from '../model';
import type { DeletionPlan } from './deletion-plan';
import type { DocumentIndex } from './document-index';
import { quoteName } from './problem-list';
import type { TablePlan } from './table-plan';

interface FinalTable {
  plan: TablePlan | null;
  existing: DocumentTable | null;
}

export class FinalSchema {
  private readonly tables = new Map<string, FinalTable>();
  private readonly renamedTables = new Map<string, string>();
  private readonly columnSets = new Map<string, ReadonlySet<string>>();
  private readonly deletedTableNames: ReadonlyMap<string, string>;

  constructor(
    private readonly index: DocumentIndex,
    plans: readonly TablePlan[],
    private readonly deletions: DeletionPlan,
  ) {
    const changed = new Set<DocumentTable>();
    for (const plan of plans) {
      if (plan.target === null) continue;
      changed.add(plan.target);
      if (plan.target.name !== plan.located.entry.name)
        this.renamedTables.set(plan.target.name, plan.located.entry.name);
    }
    for (const table of index.tables)
      if (!changed.has(table) && !deletions.tables.has(table))
        this.tables.set(table.name, { plan: null, existing: table });
    for (const plan of plans) this.tables.set(plan.located.entry.name, { plan, existing: plan.target });
    this.deletedTableNames = new Map([...deletions.tables].map(([table, reason]) => [table.name, reason]));
  }

  hasTable(name: string): boolean {
    return this.tables.has(name);
  }

  /** Why `name` is not a table of the patched diagram. */
  missingTableReason(name: string): string {
    const newName = this.renamedTables.get(name);
    if (newName !== undefined)
      return `table ${quoteName(name)} is renamed to ${quoteName(newName)} by this patch`;
    const deleted = this.deletedTableNames.get(name);
    if (deleted !== undefined) return `table ${quoteName(name)} is deleted by this patch (${deleted})`;
    return `table ${quoteName(name)} exists neither in the diagram nor in the patch`;
  }

  /** Whether table `tableName` (which exists) has `column` once the patch is applied. */
  hasColumn(tableName: string, column: string): boolean {
    const table = this.tables.get(tableName);
    if (table === undefined) return false;
    const entryColumns = table.plan?.located.entry.columns ?? [];
    if (entryColumns.length <= 32) {
      if (entryColumns.some((entry) => entry.name === column)) return true;
    } else if (this.patchColumnNames(tableName, entryColumns).has(column)) return true;
    const existing = table.existing;
    if (existing === null || !this.index.hasColumn(existing, column)) return false;
    if (this.deletions.columns.get(existing)?.has(column)) return false;
    return !entryColumns.some((entry) => entry.old_name === column && entry.name !== column);
  }

  private patchColumnNames(tableName: string, entries: readonly { name: string }[]): ReadonlySet<string> {
    let names = this.columnSets.get(tableName);
    if (names === undefined) {
      names = new Set(entries.map((entry) => entry.name));
      this.columnSets.set(tableName, names);
    }
    return names;
  }

  /** Why `column` is not a column of table `tableName` (which exists) in the patched diagram. */
  missingColumnReason(tableName: string, column: string): string {
    const table = this.tables.get(tableName);
    const newName = this.columnRenames(table?.plan ?? null).get(column);
    if (newName !== undefined)
      return `column ${quoteName(column)} of table ${quoteName(tableName)} is renamed to ${quoteName(newName)} by this patch`;
    if (table?.existing && this.deletions.columns.get(table.existing)?.has(column))
      return `column ${quoteName(column)} of table ${quoteName(tableName)} is deleted by this patch`;
    return `table ${quoteName(tableName)} has no column ${quoteName(column)}`;
  }

  private columnRenames(plan: TablePlan | null): ReadonlyMap<string, string> {
    const renames = new Map<string, string>();
    for (const column of plan?.located.entry.columns ?? [])
      if (column.old_name !== undefined && column.old_name !== column.name)
        renames.set(column.old_name, column.name);
    return renames;
  }
}
