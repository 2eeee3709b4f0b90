// Every table shows its name and every column's name and type whole (no "…") on every corpus diagram, also
// after a proposal adds a long column to a table with a neighbour close on its right, in the plain drawing
// and in the review drawing; widening never makes tables overlap.
import type { DiagramDocument } from '@dss/schema';
import { renderDiagramSvg } from '../src/render';
import { reviewDiagram } from '../src/review';
import { corpusFiles, importCorpus } from './corpus';
import { documentFrom } from './fixtures';
import { parseSvg, type SvgNode, withClass } from './svg-tree';

const LONG_COLUMN = 'shipping_address_verification_status_code';

function cutTexts(root: SvgNode): string[] {
  return withClass(root, 'dss-table')
    .flatMap((table) =>
      ['dss-table-name', 'dss-column-name', 'dss-column-type'].flatMap((name) =>
        withClass(table, name).map((text) => `${table.attributes['data-table']}: ${text.text}`),
      ),
    )
    .filter((text) => text.includes('…'));
}

interface Rect {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

function boxes(root: SvgNode): Rect[] {
  return withClass(root, 'dss-table').map((table) => {
    const box = withClass(table, 'dss-box')[0]!.attributes;
    return {
      name: table.attributes['data-table'] ?? '',
      x: Number(box['x']),
      y: Number(box['y']),
      width: Number(box['width']),
      height: Number(box['height']),
    };
  });
}

function overlapping(rects: Rect[]): string[] {
  const out: string[] = [];
  rects.forEach((a, i) => {
    for (const b of rects.slice(i + 1))
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        out.push(`${a.name} × ${b.name}`);
  });
  return out;
}

/** The table with the closest neighbour on its right at the same height (the hardest one to widen). */
function crowdedTable(document: DiagramDocument): string {
  let best = { name: document.tables[0]!.name, gap: Number.POSITIVE_INFINITY };
  for (const table of document.tables)
    for (const other of document.tables) {
      const gap = other.left - (table.left + table.width);
      const sameHeight = other.top < table.top + table.height && table.top < other.top + other.height;
      if (other !== table && sameHeight && gap >= 0 && gap < best.gap) best = { name: table.name, gap };
    }
  return best.name;
}

describe('table text on the corpus diagrams', () => {
  it.each(corpusFiles())('$file: no name or type is cut, and no tables overlap', async (entry) => {
    const document = await importCorpus(entry);
    const root = parseSvg(renderDiagramSvg(document));
    expect(cutTexts(root)).toEqual([]);
    expect(overlapping(boxes(root))).toEqual(overlapping(storedRects(document)));
  });

  it.each(corpusFiles())(
    '$file: after a proposal adds a long column beside a close neighbour, the drawing and the review show it whole',
    async (entry) => {
      const before = await importCorpus(entry);
      const table = crowdedTable(before);
      const applied = documentFrom(
        {
          strategy: 'merge',
          tables: [{ name: table, columns: [{ name: LONG_COLUMN, type: 'varchar(120)' }] }],
        },
        { base: before },
      );
      const plain = parseSvg(renderDiagramSvg(applied.document));
      expect(cutTexts(plain)).toEqual([]);
      expect(withClass(plain, 'dss-column-name').map((text) => text.text)).toContain(LONG_COLUMN);
      expect(overlapping(boxes(plain))).toEqual(overlapping(storedRects(before)));
      const review = reviewDiagram(before, applied.document, applied.diff);
      const reviewed = parseSvg(renderDiagramSvg(review.document, { highlight: review.highlight }));
      expect(cutTexts(reviewed)).toEqual([]);
    },
  );
});

/** The boxes as stored (tables a person put overlapping stay so; the fitting adds no overlap). */
function storedRects(document: DiagramDocument): Rect[] {
  return document.tables.map((table) => ({
    name: table.name,
    x: table.left,
    y: table.top,
    width: Math.max(120, table.width),
    height: Math.max(table.height, 36 + 24 * Math.max(1, table.columns.length) + 8),
  }));
}
