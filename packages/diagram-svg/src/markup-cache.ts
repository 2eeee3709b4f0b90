// What a drawing of a table depends on is the table record, its fitted box and a little context (its
// group, its foreign-key columns); of a relationship, the record, its route and its ends. A page that
// draws the same diagram again and again (the editor, after every edit) keeps each part's markup here, by
// the record itself and a key of the rest, and draws again only what an edit replaced or moved. The
// editor's documents are never changed in place (the patch engine's apply is pure and shares the records
// a patch does not touch), which is what makes a record a key; a caller whose documents may be mutated
// must not pass a cache.
import type { DocumentTable, Relationship } from '@dss/schema';

interface Entry {
  key: string;
  markup: string;
}

export class MarkupCache {
  readonly #tables = new WeakMap<DocumentTable, Entry>();
  readonly #relationships = new WeakMap<Relationship, Entry>();
  readonly #widths = new WeakMap<DocumentTable, number>();

  /** The table's markup for `key` (its box and context), drawn by `draw` when not kept or kept for another key. */
  table(table: DocumentTable, key: string, draw: () => string): string {
    return kept(this.#tables, table, key, draw);
  }

  /** The relationship's markup for `key` (its route and ends), drawn by `draw` when not kept for that key. */
  relationship(relationship: Relationship, key: string, draw: () => string): string {
    return kept(this.#relationships, relationship, key, draw);
  }

  /** The width the table's text needs, measured by `measure` once per record. */
  width(table: DocumentTable, measure: () => number): number {
    let width = this.#widths.get(table);
    if (width === undefined) {
      width = measure();
      this.#widths.set(table, width);
    }
    return width;
  }
}

function kept<T extends object>(
  entries: WeakMap<T, Entry>,
  record: T,
  key: string,
  draw: () => string,
): string {
  const found = entries.get(record);
  if (found !== undefined && found.key === key) return found.markup;
  const markup = draw();
  entries.set(record, { key, markup });
  return markup;
}
