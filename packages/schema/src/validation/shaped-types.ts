// Entries of a normalised patch once `checkShape` has accepted them against the contract: the same field
// names and types as the contract document, nothing resolved yet (types are still written text).
import type { IndexMethod } from '../model';
import type { RelationshipEndpoints, Strategy } from '../patch-types';

export interface ShapedFrame {
  left?: number;
  top?: number;
  width?: number;
  height?: number;
}

export interface ShapedColumn {
  name: string;
  old_name?: string;
  type: string;
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

export interface ShapedIndex {
  name: string;
  type: 'primary' | 'unique' | 'index';
  columns: string[];
  method?: IndexMethod;
  note?: string;
}

export interface ShapedTable extends ShapedFrame {
  name: string;
  old_name?: string;
  comment?: string;
  parent_name?: string;
  parent_uuid?: string;
  columns?: ShapedColumn[];
  indexes?: ShapedIndex[];
  checks?: { name: string; expression: string }[];
  charset?: string;
  collation?: string;
}

export interface ShapedGroup extends ShapedFrame {
  name: string;
}

export interface ShapedStickyNote extends ShapedFrame {
  content: string;
  parent_name?: string;
  parent_uuid?: string;
}

export interface ShapedRelationship extends RelationshipEndpoints {
  type: 'one-to-one' | 'one-to-many' | 'many-to-one';
}

export interface ShapedTableColumns {
  table: string;
  columns: string[];
}

export interface ShapedTableIndexes {
  table: string;
  indexes: string[];
}

export interface ShapedGroupDeletion {
  name: string;
  delete_children?: boolean;
}

/** One accepted entry and where it sits in the normalised patch. */
export interface Located<T> {
  entry: T;
  path: string;
}

export interface ShapedPatch {
  strategy: Strategy | null;
  /**
   * Names (and old names) of table and group entries that failed the contract. What refers to them is not
   * checked, so one mistake is reported once and not again by every reference to the entry.
   */
  rejectedTableNames: Set<string>;
  rejectedGroupNames: Set<string>;
  tables: Located<ShapedTable>[];
  groups: Located<ShapedGroup>[];
  relationships: Located<ShapedRelationship>[];
  sticky_notes: Located<ShapedStickyNote>[];
  deletions: {
    present: boolean;
    tables: Located<string>[];
    columns: Located<ShapedTableColumns>[];
    indexes: Located<ShapedTableIndexes>[];
    relationships: Located<RelationshipEndpoints>[];
    groups: Located<ShapedGroupDeletion>[];
    sticky_notes: Located<string>[];
  };
}
