/// <reference lib="dom" />
// Focus on what the person points at, measured by computed styles in Chromium: hovering or selecting a
// table emphasises its relationships and neighbours and fades the rest; selecting a relationship marks the
// two columns it joins and names it; Focus mode shows exactly the neighbourhood to depth 1 or 2; the review
// page emphasises the changed tables; the embed view does the same as the diagram page.
import { reviewDiagram } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { diagramPage, documentFrom, importCorpus, openDiagramPage } from '../support/static-diagram';

const BLUE = 'rgb(37, 99, 235)';
const DARK_BLUE = 'rgb(29, 78, 216)';

/** Computed styles of every table box and relationship line, by table name and relationship id. */
function styles(page: Page) {
  return page.evaluate(() => {
    const tables: Record<string, { opacity: string; display: string }> = {};
    for (const g of Array.from(document.querySelectorAll<SVGGElement>('g.dss-table[data-table]'))) {
      const style = getComputedStyle(g);
      tables[g.dataset.table ?? ''] = { opacity: style.opacity, display: style.display };
    }
    const lines: Record<
      string,
      { opacity: string; display: string; stroke: string; width: string; ends: string[] }
    > = {};
    for (const g of Array.from(
      document.querySelectorAll<SVGGElement>('g.dss-relationship[data-relationship]'),
    )) {
      const line = getComputedStyle(g.querySelector('path.dss-line')!);
      const group = getComputedStyle(g);
      lines[g.dataset.relationship ?? ''] = {
        opacity: group.opacity,
        display: group.display,
        stroke: line.stroke,
        width: line.strokeWidth,
        ends: [g.dataset.sourceTable ?? '', g.dataset.targetTable ?? ''],
      };
    }
    return { tables, lines };
  });
}

/** Tables within `depth` relationships of `centre`, from the document itself. */
function neighbourhood(document: DiagramDocument, centre: string, depth: number): string[] {
  const reached = new Set([centre]);
  let frontier = [centre];
  for (let step = 0; step < depth; step++) {
    const next: string[] = [];
    for (const link of document.relationships)
      for (const [from, to] of [
        [link.source_table, link.target_table],
        [link.target_table, link.source_table],
      ] as const)
        if (frontier.includes(from) && !reached.has(to)) {
          reached.add(to);
          next.push(to);
        }
    frontier = next;
  }
  return [...reached].sort();
}

const hoverTable = async (page: Page, name: string) => {
  const box = await page
    .locator(`g.dss-table[data-table="${name}"] rect.dss-box`)
    .evaluate((rect) => rect.getBoundingClientRect().toJSON() as DOMRect);
  await page.mouse.move(box.left + box.width / 2, box.top + Math.min(10, box.height / 2));
};

const clickOn = (page: Page, selector: string) =>
  page.locator(selector).first().dispatchEvent('click', { bubbles: true });

