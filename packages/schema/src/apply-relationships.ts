// Relationships are stored in one canonical direction (source = the foreign-key side) and identified by the
// pair of columns they link, in either order, so a link written the other way round finds the stored one.
import type { DocumentDraft } from './apply-draft';
import type { Relationship } from './model';
import type { PatchRelationship, RelationshipEndpoints, Strategy } from './patch-types';

export type CanonicalRelationship = RelationshipEndpoints & { type: Relationship['type'] };

/** `one-to-many` A.x → B.y becomes `many-to-one` B.y → A.x; other types keep the written direction. */
export function canonicalRelationship(entry: PatchRelationship): CanonicalRelationship {
  if (entry.type !== 'one-to-many') {
    const { type, source_table, source_column, target_table, target_column } = entry;
    return { type, source_table, source_column, target_table, target_column };
  }
  return {
    type: 'many-to-one',
    source_table: entry.target_table,
    source_column: entry.target_column,
    target_table: entry.source_table,
    target_column: entry.source_column,
  };
}

export function endpointKey(r: RelationshipEndpoints): string {
  return `${r.source_table}\u0000${r.source_column}\u0000${r.target_table}\u0000${r.target_column}`;
}

export function reversedEndpointKey(r: RelationshipEndpoints): string {
  return `${r.target_table}\u0000${r.target_column}\u0000${r.source_table}\u0000${r.source_column}`;
}

/** Adds the patch's relationships; under merge an existing link takes the type and direction written. */
export function applyRelationshipEntries(
  draft: DocumentDraft,
  entries: readonly PatchRelationship[],
  strategy: Strategy,
): void {
  if (entries.length === 0) return;
  const relationships = draft.relationships;
  const positions = new LinkPositions(relationships);
  for (const entry of entries) {
    const wanted = canonicalRelationship(entry);
    const position = positions.find(wanted) ?? positions.findReversed(wanted);
    if (position === undefined) {
      relationships.push({ uuid: draft.newUuid(), name: null, ...wanted, on_delete: null, on_update: null });
      positions.add(relationships.length - 1);
      continue;
    }
    const existing = relationships[position]!;
    if (strategy === 'additive' || sameLink(existing, wanted)) continue;
    positions.forget(existing);
    relationships[position] = { ...existing, ...wanted };
    positions.add(position);
  }
}

/**
 * Where a link is stored: positions of the relationships by source table, each list in position order.
 * `find` gives the last position with exactly the given endpoints. The Map from a joined endpoint key it
 * replaces built a 4-part string for each of a diagram's thousands of relationships on every apply.
 */
class LinkPositions {
  private readonly bySource = new Map<string, number[]>();

  constructor(private readonly relationships: readonly Relationship[]) {
    for (let position = 0; position < relationships.length; position++) this.add(position);
  }

  find(endpoints: RelationshipEndpoints): number | undefined {
    return this.search(
      endpoints.source_table,
      endpoints.source_column,
      endpoints.target_table,
      endpoints.target_column,
    );
  }

  /** The same link written the other way round. */
  findReversed(endpoints: RelationshipEndpoints): number | undefined {
    return this.search(
      endpoints.target_table,
      endpoints.target_column,
      endpoints.source_table,
      endpoints.source_column,
    );
  }

  /** Indexes the relationship at `position` (new, or just rewritten), keeping its list in position order. */
  add(position: number): void {
    const table = this.relationships[position]!.source_table;
    const list = this.bySource.get(table);
    if (list === undefined) {
      this.bySource.set(table, [position]);
      return;
    }
    let at = list.length;
    while (at > 0 && list[at - 1]! > position) at--;
    // Almost always at the end (the diagram's own relationships, new ones): push, which allocates nothing.
    if (at === list.length) list.push(position);
    else list.splice(at, 0, position);
  }

  /**
   * Before a stored link is rewritten with other endpoints: no position is found by its old endpoints any
   * more (a stored duplicate of it included), until a later entry adds that link again.
   */
  forget(endpoints: RelationshipEndpoints): void {
    const list = this.bySource.get(endpoints.source_table);
    if (list === undefined) return;
    const kept = list.filter((position) => !sameEndpoints(this.relationships[position]!, endpoints));
    this.bySource.set(endpoints.source_table, kept);
  }

