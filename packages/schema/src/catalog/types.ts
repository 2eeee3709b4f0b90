// The shape of a data-type catalog entry as GET /data-types serves it. Entries carry exactly the fields the
// API documents (name, aliases, params, param_values, options, family) and nothing internal.

/**
 * Cross-driver families. One fixed set, so a client can map a type of one driver to a type of another:
 * - `integer`: whole numbers (including serial and display-width forms)
 * - `decimal`: exact fixed-point numbers, including money types
 * - `float`: approximate (floating-point) numbers
 * - `boolean`: true/false (MySQL `boolean`, SQL Server `bit`)
 * - `bit`: bit strings (MySQL `bit(n)`, PostgreSQL `bit`, `bit varying`)
 * - `string`: character strings, fixed, varying or unbounded (`char`, `varchar`, `text`, `nvarchar`…)
 * - `binary`: byte strings and blobs (`binary`, `varbinary`, `blob`, `bytea`, `image`, `rowversion`)
 * - `date`: calendar dates and years
 * - `time`: time of day, with or without time zone
 * - `datetime`: date and time, with or without time zone or offset
 * - `interval`: time spans
 * - `json`: JSON documents and paths
 * - `xml`: XML documents
 * - `uuid`: UUIDs (`uuid`, `uniqueidentifier`)
 * - `enum`: a value (or set of values) from a fixed list
 * - `spatial`: geometric and geographic types
 * - `network`: network addresses
 * - `range`: ranges and multiranges
 * - `text_search`: full-text search documents and queries
 * - `other`: everything else (object identifiers, snapshots, `sql_variant`, `hierarchyid`)
 */
export const DATA_TYPE_FAMILIES = [
  'integer',
  'decimal',
  'float',
  'boolean',
  'bit',
  'string',
  'binary',
  'date',
  'time',
  'datetime',
  'interval',
  'json',
  'xml',
  'uuid',
  'enum',
  'spatial',
  'network',
  'range',
  'text_search',
  'other',
] as const;
export type DataTypeFamily = (typeof DATA_TYPE_FAMILIES)[number];

/**
 * What a column of the type may additionally declare:
 * - `auto_increment`: may set `is_auto_increment` (MySQL AUTO_INCREMENT; implicit in PostgreSQL serial types)
 * - `identity`: may set `is_auto_increment` as an identity column (PostgreSQL GENERATED … AS IDENTITY,
 *   SQL Server IDENTITY)
 * - `unsigned`: may set `is_unsigned` (MySQL numeric types)
 * - `zerofill`: may be written with ZEROFILL (MySQL numeric types; the diagram does not keep it)
 * - `array`: may be written as an array (`text[]`, PostgreSQL)
 */
export const DATA_TYPE_OPTIONS = ['auto_increment', 'identity', 'unsigned', 'zerofill', 'array'] as const;
export type DataTypeOption = (typeof DATA_TYPE_OPTIONS)[number];

/** The `DataTypeParams` field a parameter fills. */
export type DataTypeParamName = 'length' | 'precision' | 'scale' | 'values' | 'fields';

/**
 * One parameter a type takes. Integer parameters are written in parentheses in the order of `params`
 * (`decimal(10,2)`: precision, then scale); `values` takes every quoted string in the parentheses
 * (`enum('a','b')`); `fields` is written as words after the type name and takes one of `param_values`
 * (`interval day to second`).
 */
export interface DataTypeParam {
  name: DataTypeParamName;
  /** Element type of the value: an integer, a list of strings, or one keyword of `param_values`. */
  type: 'integer' | 'string_list' | 'keyword';
  /** Whether the type must be written with this parameter. */
  required: boolean;
  /** Smallest integer allowed (for `string_list`: fewest values); null when unbounded. */
  min: number | null;
  /** Largest integer allowed (for `string_list`: most values); null when unbounded. */
  max: number | null;
}

/**
 * A keyword a parameter accepts instead of (or, for `keyword` parameters, as) its value: SQL Server's
 * `max` length, PostgreSQL's interval fields.
 */
export interface DataTypeParamValue {
  param: DataTypeParamName;
  value: string;
}

/** One catalog entry of GET /data-types. */
export interface DataTypeEntry {
  /** Canonical name; matches a column's `driver_data_type_name`. */
  name: string;
  /** Other names that resolve to this entry (case-insensitive). */
  aliases: string[];
  params: DataTypeParam[];
  param_values: DataTypeParamValue[];
  options: DataTypeOption[];
  family: DataTypeFamily;
}