describe('focus on what the pointer is on (Chromium)', () => {
  jest.setTimeout(120_000);
  let browser: TestBrowser;
  let danbooru: DiagramDocument;
  beforeAll(async () => {
    browser = await launchBrowser();
    danbooru = await importCorpus('pgsql/danbooru.sql', 'pgsql');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['the diagram page', false],
    ['the embed view', true],
  ])('%s: hovering a table emphasises its lines and neighbours and fades the rest', async (_label, embed) => {
    const page = await openDiagramPage(browser, diagramPage('danbooru', danbooru, { embed }));
    const resting = await styles(page);
    expect(Object.values(resting.tables).every((table) => table.opacity === '1')).toBe(true);
    await hoverTable(page, 'users');
    const hovered = await styles(page);
    const near = new Set(neighbourhood(danbooru, 'users', 1));
    expect(near.size).toBeGreaterThan(3);
    for (const [name, table] of Object.entries(hovered.tables))
      expect([name, table.opacity]).toEqual([name, near.has(name) ? '1' : '0.25']);
    for (const line of Object.values(hovered.lines)) {
      const related = line.ends.includes('users');
      expect(line.opacity).toBe(related ? '1' : '0.12');
      if (related) expect([line.stroke, line.width]).toEqual([BLUE, '2.5px']);
      else expect(line.width).toBe('1.25px');
    }
    await saveScreenshot(page, `focus-hover-users${embed ? '-embed' : ''}`);
    // The pointer on the background: nothing is emphasised.
    const view = await page
      .locator('figure.diagram')
      .evaluate((f) => f.getBoundingClientRect().toJSON() as DOMRect);
    await page.mouse.move(view.left + 4, view.bottom - 4);
    const left = await styles(page);
    expect(Object.values(left.tables).every((table) => table.opacity === '1')).toBe(true);
    await page.context().close();
  });

  it('selecting a relationship marks the two columns it joins and names it with its cardinality', async () => {
    const page = await openDiagramPage(browser, diagramPage('danbooru', danbooru));
    const link = danbooru.relationships.find(
      (candidate) => candidate.source_table !== candidate.target_table,
    )!;
    await clickOn(page, `g.dss-relationship[data-relationship="${link.uuid}"] path.dss-line`);
    const joined = await page.evaluate(() =>
      Array.from(document.querySelectorAll<SVGGElement>('g.dss-column.dss-joined')).map((row) => ({
        table: row.closest<SVGGElement>('g.dss-table')!.dataset.table,
        column: row.dataset.column,
        fill: getComputedStyle(row.querySelector('text.dss-column-name')!).fill,
        weight: getComputedStyle(row.querySelector('text.dss-column-name')!).fontWeight,
      })),
    );
    expect(joined).toEqual(
      expect.arrayContaining([
        { table: link.source_table, column: link.source_column, fill: DARK_BLUE, weight: '700' },
        { table: link.target_table, column: link.target_column, fill: DARK_BLUE, weight: '700' },
      ]),
    );
    expect(joined).toHaveLength(2);
    const info = page.locator('.dss-relationship-info');
    expect(await info.isVisible()).toBe(true);
    const text = await info.textContent();
    expect(text).toContain(
      `${link.source_table}.${link.source_column} → ${link.target_table}.${link.target_column}`,
    );
    expect(text).toContain(link.type);
    if (link.name) expect(text).toContain(link.name);
    const line = (await styles(page)).lines[link.uuid]!;
    expect([line.stroke, line.width, line.opacity]).toEqual([BLUE, '3.5px', '1']);
    // The selection stays while the pointer passes over another table and comes back to it afterwards.
    await page.keyboard.press('Escape');
    await page.locator('figure.diagram').focus();
    await page.keyboard.press('Escape');
    expect(await info.isVisible()).toBe(false);
    await page.context().close();
  });

  it('Focus mode shows exactly the selected table and its neighbours to depth 1, then 2, then everything', async () => {
    const page = await openDiagramPage(browser, diagramPage('danbooru', danbooru));
    const choice = page.locator('select[data-zoom-action=focus]');
    expect(await choice.isDisabled()).toBe(true);
    await clickOn(page, 'g.dss-table[data-table="posts"] rect.dss-box');
    expect(await choice.isDisabled()).toBe(false);
    const shown = async () => {
      const { tables, lines } = await styles(page);
      return {
        tables: Object.entries(tables)
          .filter(([, table]) => table.display !== 'none')
          .map(([name]) => name)
          .sort(),
        lines: Object.values(lines).filter((line) => line.display !== 'none'),
      };
    };
    for (const depth of [1, 2]) {
      await choice.selectOption(String(depth));
      const visible = await shown();
      const expected = neighbourhood(danbooru, 'posts', depth);
      expect(visible.tables).toEqual(expected);
      expect(visible.tables.length).toBeLessThan(danbooru.tables.length);
      for (const line of visible.lines) for (const end of line.ends) expect(expected).toContain(end);
      await saveScreenshot(page, `focus-mode-posts-depth-${depth}`);
    }
    await choice.selectOption('0');
    expect((await shown()).tables).toHaveLength(danbooru.tables.length);
    await page.context().close();
  });

  it('the review page emphasises the changed tables while the pointer is elsewhere', async () => {
    const changed = documentFrom(
      {
        strategy: 'merge',
        tables: [
          {
            name: 'post_ratings',
            columns: [
              { name: 'id', type: 'bigint', is_primary_key: true },
              { name: 'post_id', type: 'integer', is_nullable: false },
            ],
          },
        ],
        relationships: [
          {
            source_table: 'post_ratings',
            source_column: 'post_id',
            target_table: 'posts',
            target_column: 'id',
            type: 'many-to-one',
          },
        ],
      },
      danbooru,
    );
    const review = reviewDiagram(danbooru, changed.document, changed.diff);
    const page = await openDiagramPage(
      browser,
      diagramPage('review', review.document, { highlight: review.highlight, arrange: false }),
    );
    const { tables } = await styles(page);
    expect(tables['post_ratings']!.opacity).toBe('1');
    expect(tables['posts']!.opacity).toBe('1');
    const faded = Object.entries(tables).filter(([, table]) => table.opacity === '0.25');
    expect(faded.length).toBeGreaterThan(danbooru.tables.length / 2);
    await saveScreenshot(page, 'focus-review-changes');
    await page.context().close();
  });

  it('the review page emphasises a table whose only change is an added column', async () => {
    const changed = documentFrom(
      { strategy: 'merge', tables: [{ name: 'users', columns: [{ name: 'nickname', type: 'text' }] }] },
      danbooru,
    );
    const review = reviewDiagram(danbooru, changed.document, changed.diff);
    const page = await openDiagramPage(
      browser,
      diagramPage('review', review.document, { highlight: review.highlight, arrange: false }),
    );
    const { tables } = await styles(page);
    // users is a hub: its neighbours stay clear, the tables beyond them fade.
    expect(tables['users']!.opacity).toBe('1');
    expect(Object.entries(tables).filter(([, table]) => table.opacity === '0.25').length).toBeGreaterThan(10);
    await page.context().close();
  });
});
