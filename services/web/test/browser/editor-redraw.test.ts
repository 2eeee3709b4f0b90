/// <reference lib="dom" />
// The editor's redraw after an edit on a large generated diagram (300 tables, 600 foreign keys, laid out as
// an import lays it out), in Chromium, on the editor's own drawing path (EditorStore edit, CanvasDrawing
// patching the SVG; the page of its benchmark): adding a column to a table puts in again only that table
// and the lines of it or in its way. Every other line keeps its path element, the same node with the same
// `d`, and no line runs through the grown table, measured from the rendered page (the box's getBBox, the
// lines' path data). A screenshot of the grown table goes to artifacts/screenshots/.
import { generatedDiagram } from '@dss/diagram-svg/src/bench/schema-generator';
import { drawingBenchPagePath } from '@dss/editor';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';

interface RedrawWindow {
  dssBench: {
    load(document: unknown): Promise<number>;
    addColumn(table: string, full: boolean): Promise<number>;
  };
  /** The line path elements before the edit, by relationship uuid. */
  dssLinesBefore: Map<string, { path: SVGPathElement; d: string }>;
  /** Writes to the SVG root's attributes during the edit: the attribute and the value it had. */
  dssRootWrites: { name: string; oldValue: string | null }[];
}

interface LineCheck {
  uuid: string;
  source: string;
  target: string;
  sameNode: boolean;
  sameD: boolean;
  points: [number, number][];
  /** The line's points before the edit. */
  before: [number, number][];
}

/** Every line on the page against the one kept before the edit (same node, same `d`), with its points. */
async function linesAfter(page: Page): Promise<LineCheck[]> {
  return page.evaluate(() => {
    const before = (globalThis as unknown as RedrawWindow).dssLinesBefore;
    return Array.from(document.querySelectorAll<SVGGElement>('g.dss-relationship')).map((group) => {
      const uuid = group.dataset['relationship'] ?? '';
      const path = group.querySelector<SVGPathElement>('path.dss-line')!;
      const d = path.getAttribute('d') ?? '';
      const pointsOf = (data: string) =>
        Array.from(data.matchAll(/[ML]\s*(-?[\d.e]+)[\s,]+(-?[\d.e]+)/g)).map(
          (match) => [Number(match[1]), Number(match[2])] as [number, number],
        );
      const points = pointsOf(d);
      return {
        uuid,
        source: group.dataset['sourceTable'] ?? '',
        target: group.dataset['targetTable'] ?? '',
        sameNode: before.get(uuid)?.path === path,
        sameD: before.get(uuid)?.d === d,
        points,
        before: pointsOf(before.get(uuid)?.d ?? ''),
      };
    });
  });
}

