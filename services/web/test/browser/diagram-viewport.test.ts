/// <reference lib="dom" />
// The public corpus's diagrams as a person sees them in Chromium (1400×1000): measured through the
// markup contract from the rendered page, no line runs through a table it does not connect and no two
// relationships share a run; the first view shows every table; wheel zoom and drag pan move the drawing;
// zoomed in, column text is at least 12 px high. Screenshots go to artifacts/screenshots.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crossings, type Drawing, pointsOfPath, sharedRuns } from '@dss/diagram-svg';
import type { TestMember } from '@dss/system';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { createPerson, importDdl, type WebTestSystem } from '../support/web-system';

const CORPUS = path.resolve(__dirname, '../../../../../shared/corpus');
if (!fs.existsSync(path.join(CORPUS, 'manifest.json')))
  throw new Error(`the public corpus is missing: expected ${CORPUS}/manifest.json beside the repository`);

const DIAGRAMS = [
  { name: 'northwind', file: 'sqlsrv/northwind.sql', driver: 'sqlsrv' },
  { name: 'pterodactyl', file: 'mysql/pterodactyl.sql', driver: 'mysql' },
  { name: 'pagila', file: 'pgsql/pagila.sql', driver: 'pgsql' },
  { name: 'danbooru', file: 'pgsql/danbooru.sql', driver: 'pgsql' },
] as const;

/** Tables (rendered boxes) and lines (their points) in the drawing's own units, read from the page. */
/** How far the centre of a table's box is from the centre of the diagram's view, in CSS pixels. */
async function offsetFromViewCentre(page: Page, tableName: string): Promise<{ x: number; y: number }> {
  const { table, view } = await page.evaluate(
    (name) => ({
      table: (document.querySelector(`g.dss-table[data-table="${name}"] rect.dss-box`) as SVGRectElement)
        .getBoundingClientRect()
        .toJSON() as DOMRect,
      view: document.querySelector('figure.diagram')!.getBoundingClientRect().toJSON() as DOMRect,
    }),
    tableName,
  );
  return {
    x: table.left + table.width / 2 - (view.left + view.width / 2),
    y: table.top + table.height / 2 - (view.top + view.height / 2),
  };
}

async function measure(page: Page): Promise<Drawing & { view: DOMRect; screenBoxes: DOMRect[] }> {
  const raw = await page.evaluate(() => {
    const figure = document.querySelector('figure.diagram') as HTMLElement;
    const tables = Array.from(document.querySelectorAll<SVGGElement>('g.dss-table[data-table]')).map((g) => {
      const box = (g.querySelector('rect.dss-box') as SVGRectElement).getBBox();
      const screen = (g.querySelector('rect.dss-box') as SVGRectElement).getBoundingClientRect();
      return {
        name: g.dataset.table ?? '',
        box: { left: box.x, top: box.y, width: box.width, height: box.height },
        screen: screen.toJSON(),
      };
    });
    const relationships = Array.from(
      document.querySelectorAll<SVGGElement>('g.dss-relationship[data-relationship]'),
    ).map((g) => ({
      id: g.dataset.relationship ?? '',
      source: g.dataset.sourceTable ?? '',
      target: g.dataset.targetTable ?? '',
      d: (g.querySelector('path.dss-line') as SVGPathElement).getAttribute('d') ?? '',
    }));
    return { tables, relationships, view: figure.getBoundingClientRect().toJSON() };
  });
  return {
    tables: raw.tables.map(({ name, box }) => ({ name, box })),
    relationships: raw.relationships.map(({ id, source, target, d }) => ({
      id,
      source,
      target,
      points: pointsOfPath(d),
    })),
    view: raw.view,
    screenBoxes: raw.tables.map((table) => table.screen),
  };
}

const firstTable = (page: Page) =>
  page.evaluate(
    () =>
      (document.querySelector('g.dss-table rect.dss-box') as SVGRectElement)
        .getBoundingClientRect()
        .toJSON() as DOMRect,
  );

