// What a drawing of a table depends on is the table record, its fitted box and a little context (its
// group, its foreign-key columns); a page that draws the same diagram again and again (the editor, after
// every edit) keeps each table's markup and text width here, by the record itself, and draws again only
// the tables an edit replaced. The editor's documents are never changed in place (the patch engine's
// apply is pure and shares the records a patch does not touch), which is what makes a record a key; a
// caller whose documents may be mutated must not pass a cache.
import type { DocumentTable } from '@dss/schema';

interface Entry {
  key: string;
  markup: string;
}

export class TableCache {
  readonly #markup = new WeakMap<DocumentTable, Entry>();
  readonly #widths = new WeakMap<DocumentTable, number>();

  /** The table's markup for `key` (its box and context), drawn by `draw` when not kept or kept for another key. */
  markup(table: DocumentTable, key: string, draw: () => string): string {
    const kept = this.#markup.get(table);
    if (kept !== undefined && kept.key === key) return kept.markup;
    const markup = draw();
    this.#markup.set(table, { key, markup });
    return markup;
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
