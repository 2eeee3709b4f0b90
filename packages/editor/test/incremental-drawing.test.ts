// The editor's redraw after an edit (markup kept per record, and only the tables and lines whose markup
// changed put in again) draws what a full drawing of the same document draws: every table's box and every
// line's path, measured, and the markup byte for byte.
import { MarkupCache, measureSvg, renderDiagramParts, renderDiagramSvg, svgOfParts } from '@dss/diagram-svg';
import type { DiagramParts, DrawnPart } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { type EditPatch, EditorStore, planLayer } from '../src';

/** The layer a page holds after applying the plan to the layer drawn from `before`. */
function patched(before: readonly DrawnPart[], after: readonly DrawnPart[]): DrawnPart[] {
  const plan = planLayer(before, after);
  return plan.steps.map((step) => ('keep' in step ? (before[step.keep] as DrawnPart) : step));
}

function redraw(before: DiagramParts, document: DiagramDocument, cache: MarkupCache) {
  const after = renderDiagramParts(document, { markupCache: cache });
  const page: DiagramParts = {
    ...after,
    tables: patched(before.tables, after.tables),
    relationships: patched(before.relationships, after.relationships),
  };
  return { after, page, plan: planLayer(before.tables, after.tables) };
}

describe('The editor drawing after an edit', () => {
  const document = generateDiagram({ tables: 40, columnsPerTable: 8 });
  const target = document.tables[20]!;
  const edits: [string, (doc: DiagramDocument) => EditPatch][] = [
    [
      'a column added (the table grows)',
      () => ({
        strategy: 'merge',
        tables: [
          { name: target.name, columns: [{ name: 'a_rather_long_added_column_name', type: 'varchar(200)' }] },
        ],
      }),
    ],
    [
      'a table moved next to another',
      (doc) => {
        const other = doc.tables[3]!;
        return {
          strategy: 'merge',
          tables: [
            { name: target.name, left: Number(other.left) + 30, top: Number(other.top) + 300, columns: [] },
          ],
        };
      },
    ],
    [
      'a table deleted (its lines go)',
      (doc) => ({ strategy: 'merge', deletions: { tables: [doc.tables[5]!.name] } }),
    ],
  ];

  it.each(edits)(
    'When %s, then the patched drawing equals a full drawing of the document',
    (_label, edit) => {
      const cache = new MarkupCache();
      const store = new EditorStore(document, document.driver);
      const before = renderDiagramParts(store.document, { markupCache: cache });
      const result = store.edit('edit', edit(store.document));
      expect(result).toMatchObject({ ok: true });
      expect(store.document).not.toEqual(document);
      const { page, plan } = redraw(before, store.document, cache);
      const full = renderDiagramSvg(store.document);
      const measuredPage = measureSvg(svgOfParts(page));
      const measuredFull = measureSvg(full);
      expect(measuredPage.tables.length).toBe(store.document.tables.length);
      expect(measuredPage.tables).toEqual(measuredFull.tables);
      expect(measuredPage.relationships).toEqual(measuredFull.relationships);
      expect(svgOfParts(page)).toBe(full);
      // Only what changed was drawn again (the table, and neighbours a widened table pushes along its row).
      expect(plan.redrawn).toBeLessThan(document.tables.length / 4);
    },
  );

  it('should keep a table node only when its markup is unchanged, in the new order', () => {
    const plan = planLayer(
      [
        { key: 'a', markup: '<g>a</g>' },
        { key: 'b', markup: '<g>b</g>' },
        { key: 'c', markup: '<g>c</g>' },
      ],
      [
        { key: 'c', markup: '<g>c</g>' },
        { key: 'b', markup: '<g>b2</g>' },
        { key: 'd', markup: '<g>d</g>' },
      ],
    );
    expect(plan.steps).toEqual([
      { keep: 2 },
      { key: 'b', markup: '<g>b2</g>' },
      { key: 'd', markup: '<g>d</g>' },
    ]);
    expect(plan.removed).toEqual([0, 1]);
    expect(plan.redrawn).toBe(2);
  });
});
