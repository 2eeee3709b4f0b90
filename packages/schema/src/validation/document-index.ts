// The diagram being changed, indexed by name and UUID so every check is a Map lookup and validation stays
// linear in the size of the patch plus the document.
import type { DiagramDocument, DocumentTable, Group } from '../model';
import type { RelationshipEndpoints } from '../patch-types';

/** The same key for a relationship written either way round. */
export function relationshipKey(endpoints: RelationshipEndpoints): string {
  const source = `${endpoints.source_table}\u0000${endpoints.source_column}`;
  const target = `${endpoints.target_table}\u0000${endpoints.target_column}`;
  return source < target ? `${source}\u0001${target}` : `${target}\u0001${source}`;
}

/** Up to this many columns, a table's column names are scanned rather than put in a Set. */
const SCAN_LIMIT = 32;

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(key(item))) map.set(key(item), item);
  return map;
}

export class DocumentIndex {
  readonly tableByName: ReadonlyMap<string, DocumentTable>;
  readonly tableByUuid: ReadonlyMap<string, DocumentTable>;
  readonly groupByName: ReadonlyMap<string, Group>;
  readonly groupByUuid: ReadonlyMap<string, Group>;
  readonly stickyNoteUuids: ReadonlySet<string>;
  private relationshipKeySet: ReadonlySet<string> | undefined;
  private readonly relationships: DiagramDocument['relationships'];
  readonly tables: readonly DocumentTable[];
  readonly groups: readonly Group[];
  private readonly columnNameSets = new Map<DocumentTable, ReadonlySet<string>>();
  private readonly indexNameSets = new Map<DocumentTable, ReadonlySet<string>>();

  constructor(document: DiagramDocument | null) {
    this.tables = document?.tables ?? [];
    this.groups = document?.groups ?? [];
    this.tableByName = byKey(this.tables, (table) => table.name);
    this.tableByUuid = byKey(this.tables, (table) => table.uuid);
    this.groupByName = byKey(this.groups, (group) => group.name);
    this.groupByUuid = byKey(this.groups, (group) => group.uuid);
    this.stickyNoteUuids = new Set((document?.sticky_notes ?? []).map((note) => note.uuid));
    this.relationships = document?.relationships ?? [];
  }

  /** Keys of the diagram's relationships; built on first use, as only relationship deletions need them. */
  get relationshipKeys(): ReadonlySet<string> {
    this.relationshipKeySet ??= new Set(this.relationships.map(relationshipKey));
    return this.relationshipKeySet;
  }

  /** A table named by name first, then by UUID (deletions accept either). */
  tableByNameOrUuid(reference: string): DocumentTable | undefined {
    return this.tableByName.get(reference) ?? this.tableByUuid.get(reference);
  }

  columnNames(table: DocumentTable): ReadonlySet<string> {
    let names = this.columnNameSets.get(table);
    if (names === undefined) {
      names = new Set(table.columns.map((column) => column.name));
      this.columnNameSets.set(table, names);
    }
    return names;
  }

  /**
   * Whether `table` has a column named `name`. A patch touches hundreds of tables of a few dozen columns:
   * scanning those is cheaper than building a Set for each; wide tables get the Set.
   */
  hasColumn(table: DocumentTable, name: string): boolean {
    const columns = table.columns;
    if (columns.length > SCAN_LIMIT) return this.columnNames(table).has(name);
    for (const column of columns) if (column.name === name) return true;
    return false;
  }

  /** `hasColumn` for one table, for checks that take a `has` lookup. */
  columnLookup(table: DocumentTable): { has(name: string): boolean } {
    return { has: (name) => this.hasColumn(table, name) };
  }

  indexNames(table: DocumentTable): ReadonlySet<string> {
    let names = this.indexNameSets.get(table);
    if (names === undefined) {
      // A CHECK constraint is deleted through deletions.indexes too: both are named members of the table.
      names = new Set([
        ...table.indexes.map((index) => index.name),
        ...(table.checks ?? []).map((check) => check.name),
      ]);
      this.indexNameSets.set(table, names);
    }
    return names;
  }
}
