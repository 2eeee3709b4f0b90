// Types of a schema patch after normalisation and validation. `validate` returns a `Patch` only when the
// input had no problems, so code that applies a patch never sees a value of the wrong type.
import type { DataTypeParams, IndexMethod, RelationshipType } from './model';

export const STRATEGIES = ['merge', 'additive'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** A data type resolved against the driver's catalog: canonical name and parameters. */
export interface ResolvedDataType {
  name: string;
  params: DataTypeParams | null;
}

export interface PatchColumn {
  name: string;
  old_name?: string;
  /** The type as the patch wrote it (`varchar(255)`, `int4`). */
  type: string;
  /** The same type resolved for the diagram's driver (canonical name, `length`, `enum_values` folded in). */
  data_type: ResolvedDataType;
  length?: number;
  is_primary_key?: boolean;
  is_auto_increment?: boolean;
  is_nullable?: boolean;
  is_unique_key?: boolean;
  is_index?: boolean;
  is_unsigned?: boolean;
  default?: string;
  enum_values?: string[];
  comment?: string;
  collation?: string;
  enum_name?: string;
}

export interface PatchIndex {
  name: string;
  type: 'primary' | 'unique' | 'index';
  columns: string[];
  /** Absent: an existing index keeps its method (a new one has the driver's default). */
  method?: IndexMethod;
  /** Absent: an existing index keeps its note. */
  note?: string;
}

export interface PatchFrame {
  left?: number;
  top?: number;
  width?: number;
  height?: number;
}

export interface PatchTable extends PatchFrame {
  name: string;
  old_name?: string;
  comment?: string;
  parent_name?: string;
  parent_uuid?: string;
  columns: PatchColumn[];
  indexes: PatchIndex[];
  /** CHECK constraints to add, or to replace by name (absent: none sent). */
  checks?: PatchCheck[];
  charset?: string;
  collation?: string;
}

export interface PatchCheck {
  name: string;
  expression: string;
}

export interface RelationshipEndpoints {
  source_table: string;
  source_column: string;
  target_table: string;
  target_column: string;
}

export interface PatchRelationship extends RelationshipEndpoints {
  type: RelationshipType;
}

export interface PatchGroup extends PatchFrame {
  name: string;
}

export interface PatchStickyNote extends PatchFrame {
  content: string;
  parent_name?: string;
  parent_uuid?: string;
}

export interface PatchDeletions {
  tables: string[];
  /** `table` is a table name or a table UUID. */
  columns: { table: string; columns: string[] }[];
  indexes: { table: string; indexes: string[] }[];
  relationships: RelationshipEndpoints[];
  groups: { name: string; delete_children: boolean }[];
  /** Sticky note UUIDs. */
  sticky_notes: string[];
}

export interface Patch {
  strategy: Strategy;
  tables: PatchTable[];
  groups: PatchGroup[];
  relationships: PatchRelationship[];
  sticky_notes: PatchStickyNote[];
  deletions: PatchDeletions;
}

/** One ignored field of the input, reported back to the client in `warnings`. */
export interface PatchWarning {
  code: 'unknown_key';
  /** Where the key was found, e.g. `tables[0].columns[2]` (empty string for the top level). */
  path: string;
  key: string;
  message: string;
}

/** One validation problem, listed in `errors` of a 422 `invalid_schema`. */
export interface PatchProblem {
  /** Where the problem is, e.g. `tables[1].columns[0].type`. */
  path: string;
  message: string;
}

/** The most problems a validation reports. */
export const MAX_PROBLEMS = 15;

export type ValidationMode = 'create' | 'propose';
