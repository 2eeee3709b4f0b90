// The schema model: what the schema endpoint returns (inside `data`) and the full, re-importable diagram
// document (the schema plus canvas). Field names are the wire names of the API, so a model object can be
// serialised as it is.

export const DRIVERS = ['mysql', 'pgsql', 'sqlsrv'] as const;
export type Driver = (typeof DRIVERS)[number];

/** Version of the schema format carried as `schema_version` in schema responses. */
export const SCHEMA_VERSION = 1;

/** Parameters of a column's data type, as resolved against the driver's catalog. */
export interface DataTypeParams {
  /** Length of character, binary and bit types; `'max'` for SQL Server's `(max)`. */
  length?: number | 'max';
  /** Precision of exact numerics, or fractional-second precision of time types. */
  precision?: number;
  /** Scale of exact numerics. */
  scale?: number;
  /** Allowed values of `enum` and `set` columns. */
  values?: string[];
  /** True for PostgreSQL array columns (`text[]`). */
  array?: boolean;
  /** Field restriction of a PostgreSQL `interval` (`year to month`, `day to second`…). */
  fields?: string;
}

export interface Column {
  uuid: string;
  name: string;
  driver_data_type_name: string;
  driver_data_type_params: DataTypeParams | null;
  default: string | null;
  is_nullable: boolean;
  is_primary_key: boolean;
  is_unique_key: boolean;
  is_index: boolean;
  is_auto_increment: boolean;
  is_unsigned: boolean;
  comment: string | null;
  /**
   * Collation of a character column (`utf8mb4_bin`, `C`, `"de-DE-x-icu"` as the server names it). Absent
   * means the table's (MySQL) or the database's default. Optional: documents saved before it existed and
   * columns without one keep the shape they had.
   */
  collation?: string;
  /**
   * The name of the enum type of an enum column (PostgreSQL `CREATE TYPE mood AS ENUM`, DBML `enum mood`),
   * schema-qualified when not in the default schema. Absent means the export names one itself.
   */
  enum_name?: string;
}

export const INDEX_TYPES = ['primary', 'unique', 'index'] as const;
export type IndexType = (typeof INDEX_TYPES)[number];

export interface Index {
  uuid: string;
  name: string;
  type: IndexType;
  /** Column names, in index order. */
  columns: string[];
  /**
   * PostgreSQL: a unique key declared as a UNIQUE constraint (so `DROP CONSTRAINT` works on it), not a
   * unique index. Absent means an index; set by the DDL import, kept by the export and migrations.
   */
  is_constraint?: boolean;
  /**
   * Index method where the driver has a choice: PostgreSQL `USING btree|hash|gin|gist|brin|spgist`, MySQL
   * `USING BTREE|HASH`, MySQL `FULLTEXT` and `SPATIAL` indexes. Absent means the driver's default (btree).
   */
  method?: IndexMethod;
  /** A note on the index (DBML `note:`); kept in the model and DBML, not written to SQL. */
  note?: string;
}

export const INDEX_METHODS = [
  'btree',
  'hash',
  'gin',
  'gist',
  'brin',
  'spgist',
  'fulltext',
  'spatial',
] as const;
export type IndexMethod = (typeof INDEX_METHODS)[number];

export const RELATIONSHIP_TYPES = ['one-to-one', 'one-to-many', 'many-to-one'] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/**
 * A link between two columns. Stored in one canonical direction: the source is the side that holds the
 * foreign key, so a stored relationship is `many-to-one` or `one-to-one`, never `one-to-many`.
 * Tables and columns are referenced by name; renames are carried through by the patch engine.
 */
export interface Relationship {
  uuid: string;
  name: string | null;
  type: 'many-to-one' | 'one-to-one';
  source_table: string;
  source_column: string;
  target_table: string;
  target_column: string;
  on_delete: string | null;
  on_update: string | null;
}

/** A table-level CHECK constraint. `expression` is the condition without `CHECK` and its outer parentheses. */
export interface Check {
  name: string;
  expression: string;
}

export interface Table {
  uuid: string;
  name: string;
  comment: string | null;
  columns: Column[];
  indexes: Index[];
  /** CHECK constraints, in schema order. Absent (documents saved before checks existed) means none. */
  checks?: Check[];
  /** MySQL/MariaDB: the table's default character set (`utf8mb4`). Absent means the database's default. */
  charset?: string;
  /** MySQL/MariaDB: the table's default collation (`utf8mb4_unicode_ci`). Absent means the charset's default. */
  collation?: string;
}

/** `data` of GET /diagrams/{uuid}/schema: tables sorted by name, columns and indexes in schema order. */
export interface Schema {
  driver: Driver;
  schema_version: number;
  tables: Table[];
  relationships: Relationship[];
}

/** Position and size on the canvas, in pixels. */
export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface DocumentTable extends Table, Frame {
  color: string | null;
  /** UUID of the group the table belongs to, or null. */
  parent_uuid: string | null;
}

export interface Group extends Frame {
  uuid: string;
  name: string;
  color: string | null;
  parent_uuid: string | null;
}

export interface StickyNote extends Frame {
  uuid: string;
  content: string;
  color: string | null;
  parent_uuid: string | null;
}

/** The full diagram document: the schema plus canvas layout, groups and sticky notes. Re-importable. */
export interface DiagramDocument {
  driver: Driver;
  schema_version: number;
  tables: DocumentTable[];
  relationships: Relationship[];
  groups: Group[];
  sticky_notes: StickyNote[];
}

export function emptyDocument(driver: Driver): DiagramDocument {
  return {
    driver,
    schema_version: SCHEMA_VERSION,
    tables: [],
    relationships: [],
    groups: [],
    sticky_notes: [],
  };
}
