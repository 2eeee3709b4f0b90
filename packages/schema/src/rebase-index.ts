// Look-ups of one document by entity identity, for rebasing a patch: every record by uuid (columns and
// indexes with their table), tables and groups by name, and relationships by the pair of column uuids they
// link, in either order (the patch contract's identity for a link).
import type { Column, DiagramDocument, DocumentTable, Group, Index, Relationship, StickyNote } from './model';

export interface Located<T> {
  table: DocumentTable;
  record: T;
}

export class EntityIndex {
  readonly tables = new Map<string, DocumentTable>();
  readonly tablesByName = new Map<string, DocumentTable>();
  readonly columns = new Map<string, Located<Column>>();
  readonly indexes = new Map<string, Located<Index>>();
  readonly relationships = new Map<string, Relationship>();
  /** Unordered column-uuid pair → relationship. */
  readonly relationshipsByPair = new Map<string, Relationship>();
  readonly groups = new Map<string, Group>();
  readonly groupsByName = new Map<string, Group>();
  readonly notes = new Map<string, StickyNote>();

  constructor(readonly document: DiagramDocument) {
    for (const table of document.tables) {
      this.tables.set(table.uuid, table);
      this.tablesByName.set(table.name, table);
      for (const record of table.columns) this.columns.set(record.uuid, { table, record });
      for (const record of table.indexes) this.indexes.set(record.uuid, { table, record });
    }
    for (const group of document.groups) {
      this.groups.set(group.uuid, group);
      this.groupsByName.set(group.name, group);
    }
    for (const note of document.sticky_notes) this.notes.set(note.uuid, note);
    for (const relationship of document.relationships) {
      this.relationships.set(relationship.uuid, relationship);
      const pair = this.pairOf(relationship);
      if (pair !== null) this.relationshipsByPair.set(pair, relationship);
    }
  }

  /** The uuid of the column `table.column` (names as this document has them), if any. */
  columnUuid(tableName: string, columnName: string): string | undefined {
    return this.tablesByName.get(tableName)?.columns.find((column) => column.name === columnName)?.uuid;
  }

  /** The column uuids a relationship links, as an order-free key; null when an endpoint is missing. */
  pairOf(relationship: Relationship): string | null {
    const source = this.columnUuid(relationship.source_table, relationship.source_column);
    const target = this.columnUuid(relationship.target_table, relationship.target_column);
    if (source === undefined || target === undefined) return null;
    return source < target ? `${source}\u0000${target}` : `${target}\u0000${source}`;
  }
}
