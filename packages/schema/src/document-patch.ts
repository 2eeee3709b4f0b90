// The projection the other way round from `apply`: a diagram document written as a schema patch (input
// format), which re-creates the same schema when applied to an empty diagram. Used where a document must
// travel as a patch: the `{app_url}/draw#patch=…` link of the MCP server's `visualize_schema` for DDL, which
// is converted to a document first. Names identify everything in a patch, so record UUIDs are left out;
// what the patch format cannot carry (relationship names and referential actions, colors) is dropped.
import type { Column, DataTypeParams, DiagramDocument, Frame, IndexMethod } from './model';

/** A patch as a client writes it (the wire format of the contract), not the validated `Patch`. */
export interface WrittenPatch {
  strategy: 'merge';
  tables: WrittenTable[];
  groups?: ({ name: string } & Partial<Frame>)[];
  relationships?: {
    type: 'many-to-one' | 'one-to-one';
    source_table: string;
    source_column: string;
    target_table: string;
    target_column: string;
  }[];
  sticky_notes?: ({ content: string; parent_name?: string } & Partial<Frame>)[];
}

export interface WrittenTable {
  name: string;
  comment?: string;
  parent_name?: string;
  columns: WrittenColumn[];
  indexes?: {
    name: string;
    type: 'primary' | 'unique' | 'index';
    columns: string[];
    method?: IndexMethod;
    note?: string;
  }[];
  checks?: { name: string; expression: string }[];
  charset?: string;
  collation?: string;
  left?: number;
  top?: number;
}

export interface WrittenColumn {
  name: string;
  type: string;
  is_primary_key?: true;
  is_auto_increment?: true;
  is_nullable: boolean;
  is_unique_key?: true;
  is_index?: true;
  is_unsigned?: true;
  default?: string;
  enum_values?: string[];
  comment?: string;
  collation?: string;
  enum_name?: string;
}

export interface DocumentToPatchOptions {
  /**
   * Keep canvas positions (table `left`/`top`, group and note frames). Proposals and the /draw page honour
   * them; a create refuses them (`unsupported_field`), so they are left out by default.
   */
  positions?: boolean;
}

export function documentToPatch(
  document: DiagramDocument,
  options: DocumentToPatchOptions = {},
): WrittenPatch {
  const positions = options.positions ?? false;
  const groupNames = new Map(document.groups.map((group) => [group.uuid, group.name]));
  const parentName = (parentUuid: string | null) =>
    parentUuid === null ? undefined : groupNames.get(parentUuid);

  const patch: WrittenPatch = {
    strategy: 'merge',
    tables: document.tables.map((table) => ({
      name: table.name,
      ...optional('comment', table.comment),
      ...optional('parent_name', parentName(table.parent_uuid)),
      columns: table.columns.map(writtenColumn),
      ...(table.indexes.length > 0
        ? {
            indexes: table.indexes.map(({ name, type, columns, method, note }) => ({
              name,
              type,
              columns: [...columns],
              ...(method !== undefined ? { method } : {}),
              ...optional('note', note),
            })),
          }
        : {}),
      ...(table.checks !== undefined && table.checks.length > 0
        ? { checks: table.checks.map(({ name, expression }) => ({ name, expression })) }
        : {}),
      ...optional('charset', table.charset),
      ...optional('collation', table.collation),
      ...(positions ? { left: Math.round(table.left), top: Math.round(table.top) } : {}),
    })),
  };
  if (document.groups.length > 0)
    patch.groups = document.groups.map((group) => ({
      name: group.name,
      ...(positions ? roundedFrame(group) : {}),
    }));
  if (document.relationships.length > 0)
    patch.relationships = document.relationships.map((r) => ({
      type: r.type,
      source_table: r.source_table,
      source_column: r.source_column,
      target_table: r.target_table,
      target_column: r.target_column,
    }));
  if (document.sticky_notes.length > 0)
    patch.sticky_notes = document.sticky_notes.map((note) => ({
      content: note.content,
      ...optional('parent_name', parentName(note.parent_uuid)),
      ...(positions ? roundedFrame(note) : {}),
    }));
  return patch;
}

function writtenColumn(column: Column): WrittenColumn {
  const params = column.driver_data_type_params;
  return {
    name: column.name,
    type: writtenType(column.driver_data_type_name, params),
    ...(column.is_primary_key ? { is_primary_key: true } : {}),
    ...(column.is_auto_increment ? { is_auto_increment: true } : {}),
    is_nullable: column.is_nullable,
    ...(column.is_unique_key ? { is_unique_key: true } : {}),
    ...(column.is_index ? { is_index: true } : {}),
    ...(column.is_unsigned ? { is_unsigned: true } : {}),
    ...optional('default', column.default),
    ...(params?.values !== undefined ? { enum_values: [...params.values] } : {}),
    ...optional('comment', column.comment),
    ...optional('collation', column.collation),
    ...optional('enum_name', column.enum_name),
  };
}

/**
 * The type as a patch writes it: `varchar(255)`, `decimal(10,2)`, `interval day to second`, `text[]`.
 * Enum and set values go to `enum_values`, not into the type text.
 */
export function writtenType(name: string, params: DataTypeParams | null): string {
  if (params === null) return name;
  let text = name;
  if (params.length !== undefined) text += `(${params.length})`;
  else if (params.precision !== undefined && params.scale !== undefined)
    text += `(${params.precision},${params.scale})`;
  else if (params.precision !== undefined) text += `(${params.precision})`;
  if (params.fields !== undefined) text += ` ${params.fields}`;
  if (params.array === true) text += '[]';
  return text;
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value === null || value === undefined || value === '' ? {} : ({ [key]: value } as Record<K, string>);
}

function roundedFrame(frame: Frame): Frame {
  return {
    left: Math.round(frame.left),
    top: Math.round(frame.top),
    width: Math.round(frame.width),
    height: Math.round(frame.height),
  };
}
