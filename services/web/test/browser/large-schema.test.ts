/// <reference lib="dom" />
// A large real schema (Lago's 139 tables and 340 foreign keys, packages/diagram-svg/test/data) on the
// diagram page at 1440×900, laid out as the import lays it out now and as it did before (dagre units):
// the geometry measured from the page's own markup (data-table, data-relationship) has no line through a
// table, and fewer crossings and shorter lines now. Screenshots of both, fitted and at 100% with a table
// under the pointer, go to artifacts/screenshots/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl } from '@dss/ddl';
import { crossings, measureSvg, readabilityMetrics } from '@dss/diagram-svg';
import { type DiagramDocument, layOutNewRecords } from '@dss/schema';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { diagramPage, openDiagramPage } from '../support/static-diagram';

const LAGO = path.resolve(__dirname, '../../../../packages/diagram-svg/test/data/lago.sql');

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

describe('a large real schema on the diagram page (Chromium)', () => {
  jest.setTimeout(600_000);
  let browser: TestBrowser;
  let kept: DiagramDocument;
  let before: DiagramDocument;
  beforeAll(async () => {
    browser = await launchBrowser();
    const result = await convertDdl('pgsql', fs.readFileSync(LAGO, 'utf8'));
    if (!result.ok) throw new Error(result.message);
    kept = result.document;
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

  it("Lago's 139 tables: the import's layout draws no line through a table, with fewer crossings and shorter lines than before", async () => {
    const metrics: Record<string, ReturnType<typeof readabilityMetrics>> = {};
    for (const [label, document] of [
      ['before', before],
      ['after', kept],
    ] as const) {
      const page = await openDiagramPage(browser, diagramPage('lago', document));
      const drawing = await measured(page);
      expect(drawing.tables).toHaveLength(139);
      expect(drawing.relationships).toHaveLength(document.relationships.length);
      expect(crossings(drawing)).toEqual([]);
      metrics[label] = readabilityMetrics(drawing);
      await saveScreenshot(page, `lago-${label}-fitted`);
      await page.fill('input.dss-table-search', 'customers');
      await page.press('input.dss-table-search', 'Enter');
      await hoverTable(page, 'customers');
      await saveScreenshot(page, `lago-${label}-100-customers`);
      await page.context().close();
    }
    process.stdout.write(`lago on the page: ${JSON.stringify(metrics)}\n`);
    expect(metrics.after!.crossings).toBeLessThan(metrics.before!.crossings / 2);
    expect(metrics.after!.nearParallelPairs).toBeLessThan(metrics.before!.nearParallelPairs / 2);
    expect(metrics.after!.medianLengthInTableWidths).toBeLessThan(metrics.before!.medianLengthInTableWidths);
  });
});
