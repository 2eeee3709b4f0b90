// A compact, exact projection of a converted document for fixture comparisons: everything the importer
// maps (types, flags, defaults, comments, indexes, relationships), nothing random (UUIDs, positions).
import type { DiagramDocument } from '@dss/schema';

export function shapeOf(document: DiagramDocument) {
  return {
    tables: document.tables.map((table) => ({
      name: table.name,
      comment: table.comment,
      columns: table.columns.map((column) => ({
        name: column.name,
        type: column.driver_data_type_name,
        params: column.driver_data_type_params,
        default: column.default,
        nullable: column.is_nullable,
        primary: column.is_primary_key,
        unique: column.is_unique_key,
        index: column.is_index,
        auto_increment: column.is_auto_increment,
        unsigned: column.is_unsigned,
        comment: column.comment,
      })),
      indexes: table.indexes.map((index) => ({ name: index.name, type: index.type, columns: index.columns })),
    })),
    relationships: document.relationships.map((relationship) => ({
      name: relationship.name,
      type: relationship.type,
      source: `${relationship.source_table}.${relationship.source_column}`,
      target: `${relationship.target_table}.${relationship.target_column}`,
      on_delete: relationship.on_delete,
      on_update: relationship.on_update,
    })),
  };
}
