// Never accept a change the database would refuse: the patch is applied (the result is kept for the
// caller's own apply, src/apply-memo.ts) and every foreign key of the result is checked (src/integrity.ts).
// A foreign key the database would refuse is a problem unless the diagram already held it in that state
// (an import can bring one): such keys are kept, never made worse, and reported by `relationshipIssues`
// for the diagram itself. A patch may fix a broken key in the same change that breaks it.
import { apply } from '../apply';
import { keepApplied } from '../apply-memo';
import { relationshipIssues, type RelationshipIssue } from '../integrity';
import { type DiagramDocument, type Driver, emptyDocument } from '../model';
import type { Patch } from '../patch-types';
import type { ProblemList } from './problem-list';

export function checkRelationshipIntegrity(
  document: DiagramDocument | null,
  patch: Patch,
  driver: Driver,
  problems: ProblemList,
): void {
  if (!mayChangeForeignKeys(document, patch)) return;
  const before = document ?? emptyDocument(driver);
  const result = apply(before, patch);
  keepApplied(patch, before, result);
  const known = new Set(document === null ? [] : relationshipIssues(document).map((issue) => issue.key));
  for (const issue of relationshipIssues(result.document))
    if (!known.has(issue.key)) problems.add(pathOf(issue, patch), issue.message);
}

/**
 * Only relationships, changes to existing tables and index deletions can make a foreign key invalid; and of
 * the changes to a table, adding a column can only when it joins the primary key (a key a relationship
 * targets is no longer the whole key) or a relationship names it already (one the check skipped while the
 * column was missing). The editor adds columns to a diagram of hundreds of foreign keys at every keystroke
 * that commits one, and the whole check applies the patch and reads every key twice.
 */
function mayChangeForeignKeys(document: DiagramDocument | null, patch: Patch): boolean {
  if (patch.relationships.length > 0) return true;
  if (document === null || document.relationships.length === 0) return false;
  if (patch.strategy === 'additive') return false;
  if (patch.deletions.indexes.length > 0) return true;
  const tables = new Map(document.tables.map((table) => [table.name, table]));
  let named: Set<string> | null = null;
  const isNamed = (table: string, column: string) => {
    named ??= new Set(
      document.relationships.flatMap((r) => [
        `${r.source_table}\u0000${r.source_column}`,
        `${r.target_table}\u0000${r.target_column}`,
      ]),
    );
    return named.has(`${table}\u0000${column}`);
  };
  return patch.tables.some((entry) => {
    const existing = tables.get(entry.old_name ?? entry.name);
    if (existing === undefined || (entry.columns.length === 0 && entry.indexes.length === 0)) return false;
    if (entry.old_name !== undefined || entry.indexes.length > 0) return true;
    return entry.columns.some(
      (column) =>
        column.old_name !== undefined ||
        column.is_primary_key === true ||
        existing.columns.some((held) => held.name === column.name) ||
        isNamed(entry.name, column.name),
    );
  });
}

const pairKey = (a: string, b: string, c: string, d: string) => {
  const one = `${a}\u0000${b}`;
  const two = `${c}\u0000${d}`;
  return one < two ? `${one}\u0001${two}` : `${two}\u0001${one}`;
};

/** Where in the patch the broken key comes from: its relationship entry, else the entry that changed it. */
function pathOf(issue: RelationshipIssue, patch: Patch): string {
  const links = new Set(
    issue.relationships.map((r) => pairKey(r.source_table, r.source_column, r.target_table, r.target_column)),
  );
  const linked = patch.relationships.findIndex((entry) =>
    links.has(pairKey(entry.source_table, entry.source_column, entry.target_table, entry.target_column)),
  );
  if (linked >= 0) return `relationships[${linked}]`;
  const first = issue.relationships[0]!;
  const columns = new Map<string, Set<string>>([
    [first.target_table, new Set(issue.relationships.map((r) => r.target_column))],
  ]);
  if (issue.kind === 'incompatible_types') {
    const sources = columns.get(first.source_table) ?? new Set<string>();
    for (const r of issue.relationships) sources.add(r.source_column);
    columns.set(first.source_table, sources);
  }
  let tablePath = '';
  for (const [position, entry] of patch.tables.entries()) {
    const keyColumns = columns.get(entry.name);
    if (keyColumns === undefined) continue;
    // A key column itself, else (on the target table) a column whose key flags the entry sets.
    const keyFlags = entry.name === first.target_table;
    let column = entry.columns.findIndex((c) => keyColumns.has(c.name));
    if (column < 0 && keyFlags)
      column = entry.columns.findIndex(
        (c) => c.is_primary_key !== undefined || c.is_unique_key !== undefined,
      );
    if (column >= 0) return `tables[${position}].columns[${column}]`;
    if (entry.indexes.length > 0 && entry.name === first.target_table)
      return `tables[${position}].indexes[${entry.indexes.length - 1}]`;
    tablePath ||= `tables[${position}]`;
  }
  const deletion = patch.deletions.indexes.findIndex((entry) => entry.table === first.target_table);
  if (deletion >= 0) return `deletions.indexes[${deletion}]`;
  return tablePath;
}
