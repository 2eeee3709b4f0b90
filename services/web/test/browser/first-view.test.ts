/// <reference lib="dom" />
// The first view of every corpus diagram, as the diagram page lays it out (the page frame, the app's and
// the diagram's stylesheets, the viewport script) in Chromium at 1440×900: every table in view and none
// under the toolbar; "Find a table" brings a tall table's header into view; lines follow a dragged table.
// The page is served from memory (no services), so the whole corpus is drawn, the file over the API's DDL
// limit included.
import { pointsOfPath } from '@dss/diagram-svg';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import {
  corpusFiles,
  diagramPage,
  documentFrom,
  importCorpus,
  openDiagramPage as open,
} from '../support/static-diagram';

const FILES = corpusFiles();

interface ScreenBox {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Screen rectangles of every table box, the toolbar and the view. */
function screenBoxes(page: Page) {
  return page.evaluate(() => {
    const rect = (element: Element) => {
      const r = element.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return {
      tables: Array.from(document.querySelectorAll<SVGGElement>('g.dss-table[data-table]')).map((g) => ({
        name: g.dataset.table ?? '',
        ...rect(g.querySelector('rect.dss-box')!),
      })),
      toolbar: rect(document.querySelector('.dss-zoom-controls')!),
      view: rect(document.querySelector('figure.diagram')!),
    };
  });
}

const intersects = (a: Omit<ScreenBox, 'name'>, b: Omit<ScreenBox, 'name'>) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('the first view of a diagram (Chromium, 1440×900)', () => {
  jest.setTimeout(120_000);
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(FILES)('$file: every table in view, none under the toolbar', async ({ file, driver }) => {
    const diagram = await importCorpus(file, driver);
    const page = await open(browser, diagramPage(file, diagram));
    const { tables, toolbar, view } = await screenBoxes(page);
    expect(tables).toHaveLength(diagram.tables.length);
    expect(tables.filter((table) => intersects(table, toolbar)).map((table) => table.name)).toEqual([]);
    const outside = tables.filter(
      (box) =>
        box.left < view.left - 1 ||
        box.top < view.top - 1 ||
        box.right > view.right + 1 ||
        box.bottom > view.bottom + 1,
    );
    expect(outside.map((table) => table.name)).toEqual([]);
    // Fit (the button and the key) gives the same view.
    await page.click('button[data-zoom-action=in]');
    await page.click('button[data-zoom-action=fit]');
    const refitted = await screenBoxes(page);
    expect(refitted.tables.filter((table) => intersects(table, refitted.toolbar))).toEqual([]);
    await saveScreenshot(page, `first-view-${file.replace(/[/.]/g, '-')}`);
    await page.context().close();
  });

  it('"Find a table" brings a table taller than the view to the view with its header below the toolbar', async () => {
    const columns = Array.from({ length: 60 }, (_, at) => ({ name: `column_${at}`, type: 'integer' }));
    const diagram = documentFrom({
      strategy: 'merge',
      tables: Array.from({ length: 24 }, (_, at) => ({
        name: at === 7 ? 'tall' : `table_${at}`,
        left: (at % 6) * 300,
        top: Math.floor(at / 6) * 1700,
        columns: at === 7 ? columns : columns.slice(0, 3),
      })),
    }).document;
    const page = await open(browser, diagramPage('tall', diagram));
    await page.fill('input.dss-table-search', 'tall');
    await page.press('input.dss-table-search', 'Enter');
    const { tables, toolbar, view } = await screenBoxes(page);
    const tall = tables.find((table) => table.name === 'tall')!;
    // Taller than the view at 100%: its header (the top 36 units) is in view, below the toolbar.
    expect(tall.bottom - tall.top).toBeGreaterThan(view.bottom - view.top);
    expect(tall.top).toBeGreaterThanOrEqual(toolbar.bottom);
    expect(tall.top + 36).toBeLessThan(view.bottom);
    expect(tall.left).toBeGreaterThanOrEqual(view.left);
    await saveScreenshot(page, 'find-a-tall-table');
    await page.context().close();
  });

  it('a dragged table takes its lines along while it moves', async () => {
    const pagila = await importCorpus('pgsql/pagila.sql', 'pgsql');
    const page = await open(browser, diagramPage('pagila', pagila));
    const table = pagila.relationships.find((link) => link.source_table !== link.target_table)!.source_table;
    await page.fill('input.dss-table-search', table);
    await page.press('input.dss-table-search', 'Enter');
    await page.click('button[data-zoom-action=arrange]');
    const ends = () =>
      page.evaluate((name) => {
        const box = (
          document.querySelector(`g.dss-table[data-table="${name}"]`) as SVGGElement
        ).getBoundingClientRect();
        const g = document.querySelector(`g.dss-relationship[data-source-table="${name}"]`) as SVGGElement;
        const path = g.querySelector('path.dss-line') as SVGPathElement;
        const start = path.getPointAtLength(0);
        const matrix = path.getScreenCTM()!;
        const screen = new DOMPoint(start.x, start.y).matrixTransform(matrix);
        return {
          d: path.getAttribute('d') ?? '',
          start: { x: screen.x, y: screen.y },
          box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
        };
      }, table);
    const before = await ends();
    const grip = { x: before.box.left + 30, y: before.box.top + 12 };
    await page.mouse.move(grip.x, grip.y);
    await page.mouse.down();
    await page.mouse.move(grip.x + 160, grip.y + 90, { steps: 8 });
    // Still held: the line has already been redrawn from the table where it now is.
    await page.waitForFunction(
      ([name, d]) =>
        (
          document.querySelector(
            `g.dss-relationship[data-source-table="${name}"] path.dss-line`,
          ) as SVGPathElement
        ).getAttribute('d') !== d,
      [table, before.d] as const,
    );
    const during = await ends();
    expect(pointsOfPath(during.d).length).toBeGreaterThanOrEqual(2);
    const onEdge = Math.min(
      Math.abs(during.start.x - during.box.left),
      Math.abs(during.start.x - during.box.right),
    );
    expect(onEdge).toBeLessThan(2);
    expect(during.start.y).toBeGreaterThan(during.box.top);
    expect(during.start.y).toBeLessThan(during.box.bottom);
    await saveScreenshot(page, 'drag-lines-follow');
    await page.mouse.up();
    expect(await page.locator('g.dss-relationship.dss-stale').count()).toBe(0);
    await page.context().close();
  });
});
