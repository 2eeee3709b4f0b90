// Counts reported instead of patch contents: proposals carry counts only, never names or values.
import type { DiagramDocument } from './model';
import type { Patch } from './patch-types';

export interface ProposalCounts {
  tables: number;
  columns: number;
  relationships: number;
  groups: number;
  sticky_notes: number;
  deletions: number;
}

export interface DocumentCounts {
  tables: number;
  columns: number;
  indexes: number;
  relationships: number;
  groups: number;
  sticky_notes: number;
}

/** How many entries each section of the patch names; `deletions` totals every entry under deletions. */
export function proposalCounts(patch: Patch): ProposalCounts {
  return {
    tables: patch.tables.length,
    columns: sum(patch.tables.map((table) => table.columns.length)),
    relationships: patch.relationships.length,
    groups: patch.groups.length,
    sticky_notes: patch.sticky_notes.length,
    deletions: deletionCount(patch.deletions),
  };
}

/** Size of a diagram, as returned with a created diagram. */
export function documentCounts(document: DiagramDocument): DocumentCounts {
  return {
    tables: document.tables.length,
    columns: sum(document.tables.map((table) => table.columns.length)),
    indexes: sum(document.tables.map((table) => table.indexes.length)),
    relationships: document.relationships.length,
    groups: document.groups.length,
    sticky_notes: document.sticky_notes.length,
  };
}

function deletionCount(deletions: Patch['deletions']): number {
  return (
    deletions.tables.length +
    sum(deletions.columns.map((entry) => entry.columns.length)) +
    sum(deletions.indexes.map((entry) => entry.indexes.length)) +
    deletions.relationships.length +
    deletions.groups.length +
    deletions.sticky_notes.length
  );
}

function sum(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
