/// <reference lib="dom" />
// A large schema (140 tables and 340 foreign keys from the seeded generator, a third of them to three hub
// tables, shaped like Lago's real 139 tables; public dumps are not copied into the repository) on the
// diagram page at 1440×900, laid out as the import lays it out now and as it did before (dagre units):
// the geometry measured from the page's own markup (data-table, data-relationship) has no line through a
// table, and fewer crossings and shorter lines now. Screenshots of both, fitted and at 100% with a table
// under the pointer, go to artifacts/screenshots/.
import { crossings, makeRoomForLines, measureSvg, pointsOfPath, readabilityMetrics } from '@dss/diagram-svg';
import { generatedDiagram } from '@dss/diagram-svg/src/bench/schema-generator';
import { type DiagramDocument, layOutNewRecords } from '@dss/schema';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { diagramPage, documentFrom, openDiagramPage } from '../support/static-diagram';

/**
 * The drawing as the page shows it, measured through the markup contract: the drawing's own <svg> (the one
 * holding the tables), serialised as XML, as the server wrote it.
 */
const measured = async (page: Page) =>
  measureSvg(
    await page.evaluate(() => {
      const svg = document.querySelector('g.dss-table[data-table]')!.closest('svg')!;
      return new XMLSerializer().serializeToString(svg);
    }),
  );

async function hoverTable(page: Page, name: string): Promise<void> {
  const box = await page
    .locator(`g.dss-table[data-table="${name}"] rect.dss-box`)
    .evaluate((rect) => rect.getBoundingClientRect().toJSON() as DOMRect);
  await page.mouse.move(box.left + box.width / 2, box.top + Math.min(10, box.height / 2));
}

