// Busy tables drawn again (hub-copies.ts): a table that most tables reference is drawn once in full and,
// small and marked as a copy, beside each far group of the tables that reference it; their lines end there.
// Measured on the drawing, in drawing units.
import type { DiagramDocument } from '@dss/schema';
import {
  borderRuns,
  busyTables,
  crossings,
  emptyHighlight,
  makeRoomForLines,
  measureSvg,
  readabilityMetrics,
  renderDiagramSvg,
  sharedRuns,
} from '../src';
import { generatedDiagram } from '../src/bench/schema-generator';
import { allElements, parseSvg } from './svg-tree';

const busy = makeRoomForLines(generatedDiagram({ tables: 140, relationships: 340 }));
const withCopies = renderDiagramSvg(busy, { hubCopies: true });

/** Elements carrying `attribute`, as parsed back by a real XML parser. */
const carrying = (svg: string, attribute: string) =>
  allElements(parseSvg(svg)).filter((node) => node.attributes[attribute] !== undefined);

const separated = (
  a: { left: number; top: number; width: number; height: number },
  b: typeof a,
  gap: number,
) =>
  a.left + a.width + gap <= b.left ||
  b.left + b.width + gap <= a.left ||
  a.top + a.height + gap <= b.top ||
  b.top + b.height + gap <= a.top;

describe('busy tables drawn again beside the tables that reference them', () => {
  it('finds the tables that at least 24 tables and 30% of all tables reference, and no other', () => {
    const hubs = busyTables(busy);
    expect(hubs.length).toBeGreaterThan(0);
    for (const hub of hubs) {
      const referrers = new Set(
        busy.relationships
          .filter((link) => link.target_table === hub && link.source_table !== hub)
          .map((link) => link.source_table),
      );
      expect(referrers.size).toBeGreaterThanOrEqual(Math.max(24, Math.ceil(busy.tables.length * 0.3)));
    }
    const small: DiagramDocument = { ...busy, tables: busy.tables.slice(0, 20) };
    expect(busyTables(small)).toEqual([]);
  });

  it('draws each copy with data-table-copy and never data-table, so every table is still one data-table', () => {
    const tables = carrying(withCopies, 'data-table');
    const copies = carrying(withCopies, 'data-table-copy');
    expect(tables).toHaveLength(busy.tables.length);
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      expect(copy.attributes['data-table']).toBeUndefined();
      expect(busyTables(busy)).toContain(copy.attributes['data-table-copy']);
      expect(copy.attributes.class).toBe('dss-table dss-table-copy');
      expect(copy.text).toContain('copy');
    }
    // Every relationship is drawn once, and names its real tables; the copy it ends on is an addition.
    const lines = carrying(withCopies, 'data-relationship');
    expect(lines).toHaveLength(busy.relationships.length);
    const names = new Set(busy.tables.map((table) => table.name));
    for (const line of lines) expect(names.has(line.attributes['data-target-table'] ?? '')).toBe(true);
    expect(lines.some((line) => line.attributes['data-target-copy'] !== undefined)).toBe(true);
    expect(withCopies).not.toContain('\u0000');
  });

  it('ends each moved line on its copy, and places copies clear of every table', () => {
    const drawing = measureSvg(withCopies);
    const copies = drawing.tables.filter((table) => table.copy === true);
    const real = drawing.tables.filter((table) => table.copy !== true);
    for (const copy of copies) {
      for (const table of real) expect(separated(copy.box, table.box, 48)).toBe(true);
      for (const other of copies) if (other !== copy) expect(separated(copy.box, other.box, 48)).toBe(true);
    }
    for (const line of drawing.relationships.filter((each) => each.target.includes('#copy'))) {
      const copy = copies.find((each) => each.name === line.target)!;
      const [x, y] = line.points.at(-1)!;
      expect(y).toBeGreaterThan(copy.box.top);
      expect(y).toBeLessThan(copy.box.top + copy.box.height);
      expect(
        Math.min(Math.abs(x - copy.box.left), Math.abs(x - copy.box.left - copy.box.width)),
      ).toBeLessThan(2);
    }
  });

  it("meets issue 26's line targets on the 140-table schema shaped like Lago, and beats drawing every table once", () => {
    const once = readabilityMetrics(measureSvg(renderDiagramSvg(busy)));
    const drawing = measureSvg(withCopies);
    const metrics = readabilityMetrics(drawing);
    expect(metrics.medianLengthInTableWidths).toBeLessThanOrEqual(4);
    expect(metrics.medianLengthInTableWidths).toBeLessThan(once.medianLengthInTableWidths);
    expect(metrics.crossingsPerRelationship).toBeLessThanOrEqual(8);
    expect(metrics.nearParallelPairs).toBeLessThanOrEqual(80);
    expect(crossings(drawing)).toEqual([]);
    expect(sharedRuns(drawing)).toEqual([]);
    expect(borderRuns(drawing)).toEqual([]);
  });

  it('draws the same copies in the same places every time (the drawing depends only on the document)', () => {
    expect(renderDiagramSvg(busy, { hubCopies: true })).toBe(withCopies);
  });

  it('draws every table once without the option, with a highlight, or with groups or sticky notes', () => {
    const plain = renderDiagramSvg(busy);
    expect(plain).not.toContain('data-table-copy');
    const highlight = emptyHighlight();
    highlight.tables.set(busy.tables[0]!.uuid, 'changed');
    expect(renderDiagramSvg(busy, { hubCopies: true, highlight })).not.toContain('data-table-copy');
    const frame = { left: -2000, top: -2000, width: 200, height: 100, color: null, parent_uuid: null };
    const grouped = {
      ...busy,
      groups: [{ ...frame, uuid: '00000000-0000-4000-8000-000000000901', name: 'g' }],
    };
    expect(renderDiagramSvg(grouped, { hubCopies: true })).not.toContain('data-table-copy');
    const noted = {
      ...busy,
      sticky_notes: [{ ...frame, uuid: '00000000-0000-4000-8000-000000000902', content: 'n' }],
    };
    expect(renderDiagramSvg(noted, { hubCopies: true })).not.toContain('data-table-copy');
  });

  it("writes a busy table's name inert in its copies", () => {
    const hub = busyTables(busy)[0]!;
    const hostile = `${hub}<script>alert(1)</script>"&'`;
    const renamed: DiagramDocument = {
      ...busy,
      tables: busy.tables.map((table) => (table.name === hub ? { ...table, name: hostile } : table)),
      relationships: busy.relationships.map((link) => ({
        ...link,
        source_table: link.source_table === hub ? hostile : link.source_table,
        target_table: link.target_table === hub ? hostile : link.target_table,
      })),
    };
    const svg = renderDiagramSvg(renamed, { hubCopies: true });
    expect(svg).not.toContain('<script>');
    const copies = carrying(svg, 'data-table-copy');
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) expect(copy.attributes['data-table-copy']).toBe(hostile);
  });
});
