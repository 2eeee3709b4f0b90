// Projections of a stored diagram document into the two read responses: the schema (`data` of
// GET /diagrams/{uuid}/schema) and the full, re-importable document (GET /diagrams/{uuid}/schema-full).
// Both copy only the fields of the model, so anything else a store keeps on its records never leaks out.
import { compareStrings, compareTuples } from './compare';
import type {
  Column,
  DataTypeParams,
  DiagramDocument,
  DocumentTable,
  Group,
  Index,
  Relationship,
  Schema,
  StickyNote,
  Table,
} from './model';

/** A schema or a full document: both carry tables with columns, indexes and relationships. */
export type SchemaSource = Pick<Schema, 'driver' | 'schema_version' | 'tables' | 'relationships'>;

/**
 * The schema response: tables sorted by name in code-unit order (ties broken by uuid), columns and indexes
 * in schema order, relationships sorted by source table, source column, target table, target column, type
 * and uuid. Canvas positions, colors, groups and sticky notes are left out.
 */
export function toSchema(source: SchemaSource): Schema {
  return {
    driver: source.driver,
    schema_version: source.schema_version,
    tables: sortTables(source.tables).map(projectTable),
    relationships: sortRelationships(source.relationships).map(projectRelationship),
  };
}

/** The full document response: the document itself, with exactly the fields of the model. */
export function toFullDocument(document: DiagramDocument): DiagramDocument {
  return {
    driver: document.driver,
    schema_version: document.schema_version,
    tables: document.tables.map(projectDocumentTable),
    relationships: document.relationships.map(projectRelationship),
    groups: document.groups.map(projectGroup),
    sticky_notes: document.sticky_notes.map(projectStickyNote),
  };
}

export function sortTables<T extends Table>(tables: readonly T[]): T[] {
  return [...tables].sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.uuid, b.uuid));
}

export function sortRelationships(relationships: readonly Relationship[]): Relationship[] {
  return [...relationships].sort((a, b) => compareTuples(relationshipSortKey(a), relationshipSortKey(b)));
}

function relationshipSortKey(r: Relationship): string[] {
  return [r.source_table, r.source_column, r.target_table, r.target_column, r.type, r.uuid];
}

function projectTable(table: Table): Table {
  return {
    uuid: table.uuid,
    name: table.name,
    comment: table.comment,
    columns: table.columns.map(projectColumn),
    indexes: table.indexes.map(projectIndex),
    // Only when there are some: schemas without checks keep the shape (and hash) they always had.
    ...(table.checks !== undefined && table.checks.length > 0
      ? { checks: table.checks.map(({ name, expression }) => ({ name, expression })) }
      : {}),
    ...(table.charset !== undefined ? { charset: table.charset } : {}),
    ...(table.collation !== undefined ? { collation: table.collation } : {}),
  };
}

function projectDocumentTable(table: DocumentTable): DocumentTable {
  return {
    ...projectTable(table),
    left: table.left,
    top: table.top,
    width: table.width,
    height: table.height,
    color: table.color,
    parent_uuid: table.parent_uuid,
  };
}

export function projectColumn(column: Column): Column {
  const projected: Column = {
    uuid: column.uuid,
    name: column.name,
    driver_data_type_name: column.driver_data_type_name,
    driver_data_type_params: copyDataTypeParams(column.driver_data_type_params),
    default: column.default,
    is_nullable: column.is_nullable,
    is_primary_key: column.is_primary_key,
    is_unique_key: column.is_unique_key,
    is_index: column.is_index,
    is_auto_increment: column.is_auto_increment,
    is_unsigned: column.is_unsigned,
    comment: column.comment,
  };
  // Only when set: columns without them keep the shape (and hash) they always had.
  if (column.collation !== undefined) projected.collation = column.collation;
  if (column.enum_name !== undefined) projected.enum_name = column.enum_name;
  return projected;
}

/** A deep copy of a column's type parameters. */
export function copyDataTypeParams(params: DataTypeParams | null): DataTypeParams | null {
  if (params === null) return null;
  return params.values === undefined ? { ...params } : { ...params, values: [...params.values] };
}

function projectIndex(index: Index): Index {
  const projected: Index = {
    uuid: index.uuid,
    name: index.name,
    type: index.type,
    columns: [...index.columns],
  };
  if (index.is_constraint === true) projected.is_constraint = true;
  if (index.method !== undefined) projected.method = index.method;
  if (index.note !== undefined) projected.note = index.note;
  return projected;
}

function projectRelationship(r: Relationship): Relationship {
  return {
    uuid: r.uuid,
    name: r.name,
    type: r.type,
    source_table: r.source_table,
    source_column: r.source_column,
    target_table: r.target_table,
    target_column: r.target_column,
    on_delete: r.on_delete,
    on_update: r.on_update,
  };
}

function projectGroup(group: Group): Group {
  const { uuid, name, color, parent_uuid, left, top, width, height } = group;
  return { uuid, name, color, parent_uuid, left, top, width, height };
}

function projectStickyNote(note: StickyNote): StickyNote {
  const { uuid, content, color, parent_uuid, left, top, width, height } = note;
  return { uuid, content, color, parent_uuid, left, top, width, height };
}