describe('corpus diagrams in the browser: routing, first view, zoom and pan', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let viewer: TestMember;
  let editor: TestMember;
  const uuids = new Map<string, string>();

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('corpus');
    editor = await createPerson(web, 'corpus', 'editor', 'Corpus Editor');
    viewer = await createPerson(web, 'corpus', 'viewer', 'Corpus Viewer');
    for (const diagram of DIAGRAMS) {
      const ddl = fs.readFileSync(path.join(CORPUS, diagram.file), 'utf8');
      uuids.set(diagram.name, await importDdl(web, editor, diagram.name, ddl, diagram.driver));
    }
  }, 300_000);

  it.each(DIAGRAMS.map((diagram) => diagram.name))(
    '%s: no line through a table, no shared runs, every table in the first view',
    async (name) => {
      const page = await suite.signedInPage(viewer, `/diagrams/${uuids.get(name)}`);
      await page.waitForSelector('figure.diagram[data-viewport=ready]');
      const drawing = await measure(page);
      expect(drawing.tables.length).toBeGreaterThan(10);
      expect(crossings(drawing)).toEqual([]);
      expect(sharedRuns(drawing)).toEqual([]);
      const { view } = drawing;
      const outside = drawing.screenBoxes.filter(
        (box) =>
          box.left < view.left - 1 ||
          box.top < view.top - 1 ||
          box.right > view.right + 1 ||
          box.bottom > view.bottom + 1,
      );
      expect(outside).toEqual([]);
      // The drawing takes the page's width beside the History pane: over 70% of a 1400 px window (was 59%).
      expect(view.right - view.left).toBeGreaterThan(0.7 * 1400);
      await saveScreenshot(page, `corpus-${name}`);
    },
  );

  it('zooms around the pointer with the wheel and pans with a drag, for a viewer too', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${uuids.get('pagila')}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    const view = await page.evaluate(
      () => document.querySelector('figure.diagram')!.getBoundingClientRect().toJSON() as DOMRect,
    );
    const before = await firstTable(page);
    await page.mouse.move(view.left + view.width / 2, view.top + view.height / 2);
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(100);
    const zoomed = await firstTable(page);
    expect(zoomed.width).toBeGreaterThan(before.width * 1.5);
    await page.mouse.move(view.left + view.width / 2, view.top + view.height / 2);
    await page.mouse.down();
    await page.mouse.move(view.left + view.width / 2 + 150, view.top + view.height / 2 + 80, { steps: 5 });
    await page.mouse.up();
    const panned = await firstTable(page);
    expect(panned.left - zoomed.left).toBeCloseTo(150, -1);
    expect(panned.top - zoomed.top).toBeCloseTo(80, -1);
  });

  it("an editor's page at 1440×900 shows the whole fitted diagram without scrolling, and keeps it so when the window changes height", async () => {
    const page = await suite.signedInPage(editor, `/diagrams/${uuids.get('danbooru')}`);
    const inWindow = async (height: number) => {
      await page.waitForSelector('figure.diagram[data-viewport=ready]');
      const { view, screenBoxes } = await measure(page);
      // The page is not scrolled, so screen coordinates are the window's.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(view.bottom).toBeLessThanOrEqual(height);
      expect(screenBoxes.filter((box) => box.bottom > height + 1)).toEqual([]);
      return view;
    };
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    const first = await inWindow(900);
    // Above the drawing sit the title, the meta line, Export and the rename row: the stylesheet's 75% of
    // the window alone would end below it.
    expect(first.top + 0.75 * 900).toBeGreaterThan(900);
    expect(first.bottom - first.top).toBeGreaterThanOrEqual(320);
    await page.setViewportSize({ width: 1440, height: 1200 });
    await page.getByRole('button', { name: 'Fit the whole diagram (0)' }).click();
    const taller = await inWindow(1200);
    expect(taller.bottom - taller.top).toBeGreaterThan(first.bottom - first.top + 200);
    await saveScreenshot(page, 'corpus-danbooru-editor-1440x1200');
  });

  it('fits with 0, shows 100% with 1, zooms with + and −, and at 100% and beyond column text is at least 12 px', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${uuids.get('danbooru')}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    await page.focus('figure.diagram');
    const textHeight = () =>
      page.evaluate(
        () =>
          (document.querySelector('text.dss-column-name') as SVGTextElement).getBoundingClientRect().height,
      );
    const fitted = await textHeight();
    await page.keyboard.press('1');
    expect(await textHeight()).toBeGreaterThanOrEqual(12);
    await page.keyboard.press('+');
    expect(await textHeight()).toBeGreaterThan(14);
    await page.keyboard.press('0');
    expect(await textHeight()).toBeCloseTo(fitted, 1);
    await page.click('button[data-zoom-action=actual]');
    expect(await textHeight()).toBeGreaterThanOrEqual(12);
    await saveScreenshot(page, 'corpus-danbooru-100-percent');
  });

  it('finds a table by name on a large diagram: centred across, its header in view below the toolbar', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${uuids.get('danbooru')}`);
    await page.waitForSelector('input.dss-table-search');
    await page.fill('input.dss-table-search', 'users');
    await page.press('input.dss-table-search', 'Enter');
    const offset = await offsetFromViewCentre(page, 'users');
    expect(Math.abs(offset.x)).toBeLessThan(20);
    const { box, toolbar, view } = await page.evaluate(() => ({
      box: (document.querySelector('g.dss-table[data-table="users"] rect.dss-box') as SVGRectElement)
        .getBoundingClientRect()
        .toJSON() as DOMRect,
      toolbar: document.querySelector('.dss-zoom-controls')!.getBoundingClientRect().toJSON() as DOMRect,
      view: document.querySelector('figure.diagram')!.getBoundingClientRect().toJSON() as DOMRect,
    }));
    // users is taller than the view: its header is at the top, below the toolbar; a short table is centred.
    expect(box.top).toBeGreaterThanOrEqual(toolbar.bottom);
    expect(box.top + 36).toBeLessThan(view.bottom);
    if (box.height < view.height - 80) expect(Math.abs(offset.y)).toBeLessThan(40);
  });

  it('shows a minimap of every table once zoomed in, frames the part in view, and moves the view where it is pressed', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${uuids.get('danbooru')}`);
    await page.waitForSelector('svg.dss-minimap', { state: 'attached' });
    const minimap = () =>
      page.evaluate(() => {
        const units = (rect: Element) => ({
          x: Number(rect.getAttribute('x')),
          y: Number(rect.getAttribute('y')),
          width: Number(rect.getAttribute('width')),
          height: Number(rect.getAttribute('height')),
        });
        const map = document.querySelector('svg.dss-minimap')!;
        return {
          tables: Array.from(map.querySelectorAll('rect.dss-minimap-table')).map(units),
          view: units(map.querySelector('rect.dss-minimap-view')!),
          screen: map.getBoundingClientRect().toJSON() as DOMRect,
          shown: getComputedStyle(map).display !== 'none',
          drawnTables: document.querySelectorAll('svg.dss-diagram g.dss-table[data-table]').length,
        };
      });
    const first = await minimap();
    expect(first.tables).toHaveLength(first.drawnTables);
    // The first view shows every table: the frame holds every table's box, and the map hides itself
    // (it would only cover part of the drawing).
    const inside = (box: { x: number; y: number; width: number; height: number }) =>
      box.x >= first.view.x - 1 &&
      box.y >= first.view.y - 1 &&
      box.x + box.width <= first.view.x + first.view.width + 1 &&
      box.y + box.height <= first.view.y + first.view.height + 1;
    expect(first.tables.filter((box) => !inside(box))).toEqual([]);
    expect(first.shown).toBe(false);

    await page.click('button[data-zoom-action=in]');
    await page.click('button[data-zoom-action=in]');
    const zoomed = await minimap();
    expect(zoomed.shown).toBe(true);
    expect(zoomed.screen.width).toBeGreaterThan(50);
    expect(zoomed.screen.width).toBeLessThanOrEqual(201);
    expect(first.view.width / zoomed.view.width).toBeCloseTo(1.96, 1);

    // A press on the users table's box in the minimap puts users in the middle of the view. The page is
    // taller than the window (export, live bar, import warnings above the drawing): bring the map into view.
    await page.locator('svg.dss-minimap').scrollIntoViewIfNeeded();
    const target = await page.evaluate(() =>
      (document.querySelector('rect.dss-minimap-table[data-minimap-table="users"]') as SVGRectElement)
        .getBoundingClientRect()
        .toJSON(),
    );
    await page.mouse.click(target.left + target.width / 2, target.top + target.height / 2);
    const offset = await offsetFromViewCentre(page, 'users');
    expect(Math.abs(offset.x)).toBeLessThan(20);
    expect(Math.abs(offset.y)).toBeLessThan(20);
    await saveScreenshot(page, 'corpus-danbooru-minimap');
  });
});
