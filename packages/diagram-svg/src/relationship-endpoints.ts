// Finds the rows a relationship links. Endpoints are names, and a review drawing can hold two tables (or
// columns) of one name: a removed one and the one that replaced it. A removed relationship then prefers
// removed records and any other relationship prefers current ones, which is how they were linked.
import type { Column, DiagramDocument, DocumentTable, Relationship } from '@dss/schema';
import type { ChangeMark, DiagramHighlight } from './highlight';
import type { ResolvedRelationship } from './render-relationship';
import { type Box, rowMiddle, tableBox } from './table-geometry';
import { textOf } from './xml';

interface DrawnTable {
  table: DocumentTable;
  box: Box;
}

export class RelationshipEndpoints {
  private readonly tablesByName = new Map<string, DrawnTable[]>();

  constructor(
    document: DiagramDocument,
    private readonly highlight: DiagramHighlight,
  ) {
    for (const table of document.tables) {
      const name = textOf(table.name);
      const list = this.tablesByName.get(name) ?? [];
      list.push({ table, box: tableBox(table) });
      this.tablesByName.set(name, list);
    }
  }

  /** The relationship's two rows, or null when one of its tables is not in the document. */
  resolve(relationship: Relationship): ResolvedRelationship | null {
    const mark = this.highlight.relationships.get(relationship.uuid);
    const wantRemoved = mark === 'removed';
    const source = this.table(textOf(relationship.source_table), wantRemoved);
    const target = this.table(textOf(relationship.target_table), wantRemoved);
    if (source === undefined || target === undefined) return null;
    const sourceRow = this.row(source.table, textOf(relationship.source_column), wantRemoved);
    const targetRow = this.row(target.table, textOf(relationship.target_column), wantRemoved);
    return {
      relationship,
      source: { box: source.box, y: rowMiddle(source.box, sourceRow?.row ?? null) },
      target: { box: target.box, y: rowMiddle(target.box, targetRow?.row ?? null) },
      sourceNullable: sourceRow?.column.is_nullable === true,
      mark,
    };
  }

  private table(name: string, wantRemoved: boolean): DrawnTable | undefined {
    const candidates = this.tablesByName.get(name);
    if (candidates === undefined) return undefined;
    return preferred(candidates, (entry) => this.highlight.tables.get(entry.table.uuid), wantRemoved);
  }

  private row(
    table: DocumentTable,
    name: string,
    wantRemoved: boolean,
  ): { column: Column; row: number } | undefined {
    const candidates: { column: Column; row: number }[] = [];
    if (Array.isArray(table.columns))
      table.columns.forEach((column, row) => {
        if (textOf(column.name) === name) candidates.push({ column, row });
      });
    return preferred(candidates, (entry) => this.highlight.columns.get(entry.column.uuid), wantRemoved);
  }
}

function preferred<T>(
  candidates: T[],
  markOf: (candidate: T) => ChangeMark | undefined,
  wantRemoved: boolean,
): T | undefined {
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((candidate) => (markOf(candidate) === 'removed') === wantRemoved) ?? candidates[0];
}