  private search(
    sourceTable: string,
    sourceColumn: string,
    targetTable: string,
    targetColumn: string,
  ): number | undefined {
    const list = this.bySource.get(sourceTable);
    if (list === undefined) return undefined;
    for (let at = list.length - 1; at >= 0; at--) {
      const relationship = this.relationships[list[at]!]!;
      if (
        relationship.source_column === sourceColumn &&
        relationship.target_table === targetTable &&
        relationship.target_column === targetColumn
      )
        return list[at];
    }
    return undefined;
  }
}

function sameEndpoints(a: RelationshipEndpoints, b: RelationshipEndpoints): boolean {
  return (
    a.source_table === b.source_table &&
    a.source_column === b.source_column &&
    a.target_table === b.target_table &&
    a.target_column === b.target_column
  );
}

function sameLink(existing: Relationship, wanted: CanonicalRelationship): boolean {
  return existing.type === wanted.type && sameEndpoints(existing, wanted);
}

type ColumnRenames = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** Rewrites the stored relationships through the table and column renames the patch made. */
export function followRenames(draft: DocumentDraft): void {
  const tableRenames = new Map<string, string>();
  const columnRenames = new Map<string, Map<string, string>>();
  for (const [before, after] of draft.editedTables()) {
    if (before.name !== after.name) tableRenames.set(before.name, after.name);
    const renames = columnRenamesOf(before.columns, after.columns);
    if (renames !== null) columnRenames.set(before.name, renames);
  }
  if (tableRenames.size === 0 && columnRenames.size === 0) return;
  draft.relationships = draft.relationships.map((relationship) =>
    renamedRelationship(relationship, tableRenames, columnRenames),
  );
}

/** The relationship with its endpoints renamed; the same object when neither endpoint was renamed. */
function renamedRelationship(
  relationship: Relationship,
  tableRenames: ReadonlyMap<string, string>,
  columnRenames: ColumnRenames,
): Relationship {
  const { source_table, source_column, target_table, target_column } = relationship;
  // Plain locals, and an object only for a relationship that changes (few of a diagram's thousands).
  const sourceTable = tableRenames.get(source_table) ?? source_table;
  const sourceColumn = columnRenames.get(source_table)?.get(source_column) ?? source_column;
  const targetTable = tableRenames.get(target_table) ?? target_table;
  const targetColumn = columnRenames.get(target_table)?.get(target_column) ?? target_column;
  const unchanged =
    sourceTable === source_table &&
    sourceColumn === source_column &&
    targetTable === target_table &&
    targetColumn === target_column;
  if (unchanged) return relationship;
  return {
    ...relationship,
    source_table: sourceTable,
    source_column: sourceColumn,
    target_table: targetTable,
    target_column: targetColumn,
  };
}

/**
 * Old name → new name of the columns whose name changed, or null when none did (most edited tables).
 * Columns usually keep their positions; one that does not (a column was deleted before it, or it is new)
 * is looked up by uuid.
 */
function columnRenamesOf(
  before: readonly NamedRecord[],
  after: readonly NamedRecord[],
): Map<string, string> | null {
  let renames: Map<string, string> | null = null;
  let namesBefore: UuidNames | undefined;
  for (let position = 0; position < after.length; position++) {
    const column = after[position]!;
    let previous = before[position]?.uuid === column.uuid ? before[position]!.name : undefined;
    if (previous === undefined) {
      namesBefore ??= new UuidNames(before);
      previous = namesBefore.get(column.uuid);
    }
    if (previous !== undefined && previous !== column.name) {
      renames ??= new Map();
      renames.set(previous, column.name);
    }
  }
  return renames;
}

interface NamedRecord {
  uuid: string;
  name: string;
}

/** Up to this many records, a uuid is found by scanning them: cheaper than building a Map. */
const SCAN_LIMIT = 32;

/** uuid → name of a table's columns before the patch (the last one for a repeated uuid, as a Map holds). */
class UuidNames {
  private byUuid: Map<string, string> | undefined;

  constructor(private readonly records: readonly NamedRecord[]) {}

  get(uuid: string): string | undefined {
    if (this.records.length <= SCAN_LIMIT) {
      for (let i = this.records.length - 1; i >= 0; i--)
        if (this.records[i]!.uuid === uuid) return this.records[i]!.name;
      return undefined;
    }
    this.byUuid ??= new Map(this.records.map((record) => [record.uuid, record.name]));
    return this.byUuid.get(uuid);
  }
}