describe('the editor redraws only what an edit changed (Chromium)', () => {
  jest.setTimeout(600_000);
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adding a column to a table of 300 keeps every line not touching it as it was, and no line runs through the grown table', async () => {
    const diagram = generatedDiagram({ tables: 300, relationships: 600 });
    const { page } = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.setContent('<!doctype html><html><head><title>redraw</title></head><body></body></html>');
    await page.addScriptTag({ path: drawingBenchPagePath });
    await page.evaluate((doc) => (globalThis as unknown as RedrawWindow).dssBench.load(doc), diagram);
    // The table with the most lines: the edit with the most lines to route again.
    const ends = new Map<string, number>();
    for (const relationship of diagram.relationships)
      for (const name of [relationship.source_table, relationship.target_table])
        ends.set(name, (ends.get(name) ?? 0) + 1);
    const ranked = diagram.tables
      .map((table) => table.name)
      .sort((a, b) => (ends.get(b) ?? 0) - (ends.get(a) ?? 0));
    const table = ranked[Math.floor(ranked.length / 4)]!;
    const boxOf = (name: string) =>
      page.locator(`g.dss-table[data-table="${name}"] rect.dss-box`).evaluate((rect) => {
        const box = (rect as SVGRectElement).getBBox();
        return { x: box.x, y: box.y, width: box.width, height: box.height };
      });
    const allBoxes = () =>
      page.evaluate(() => {
        const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {};
        for (const rect of Array.from(
          document.querySelectorAll<SVGRectElement>('g.dss-table rect.dss-box'),
        )) {
          const box = rect.getBBox();
          const name = (rect.closest('g.dss-table') as SVGGElement).dataset['table'] ?? '';
          boxes[name] = { x: box.x, y: box.y, width: box.width, height: box.height };
        }
        return boxes;
      });
    const grownFrom = await boxOf(table);
    const boxesBefore = await allBoxes();
    await page.evaluate(() => {
      const lines = new Map<string, { path: SVGPathElement; d: string }>();
      for (const group of Array.from(document.querySelectorAll<SVGGElement>('g.dss-relationship'))) {
        const path = group.querySelector<SVGPathElement>('path.dss-line')!;
        lines.set(group.dataset['relationship'] ?? '', { path, d: path.getAttribute('d') ?? '' });
      }
      (globalThis as unknown as RedrawWindow).dssLinesBefore = lines;
      const writes: RedrawWindow['dssRootWrites'] = [];
      new MutationObserver((records) => {
        for (const record of records)
          writes.push({ name: record.attributeName ?? '', oldValue: record.oldValue });
      }).observe(document.querySelector('svg')!, { attributes: true, attributeOldValue: true });
      (globalThis as unknown as RedrawWindow).dssRootWrites = writes;
    });

    await page.evaluate(
      (name) => (globalThis as unknown as RedrawWindow).dssBench.addColumn(name, false),
      table,
    );

    // The root's size and viewBox are written only when they change: Chromium lays out every text of the
    // SVG again after any write to them, even of the same value (170 ms of a 300-table diagram's redraw).
    const rewrittenAsBefore = await page.evaluate(() => {
      const svg = document.querySelector('svg')!;
      return (globalThis as unknown as RedrawWindow).dssRootWrites
        .filter((write) => write.oldValue === svg.getAttribute(write.name))
        .map((write) => write.name);
    });
    expect(rewrittenAsBefore).toEqual([]);
    const grown = await boxOf(table);
    expect(grown.height).toBeGreaterThan(grownFrom.height);
    const lines = await linesAfter(page);
    expect(lines).toHaveLength(diagram.relationships.length);
    // Runs through the grown table's inside (2 px in from its outline), by lines not ending at it.
    const through = (line: LineCheck) =>
      line.source !== table &&
      line.target !== table &&
      line.points.some((point, at) => {
        const next = line.points[at + 1];
        return (
          next !== undefined &&
          Math.max(point[0], next[0]) > grown.x + 2 &&
          Math.min(point[0], next[0]) < grown.x + grown.width - 2 &&
          Math.max(point[1], next[1]) > grown.y + 2 &&
          Math.min(point[1], next[1]) < grown.y + grown.height - 2
        );
      });
    expect(lines.filter(through).map((line) => line.uuid)).toEqual([]);
    // Lines not touching a table the edit changed (the grown table, and any neighbour its new width pushed
    // aside): not ending at one, and clear of its new box before the edit. They are the same nodes with the
    // same paths.
    const boxesAfter = await allBoxes();
    const changed = Object.keys(boxesAfter).filter(
      (name) => JSON.stringify(boxesAfter[name]) !== JSON.stringify(boxesBefore[name]),
    );
    expect(changed).toContain(table);
    const clear = (line: LineCheck) =>
      !changed.includes(line.source) &&
      !changed.includes(line.target) &&
      line.before.length > 0 &&
      !changed.some((name) => {
        const box = boxesAfter[name]!;
        return line.before.some((point, at) => {
          const next = line.before[at + 1];
          return (
            next !== undefined &&
            Math.max(point[0], next[0]) > box.x - 12 &&
            Math.min(point[0], next[0]) < box.x + box.width + 12 &&
            Math.max(point[1], next[1]) > box.y - 12 &&
            Math.min(point[1], next[1]) < box.y + box.height + 12
          );
        });
      });
    const untouched = lines.filter(clear);
    expect(untouched.length).toBeGreaterThan(lines.length / 2);
    expect(untouched.filter((line) => !line.sameNode || !line.sameD).map((line) => line.uuid)).toEqual([]);
    // And only a few lines were put in again at all: the table's own and those in its new box's way.
    const rewritten = lines.filter((line) => !line.sameNode);
    const changedEnds = changed.reduce((sum, name) => sum + (ends.get(name) ?? 0), 0);
    expect(rewritten.length).toBeLessThanOrEqual(changedEnds + lines.length / 20);

    await page.locator(`g.dss-table[data-table="${table}"]`).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'editor-redraw-added-column');
    await page.close();
  });
});