describe('a large schema on the diagram page (Chromium)', () => {
  jest.setTimeout(600_000);
  let browser: TestBrowser;
  let kept: DiagramDocument;
  let before: DiagramDocument;
  beforeAll(async () => {
    browser = await launchBrowser();
    // As the importer lays it out: the whole-schema layout, then room for the lines where they crowd.
    kept = makeRoomForLines(generatedDiagram({ tables: 140, relationships: 340 }));
    const frames = layOutNewRecords(
      kept,
      { tables: new Set(kept.tables.map((table) => table.uuid)), groups: new Set(), notes: new Set() },
      { wholeSchema: false },
    );
    before = { ...kept, tables: kept.tables.map((table) => ({ ...table, ...frames.get(table.uuid) })) };
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("140 tables around hubs: the import's layout draws no line through a table, with fewer crossings and shorter lines than before", async () => {
    const metrics: Record<string, ReturnType<typeof readabilityMetrics>> = {};
    for (const [label, document] of [
      ['before', before],
      ['after', kept],
    ] as const) {
      const page = await openDiagramPage(browser, diagramPage('large', document));
      const drawing = await measured(page);
      expect(drawing.tables).toHaveLength(140);
      expect(drawing.relationships).toHaveLength(document.relationships.length);
      expect(crossings(drawing)).toEqual([]);
      metrics[label] = readabilityMetrics(drawing);
      await saveScreenshot(page, `large-${label}-fitted`);
      await page.fill('input.dss-table-search', 'users');
      await page.press('input.dss-table-search', 'Enter');
      await hoverTable(page, 'users');
      await saveScreenshot(page, `large-${label}-100-users`);
      await page.context().close();
    }
    process.stdout.write(`large schema on the page: ${JSON.stringify(metrics)}\n`);
    expect(metrics.after!.crossings).toBeLessThan(metrics.before!.crossings / 2);
    expect(metrics.after!.nearParallelPairs).toBeLessThan(metrics.before!.nearParallelPairs / 2);
    expect(metrics.after!.medianLengthInTableWidths).toBeLessThan(metrics.before!.medianLengthInTableWidths);
    // Item 2 on the page, in drawing units: no line along a table it does not connect (62 before). Crossings
    // per relationship and near-parallel pairs measured 8.9 and 78 (the targets, for its 134-table
    // schema, are 8 and 80); the bounds leave a little room.
    expect(metrics.after!.borderRuns).toBe(0);
    expect(metrics.after!.crossingsPerRelationship).toBeLessThanOrEqual(9.5);
    expect(metrics.after!.nearParallelPairs).toBeLessThanOrEqual(85);
  });
});

describe('busy tables drawn again on the diagram page (Chromium)', () => {
  jest.setTimeout(300_000);
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const document = makeRoomForLines(generatedDiagram({ tables: 140, relationships: 340 }));

  it("the hub's far lines end on copies beside their tables: issue 26's line targets on the page, and pointing at a copy emphasises its table everywhere", async () => {
    const page = await openDiagramPage(browser, diagramPage('large-copies', document, { copies: true }));
    const svg = await page.evaluate(() => {
      const root = window.document.querySelector('g.dss-table[data-table]')!.closest('svg')!;
      return new XMLSerializer().serializeToString(root);
    });
    const drawing = measureSvg(svg);
    const copies = drawing.tables.filter((table) => table.copy === true);
    expect(drawing.tables.filter((table) => table.copy !== true)).toHaveLength(140);
    expect(copies.length).toBeGreaterThan(0);
    expect(drawing.relationships).toHaveLength(document.relationships.length);
    // Measured in drawing units from the page's markup: the copies are obstacles like any table.
    expect(crossings(drawing)).toEqual([]);
    const metrics = readabilityMetrics(drawing);
    process.stdout.write(`large schema with copies on the page: ${JSON.stringify(metrics)}\n`);
    expect(metrics.medianLengthInTableWidths).toBeLessThanOrEqual(4);
    expect(metrics.crossingsPerRelationship).toBeLessThanOrEqual(8);
    expect(metrics.nearParallelPairs).toBeLessThanOrEqual(80);
    expect(metrics.borderRuns).toBe(0);
    await saveScreenshot(page, 'large-copies-fitted');

    // Pointing at a copy is pointing at its table: the table and all of its copies are in focus, its lines
    // (to the table and to every copy) are emphasised, and a table it has no line to fades.
    const hub = copies[0]!.name.replace(/#copy\d+$/, '');
    const copy = page.locator('g.dss-table-copy').first();
    const box = (await copy.locator('rect.dss-box').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const state = await page.evaluate((name) => {
      const all = Array.from(window.document.querySelectorAll<SVGGElement>('g.dss-table'));
      const hubParts = all.filter((g) => (g.dataset.table ?? g.dataset.tableCopy) === name);
      const lines = Array.from(window.document.querySelectorAll<SVGGElement>('g.dss-relationship'));
      const ends = new Set(
        lines.filter((g) => g.dataset.targetTable === name).map((g) => g.dataset.sourceTable ?? ''),
      );
      const stranger = all.find(
        (g) =>
          g.dataset.table !== undefined &&
          g.dataset.table !== name &&
          !ends.has(g.dataset.table) &&
          !lines.some(
            (line) => line.dataset.sourceTable === name && line.dataset.targetTable === g.dataset.table,
          ),
      );
      return {
        parts: hubParts.length,
        focused: hubParts.filter((g) => g.classList.contains('dss-focus')).length,
        related: lines.filter((g) => g.dataset.targetTable === name && g.classList.contains('dss-related'))
          .length,
        toHub: lines.filter((g) => g.dataset.targetTable === name).length,
        strangerOpacity: stranger === undefined ? null : getComputedStyle(stranger).opacity,
      };
    }, hub);
    expect(state.parts).toBeGreaterThan(1);
    expect(state.focused).toBe(state.parts);
    expect(state.related).toBe(state.toHub);
    expect(state.strangerOpacity).toBe('0.25');
    await saveScreenshot(page, 'large-copies-hub-focused');

    // A double click on a copy goes to the table itself: its header comes into view, at 100%.
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction((name) => {
      const figure = window.document.querySelector('figure.diagram')!.getBoundingClientRect();
      const header = window.document
        .querySelector(`g.dss-table[data-table="${name}"] rect.dss-box`)!
        .getBoundingClientRect();
      return (
        header.width > 100 &&
        header.left >= figure.left &&
        header.right <= figure.right &&
        header.top >= figure.top &&
        header.top + 36 <= figure.bottom
      );
    }, hub);
    await saveScreenshot(page, 'large-copies-went-to-hub');
    await page.context().close();
  });

  it('while tables are arranged by hand, a line to a copy follows its dragged table and still ends on the copy', async () => {
    const page = await openDiagramPage(
      browser,
      diagramPage('large-copies-arrange', document, { copies: true, arrange: true }),
    );
    await page.click('button[data-zoom-action=arrange]');
    const read = () =>
      page.evaluate(() => {
        const line = window.document.querySelector<SVGGElement>('g.dss-relationship[data-target-copy]')!;
        const copy = window.document.querySelector<SVGRectElement>(
          `g.dss-table-copy[data-table-copy="${line.dataset.targetTable}"][data-copy="${line.dataset.targetCopy}"] rect.dss-box`,
        )!;
        const source = window.document.querySelector<SVGRectElement>(
          `g.dss-table[data-table="${line.dataset.sourceTable}"] rect.dss-box`,
        )!;
        const screen = source.getBoundingClientRect();
        return {
          d: line.querySelector('path.dss-line')!.getAttribute('d')!,
          copy: {
            left: copy.x.baseVal.value,
            top: copy.y.baseVal.value,
            width: copy.width.baseVal.value,
            height: copy.height.baseVal.value,
          },
          grip: {
            x: screen.left + Math.min(20, screen.width / 2),
            y: screen.top + Math.min(6, screen.height / 2),
          },
        };
      });
    const before = await read();
    await page.mouse.move(before.grip.x, before.grip.y);
    await page.mouse.down();
    await page.mouse.move(before.grip.x + 40, before.grip.y + 30, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction(
      (d) =>
        window.document
          .querySelector('g.dss-relationship[data-target-copy] path.dss-line')!
          .getAttribute('d') !== d,
      before.d,
    );
    const after = await read();
    const points = pointsOfPath(after.d);
    expect(points[0]).not.toEqual(pointsOfPath(before.d)[0]);
    // The copy did not move, and the line still ends on its left or right side, on its key row's height.
    expect(after.copy).toEqual(before.copy);
    const [x, y] = points.at(-1)!;
    expect(
      Math.min(Math.abs(x - after.copy.left), Math.abs(x - after.copy.left - after.copy.width)),
    ).toBeLessThan(2);
    expect(y).toBeGreaterThan(after.copy.top);
    expect(y).toBeLessThan(after.copy.top + after.copy.height);
    await page.context().close();
  });
});

describe('collapsible groups on the diagram page (Chromium)', () => {
  jest.setTimeout(300_000);
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  // 105 tables: five groups of 20 and five tables in no group, each table referring to another one.
  const GROUPS = ['billing', 'catalog', 'identity', 'orders', 'shipping'];
  const name = (at: number) => (at < 100 ? `${GROUPS[Math.floor(at / 20)]}_${at % 20}` : `loose_${at - 100}`);
  const groupOf = (at: number) => (at < 100 ? GROUPS[Math.floor(at / 20)]! : null);
  const links = Array.from({ length: 105 }, (_, at) => [at, (at * 7 + 3) % 105] as const).filter(
    ([a, b]) => a !== b,
  );

  const grouped = () =>
    documentFrom({
      strategy: 'merge',
      groups: GROUPS.map((group) => ({ name: group })),
      tables: Array.from({ length: 105 }, (_, at) => ({
        name: name(at),
        ...(groupOf(at) === null ? {} : { parent_name: groupOf(at) }),
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'ref_id', type: 'bigint' },
        ],
      })),
      relationships: links.map(([a, b]) => ({
        type: 'many-to-one',
        source_table: name(a),
        source_column: 'ref_id',
        target_table: name(b),
        target_column: 'id',
      })),
    }).document;

  it('a big diagram offers to show its groups collapsed; then each group is one box with one line per neighbouring group or ungrouped table', async () => {
    const page = await openDiagramPage(browser, diagramPage('grouped', grouped()));
    await page.getByRole('button', { name: 'Show groups collapsed' }).click();
    await page.getByRole('button', { name: 'Expand groups' }).waitFor();

    // Expected: one line per pair of units (a group, or a table in no group) joined by a relationship, at
    // least one of them a group (two tables in no group keep their own lines).
    const unit = (at: number) => (groupOf(at) === null ? `table:${name(at)}` : `group:${groupOf(at)}`);
    const expected = new Set<string>();
    for (const [a, b] of links)
      if (unit(a) !== unit(b) && (groupOf(a) !== null || groupOf(b) !== null))
        expected.add([unit(a), unit(b)].sort().join(' — '));
    const drawn = await page.evaluate(() => {
      const centre = (rect: SVGGraphicsElement) => {
        const box = rect.getBBox();
        return [box.x + box.width / 2, box.y + box.height / 2];
      };
      const boxOf = (key: string) => {
        const [kind, name] = key.split(':') as [string, string];
        return kind === 'group'
          ? (document.querySelector(
              `g.dss-collapsed-group[data-collapsed-group="${name}"] rect`,
            ) as SVGGraphicsElement)
          : (document.querySelector(`g.dss-table[data-table="${name}"] rect.dss-box`) as SVGGraphicsElement);
      };
      return {
        links: Array.from(document.querySelectorAll<SVGLineElement>('line.dss-group-link')).map((line) => ({
          pair: [line.dataset.source!, line.dataset.target!].sort().join(' — '),
          from: [line.x1.baseVal.value, line.y1.baseVal.value],
          to: [line.x2.baseVal.value, line.y2.baseVal.value],
          expectedFrom: centre(boxOf(line.dataset.source!)),
          expectedTo: centre(boxOf(line.dataset.target!)),
        })),
        shownTables: Array.from(document.querySelectorAll<SVGGElement>('g.dss-table[data-table]'))
          .filter((table) => getComputedStyle(table).display !== 'none')
          .map((table) => table.dataset.table!),
        shownLines: Array.from(document.querySelectorAll<SVGGElement>('g.dss-relationship')).filter(
          (line) => getComputedStyle(line).display !== 'none',
        ).length,
        boxes: Array.from(document.querySelectorAll<SVGGElement>('g.dss-collapsed-group')).map(
          (box) => box.getAttribute('aria-label')!,
        ),
      };
    });
    expect(drawn.boxes.sort()).toEqual(GROUPS.map((group) => `Expand group ${group}`));
    expect(drawn.shownTables.sort()).toEqual(['loose_0', 'loose_1', 'loose_2', 'loose_3', 'loose_4']);
    // Only relationships between two tables in no group stay drawn as they were.
    expect(drawn.shownLines).toBe(
      links.filter(([a, b]) => groupOf(a) === null && groupOf(b) === null).length,
    );
    // Exactly one line per neighbouring pair, from the centre of one box to the centre of the other.
    expect(drawn.links.map((link) => link.pair).sort()).toEqual([...expected].sort());
    for (const link of drawn.links) {
      expect(link.from[0]).toBeCloseTo(link.expectedFrom[0]!, 0);
      expect(link.from[1]).toBeCloseTo(link.expectedFrom[1]!, 0);
      expect(link.to[0]).toBeCloseTo(link.expectedTo[0]!, 0);
      expect(link.to[1]).toBeCloseTo(link.expectedTo[1]!, 0);
    }
    await saveScreenshot(page, 'groups-collapsed');

    // A collapsed box expands its group: its tables come back, and it no longer has a box.
    // (By keyboard: the boxes stand where the frames do, and this layout's frames overlap.)
    await page.getByRole('button', { name: 'Expand group billing' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByRole('button', { name: 'Expand group billing' }).count()).toBe(0);
    const billingShown = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll<SVGGElement>('g.dss-table[data-group-member="billing"]')).filter(
          (table) => getComputedStyle(table).display !== 'none',
        ).length,
    );
    expect(billingShown).toBe(20);
    await page.context().close();
  });
  it('one group collapses from the button on its frame: only its tables and lines go, and its box has one line per neighbouring unit', async () => {
    const page = await openDiagramPage(browser, diagramPage('grouped-one', grouped()));
    await page.getByRole('button', { name: 'Show every table' }).click();
    // By keyboard, as the frames of this layout overlap (a pointer could land on another frame's button).
    await page.getByRole('button', { name: 'Collapse group catalog' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Expand group catalog' }).waitFor();
    const unit = (at: number) => (groupOf(at) === null ? `table:${name(at)}` : `group:${groupOf(at)}`);
    const expected = new Set<string>();
    for (const [a, b] of links)
      if ((groupOf(a) === 'catalog') !== (groupOf(b) === 'catalog'))
        expected.add([unit(a), unit(b)].sort().join(' — '));
    const drawn = await page.evaluate(() => ({
      boxes: Array.from(document.querySelectorAll<SVGGElement>('g.dss-collapsed-group')).map(
        (box) => box.dataset.collapsedGroup!,
      ),
      hiddenTables: Array.from(document.querySelectorAll<SVGGElement>('g.dss-table[data-table]'))
        .filter((table) => getComputedStyle(table).display === 'none')
        .map((table) => table.dataset.table!),
      hiddenLines: Array.from(document.querySelectorAll<SVGGElement>('g.dss-relationship')).filter(
        (line) => getComputedStyle(line).display === 'none',
      ).length,
      links: Array.from(document.querySelectorAll<SVGLineElement>('line.dss-group-link')).map((line) =>
        [line.dataset.source!, line.dataset.target!].sort().join(' — '),
      ),
      collapseButtons: Array.from(document.querySelectorAll<SVGGElement>('g.dss-group-collapse'))
        .filter((button) => button.closest<SVGGElement>('g.dss-group')!.style.display !== 'none')
        .map((button) => button.getAttribute('aria-label')!),
    }));
    expect(drawn.boxes).toEqual(['catalog']);
    expect(drawn.hiddenTables.sort()).toEqual(Array.from({ length: 20 }, (_, at) => `catalog_${at}`).sort());
    expect(drawn.hiddenLines).toBe(
      links.filter(([a, b]) => groupOf(a) === 'catalog' || groupOf(b) === 'catalog').length,
    );
    expect(drawn.links.sort()).toEqual([...expected].sort());
    // The other groups keep their buttons; the collapsed one's went with its frame.
    expect(drawn.collapseButtons.sort()).toEqual(
      GROUPS.filter((group) => group !== 'catalog').map((group) => `Collapse group ${group}`),
    );
    await saveScreenshot(page, 'groups-one-collapsed');
    await page.context().close();
  });
});
