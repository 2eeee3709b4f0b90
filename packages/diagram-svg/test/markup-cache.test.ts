import { apply, type DiagramDocument, normalize, validate } from '@dss/schema';
import { renderDiagramParts, renderDiagramSvg, svgOfParts } from '../src/render';
import { MarkupCache } from '../src/markup-cache';
import { documentFrom, shopPatch, uuidCounter } from './fixtures';

/** A cache that counts the tables and relationships it had to draw. */
class CountingCache extends MarkupCache {
  drawn: string[] = [];
  lines: string[] = [];

  override table(table: DiagramDocument['tables'][number], key: string, draw: () => string): string {
    return super.table(table, key, () => {
      this.drawn.push(table.name);
      return draw();
    });
  }

  override relationship(
    relationship: DiagramDocument['relationships'][number],
    key: string,
    draw: () => string,
  ): string {
    return super.relationship(relationship, key, () => {
      this.lines.push(`${relationship.source_table}.${relationship.source_column}`);
      return draw();
    });
  }
}

/** The document after a merge patch, through the patch engine as the editor's store runs it. */
function edited(document: DiagramDocument, patch: Record<string, unknown>): DiagramDocument {
  const normalized = normalize({ strategy: 'merge', ...patch });
  const checked = validate(normalized.patch, document, document.driver, 'propose');
  if (!checked.ok) throw new Error(checked.message);
  return apply(document, checked.patch, { newUuid: uuidCounter('10000000-0000-4000-8000-') }).document;
}

/** Draws a document whole, through `cache`. */
const drawingWith = (cache: MarkupCache) => (document: DiagramDocument) =>
  svgOfParts(renderDiagramParts(document, { markupCache: cache }));

describe('a drawing with kept markup (MarkupCache)', () => {
  it('draws only the tables an edit replaced, and the same bytes as a drawing without the cache', () => {
    const cache = new CountingCache();
    const draw = drawingWith(cache);
    let document = documentFrom(shopPatch).document;
    expect(draw(document)).toBe(renderDiagramSvg(document));
    expect(cache.drawn).toEqual(['customers', 'orders', 'invoices']);
    expect(cache.lines).toHaveLength(3);

    cache.drawn = [];
    document = edited(document, {
      tables: [{ name: 'orders', columns: [{ name: 'note', type: 'text', is_nullable: true }] }],
    });
    expect(draw(document)).toBe(renderDiagramSvg(document));
    expect(cache.drawn).toEqual(['orders']);

    cache.drawn = [];
    cache.lines = [];
    expect(draw(document)).toBe(renderDiagramSvg(document));
    expect(cache.drawn).toEqual([]);
    expect(cache.lines).toEqual([]);
  });

  it('draws a relationship again when its ends change though its record did not: its foreign-key column made nullable', () => {
    const cache = new CountingCache();
    const draw = drawingWith(cache);
    let document = documentFrom(shopPatch).document;
    draw(document);
    const relationship = document.relationships.find((r) => r.source_column === 'customer_id');
    cache.lines = [];
    document = edited(document, {
      tables: [{ name: 'orders', columns: [{ name: 'customer_id', type: 'bigint', is_nullable: true }] }],
    });
    expect(document.relationships.find((r) => r.source_column === 'customer_id')).toBe(relationship);
    expect(draw(document)).toBe(renderDiagramSvg(document));
    expect(cache.lines).toContain('orders.customer_id');
  });

  it('draws a table again when its context changes though its record did not: a new foreign key from it, or a neighbour widened into it', () => {
    const cache = new CountingCache();
    const draw = drawingWith(cache);
    let document = documentFrom(shopPatch).document;
    draw(document);

    // A relationship record from invoices marks its column FK: the table record is shared, its context is not.
    cache.drawn = [];
    document = edited(document, {
      relationships: [
        {
          source_table: 'invoices',
          source_column: 'id',
          target_table: 'customers',
          target_column: 'id',
          type: 'many-to-one',
        },
      ],
    });
    expect(draw(document)).toBe(renderDiagramSvg(document));
    expect(cache.drawn).toContain('invoices');

    // A column too long for its table's stored width widens it, which can push the table to its right.
    // customers (left 40) is widened past orders (left 420, same height), which is drawn further right.
    cache.drawn = [];
    const orders = document.tables.find((table) => table.name === 'orders');
    document = edited(document, {
      tables: [{ name: 'customers', columns: [{ name: 'x'.repeat(60), type: 'text', is_nullable: true }] }],
    });
    expect(document.tables.find((table) => table.name === 'orders')).toBe(orders);
    expect(draw(document)).toBe(renderDiagramSvg(document));
    expect(cache.drawn).toEqual(['customers', 'orders']);
  });

  it('is not used for a drawing with marks (a review), whose marks name records by uuid', () => {
    const cache = new CountingCache();
    const document = documentFrom(shopPatch).document;
    renderDiagramParts(document, { markupCache: cache });
    cache.drawn = [];
    const marked = {
      tables: new Map([[document.tables[0]!.uuid, 'changed' as const]]),
      columns: new Map(),
      indexes: new Map(),
      relationships: new Map(),
      groups: new Map(),
      sticky_notes: new Map(),
    };
    const parts = renderDiagramParts(document, { markupCache: cache, highlight: marked });
    expect(cache.drawn).toEqual([]);
    expect(svgOfParts(parts)).toBe(renderDiagramSvg(document, { highlight: marked }));
  });
});
