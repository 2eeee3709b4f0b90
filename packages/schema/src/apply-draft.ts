// The working copy of a document while a patch is applied. Records of the input are shared until they are
// edited and copied on first edit, so the input is never mutated and applying a patch to a large diagram
// costs time in proportion to what the patch touches, not to the size of the diagram.
import type { Column, DiagramDocument, DocumentTable, Group, Relationship, StickyNote } from './model';
import { NameIndex } from './name-index';

export class DocumentDraft {
  readonly tables: Map<string, DocumentTable>;
  readonly tableNames: NameIndex;
  readonly groups: Map<string, Group>;
  readonly groupNames: NameIndex;
  readonly notes: Map<string, StickyNote>;
  relationships: Relationship[];
  /** Records created without a position: the layout places them. */
  readonly unplaced = { tables: new Set<string>(), groups: new Set<string>(), notes: new Set<string>() };
  /** Tables, groups and notes this draft created or copied; a plain Set, as a draft lives for one apply. */
  private readonly owned = new Set<object>();
  /** UUIDs of the input's tables this draft has copied, in the order it copied them. */
  private readonly copiedTables: string[] = [];
  private readonly originalTables: Map<string, DocumentTable>;

  constructor(
    private readonly source: DiagramDocument,
    readonly newUuid: () => string,
  ) {
    this.tables = new Map(source.tables.map((table) => [table.uuid, table]));
    this.originalTables = new Map(this.tables);
    this.tableNames = new NameIndex(
      source.tables.map((table) => table.name),
      source.tables.map((table) => table.uuid),
      (uuid) => this.tables.has(uuid),
    );
    this.groups = new Map(source.groups.map((group) => [group.uuid, group]));
    this.groupNames = new NameIndex(
      source.groups.map((group) => group.name),
      source.groups.map((group) => group.uuid),
      (uuid) => this.groups.has(uuid),
    );
    this.notes = new Map(source.sticky_notes.map((note) => [note.uuid, note]));
    this.relationships = [...source.relationships];
  }

  /** The table as it was before the patch, or undefined for a table the patch created. */
  originalTable(uuid: string): DocumentTable | undefined {
    return this.originalTables.get(uuid);
  }

  /** Pairs of (before, after) for every table of the input that this draft has copied and still holds. */
  *editedTables(): Generator<[before: DocumentTable, after: DocumentTable]> {
    for (const uuid of this.copiedTables) {
      const after = this.tables.get(uuid);
      if (after !== undefined) yield [this.originalTables.get(uuid)!, after];
    }
  }

  /** A table named by UUID or by its current name. */
  resolveTable(reference: string): DocumentTable | undefined {
    return this.tables.get(reference) ?? this.tables.get(this.tableNames.get(reference) ?? '');
  }

  /** A copy of the table that may be edited; the same copy on every later call. */
  editTable(uuid: string): DocumentTable {
    const table = this.tables.get(uuid)!;
    if (this.owned.has(table)) return table;
    const copy = { ...table, columns: [...table.columns], indexes: [...table.indexes] };
    this.adopt(copy);
    this.tables.set(uuid, copy);
    // Only tables of the input are ever copied: the ones this draft creates are its own from the start.
    this.copiedTables.push(uuid);
    return copy;
  }

  /** A copy of the column at `position` of an edited table that may be edited. */
  editColumn(table: DocumentTable, position: number): Column {
    const column = table.columns[position]!;
    if (!this.isInputColumn(table.uuid, column, position)) return column;
    const copy = { ...column };
    table.columns[position] = copy;
    return copy;
  }

  /**
   * Whether `column` is a record of the input (shared, so copied before an edit) rather than one this draft
   * created or copied. Asking the input table instead of recording every new column as owned saves a Set
   * entry for each of the thousands of columns a large patch creates; a column is almost always still at
   * its position, and only one that moved (or is new and edited twice) costs a scan.
   */
  private isInputColumn(tableUuid: string, column: Column, position: number): boolean {
    const columns = this.originalTables.get(tableUuid)?.columns;
    if (columns === undefined) return false;
    return columns[position] === column || columns.includes(column);
  }

  editGroup(uuid: string): Group {
    const group = this.groups.get(uuid)!;
    if (this.owned.has(group)) return group;
    const copy = this.adopt({ ...group });
    this.groups.set(uuid, copy);
    return copy;
  }

  editNote(uuid: string): StickyNote {
    const note = this.notes.get(uuid)!;
    if (this.owned.has(note)) return note;
    const copy = this.adopt({ ...note });
    this.notes.set(uuid, copy);
    return copy;
  }

  /** Marks a record created by this draft as editable in place. */
  adopt<T extends object>(record: T): T {
    this.owned.add(record);
    return record;
  }

  addTable(table: DocumentTable): void {
    this.adopt(table);
    this.tables.set(table.uuid, table);
    this.tableNames.add(table.name, table.uuid);
  }

  renameTable(table: DocumentTable, name: string): void {
    this.tableNames.rename(table.uuid, table.name, name);
    table.name = name;
  }

  addGroup(group: Group): void {
    this.groups.set(group.uuid, this.adopt(group));
    this.groupNames.add(group.name, group.uuid);
  }

  addNote(note: StickyNote): void {
    this.notes.set(note.uuid, this.adopt(note));
  }

  /** Resolves a patch's `parent_uuid` (used as is) or `parent_name` (a group of the draft) to a group UUID. */
  resolveParent(parentUuid: string | undefined, parentName: string | undefined): string | null | undefined {
    if (parentUuid !== undefined) return parentUuid;
    if (parentName === undefined) return undefined;
    return this.groupNames.get(parentName) ?? null;
  }

  toDocument(): DiagramDocument {
    return {
      driver: this.source.driver,
      schema_version: this.source.schema_version,
      tables: [...this.tables.values()],
      relationships: this.relationships,
      groups: [...this.groups.values()],
      sticky_notes: [...this.notes.values()],
    };
  }
}
