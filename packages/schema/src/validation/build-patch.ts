// The typed Patch of a valid patch: sections always present, types resolved, deletions in array form.
// Only called when validation found no problems, so every entry has conformed to the contract.
import type {
  Patch,
  PatchColumn,
  PatchDeletions,
  PatchFrame,
  PatchGroup,
  PatchIndex,
  PatchStickyNote,
  PatchTable,
  Strategy,
} from '../patch-types';
import { copyDataTypeParams } from '../project';
import type { ResolvedColumn } from './column-checks';
import type { ShapedFrame, ShapedPatch } from './shaped-types';
import type { TablePlan } from './table-plan';

const FRAME_KEYS = ['left', 'top', 'width', 'height'] as const;

function copyFrame(from: ShapedFrame, to: PatchFrame): void {
  for (const key of FRAME_KEYS) if (from[key] !== undefined) to[key] = from[key];
}

/** Copies the fields that were sent; absent optional fields stay absent (a merge leaves them unchanged). */
function copyDefined<T extends object, K extends keyof T>(from: T, to: Partial<T>, keys: readonly K[]): void {
  for (const key of keys) if (from[key] !== undefined) to[key] = from[key];
}

function buildColumn({ located, dataType, isUnsigned }: ResolvedColumn): PatchColumn {
  const entry = located.entry;
  // `dataType` is shared with the type catalog's memo, so each column gets its own copy.
  const data_type = { name: dataType.name, params: copyDataTypeParams(dataType.params) };
  const column: PatchColumn = { name: entry.name, type: entry.type, data_type };
  // Field by field rather than a loop over key names: a patch has thousands of columns, and named property
  // access is several times faster than access by a computed key. Fields not sent stay absent.
  if (entry.old_name !== undefined) column.old_name = entry.old_name;
  if (entry.length !== undefined) column.length = entry.length;
  if (entry.is_primary_key !== undefined) column.is_primary_key = entry.is_primary_key;
  if (entry.is_auto_increment !== undefined) column.is_auto_increment = entry.is_auto_increment;
  if (entry.is_nullable !== undefined) column.is_nullable = entry.is_nullable;
  if (entry.is_unique_key !== undefined) column.is_unique_key = entry.is_unique_key;
  if (entry.is_index !== undefined) column.is_index = entry.is_index;
  if (entry.default !== undefined) column.default = entry.default;
  if (entry.comment !== undefined) column.comment = entry.comment;
  if (entry.collation !== undefined) column.collation = entry.collation;
  if (entry.enum_name !== undefined) column.enum_name = entry.enum_name;
  if (isUnsigned !== undefined) column.is_unsigned = isUnsigned;
  if (entry.enum_values !== undefined) column.enum_values = [...entry.enum_values];
  return column;
}

function buildTable(plan: TablePlan): PatchTable {
  const entry = plan.located.entry;
  const indexes: PatchIndex[] = (entry.indexes ?? []).map((index) => {
    const built: PatchIndex = { name: index.name, type: index.type, columns: [...index.columns] };
    if (index.method !== undefined) built.method = index.method;
    if (index.note !== undefined) built.note = index.note;
    return built;
  });
  const table: PatchTable = { name: entry.name, columns: (plan.columns ?? []).map(buildColumn), indexes };
  if (entry.checks !== undefined)
    table.checks = entry.checks.map((check) => ({ name: check.name, expression: check.expression }));
  copyDefined(entry, table, [
    'old_name',
    'comment',
    'parent_name',
    'parent_uuid',
    'charset',
    'collation',
  ] as const);
  copyFrame(entry, table);
  return table;
}

function buildDeletions(deletions: ShapedPatch['deletions']): PatchDeletions {
  return {
    tables: deletions.tables.map(({ entry }) => entry),
    columns: deletions.columns.map(({ entry }) => ({ table: entry.table, columns: [...entry.columns] })),
    indexes: deletions.indexes.map(({ entry }) => ({ table: entry.table, indexes: [...entry.indexes] })),
    relationships: deletions.relationships.map(({ entry }) => ({
      source_table: entry.source_table,
      source_column: entry.source_column,
      target_table: entry.target_table,
      target_column: entry.target_column,
    })),
    groups: deletions.groups.map(({ entry }) => ({
      name: entry.name,
      delete_children: entry.delete_children ?? false,
    })),
    sticky_notes: deletions.sticky_notes.map(({ entry }) => entry),
  };
}

export function buildPatch(shaped: ShapedPatch, strategy: Strategy, plans: readonly TablePlan[]): Patch {
  return {
    strategy,
    tables: plans.map(buildTable),
    groups: shaped.groups.map(({ entry }) => {
      const group: PatchGroup = { name: entry.name };
      copyFrame(entry, group);
      return group;
    }),
    relationships: shaped.relationships.map(({ entry }) => ({
      type: entry.type,
      source_table: entry.source_table,
      source_column: entry.source_column,
      target_table: entry.target_table,
      target_column: entry.target_column,
    })),
    sticky_notes: shaped.sticky_notes.map(({ entry }) => {
      const note: PatchStickyNote = { content: entry.content };
      copyDefined(entry, note, ['parent_name', 'parent_uuid'] as const);
      copyFrame(entry, note);
      return note;
    }),
    deletions: buildDeletions(shaped.deletions),
  };
}
