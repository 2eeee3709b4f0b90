// `npm run bench -w @dss/editor`, the browser half: the editor's drawing path in Chromium (playwright-core,
// as the web app's browser tests) on packages/schema's generated 300-table diagram, served as a static page
// (dist/bench/page.js, see src/browser/bench-page.ts). Measured, as medians of alternating runs so both sides
// see the same machine load: committing an added column until the drawing with the column and its lines
// re-routed is on screen, and a table moved until its lines are re-routed on screen, each against the
// baseline of the same edit drawn the way the editor did before (the whole SVG drawn again by
// renderDiagramSvg, parsed and put in), with the median number of line path elements each patched edit
// put in again; the first complete drawing; the JS heap after garbage collection. Then the patched drawing
// is checked against a full drawing of the same document: the same tables' boxes, every line drawn, and
// no line through a table.
import { ConversionPool } from '@dss/ddl';
import { crossings, measureSvg } from '@dss/diagram-svg';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { chromium } from 'playwright-core';
import { drawingBenchPagePath } from '../bundle-path';
import { median } from '@dss/schema/dist/bench/measure';

const RUNS = Number(process.env.DSS_BENCH_RUNS ?? 5);
const CHROMIUM = process.env.DSS_TEST_CHROMIUM || '/usr/bin/chromium';
const PAGE_SCRIPT = drawingBenchPagePath;

interface BenchWindow {
  dssBench: {
    load(document: unknown): Promise<number>;
    addColumn(table: string, full: boolean): Promise<number>;
    moveTable(table: string, dx: number, dy: number, full: boolean): Promise<number>;
    markup(): string;
    fullMarkup(): string;
    linesRedrawn(): number;
    typeColumn(table: string, canvas: boolean): Promise<number>;
  };
}

export async function runBrowserBench(): Promise<void> {
  const document = generateDiagram({ tables: 300, columnsPerTable: 12 });
  const table = document.tables[150]!.name;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.setContent('<!doctype html><html><head><title>bench</title></head><body></body></html>');
    await page.addScriptTag({ path: PAGE_SCRIPT });
    const first: number[] = [];
    for (let run = 0; run < Math.max(3, Math.ceil(RUNS / 2)); run++)
      first.push(
        await page.evaluate((doc) => (globalThis as unknown as BenchWindow).dssBench.load(doc), document),
      );
    const pairs = { column: [[], []] as number[][], move: [[], []] as number[][] };
    const lines = { column: [] as number[], move: [] as number[] };
    const linesRedrawn = () =>
      page.evaluate(() => (globalThis as unknown as BenchWindow).dssBench.linesRedrawn());
    for (let run = 0; run < RUNS; run++) {
      // Alternating, patched first on even runs and full first on odd ones.
      for (const full of run % 2 === 0 ? [false, true] : [true, false]) {
        const at = full ? 1 : 0;
        pairs.column[at]!.push(
          await page.evaluate(
            ([name, whole]) => (globalThis as unknown as BenchWindow).dssBench.addColumn(name, whole),
            [table, full] as const,
          ),
        );
        if (!full) lines.column.push(await linesRedrawn());
        pairs.move[at]!.push(
          await page.evaluate(
            ([name, whole]) => (globalThis as unknown as BenchWindow).dssBench.moveTable(name, 8, 24, whole),
            [table, full] as const,
          ),
        );
        if (!full) lines.move.push(await linesRedrawn());
      }
    }
    // The patched drawing against a full one of the same document, after one more patched edit.
    await page.evaluate(
      (name) => (globalThis as unknown as BenchWindow).dssBench.addColumn(name, false),
      table,
    );
    const [onPage, full] = await page.evaluate(() => {
      const bench = (globalThis as unknown as BenchWindow).dssBench;
      return [bench.markup(), bench.fullMarkup()];
    });
    const measuredPage = measureSvg(onPage);
    const measuredFull = measureSvg(full);
    const same =
      measuredPage.tables.length === document.tables.length &&
      JSON.stringify(measuredPage.tables) === JSON.stringify(measuredFull.tables) &&
      measuredPage.relationships.length === measuredFull.relationships.length &&
      crossings(measuredPage).length <= crossings(measuredFull).length;

    const typing = await typingBench(browser);

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };

    const baseline = median(pairs.column[1]!);
    console.log(
      `browser (Chromium): ${document.tables.length} tables, ${document.relationships.length} relationships; ` +
        `median of ${RUNS} alternating runs; baseline: the same edit drawn whole (renderDiagramSvg, parsed, put in)`,
    );
    const row = (label: string, ms: number, against: number, budget: number) =>
      console.log(
        `${label.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / against).toFixed(2).padStart(6)} × baseline  ` +
          `(budget ${budget} ms: ${ms <= budget ? 'met' : 'not met'})`,
      );
    row('add a column → drawn, lines re-routed (patched)', median(pairs.column[0]!), baseline, 100);
    row('add a column → drawn whole (baseline)', baseline, baseline, 100);
    row('move a table → lines re-routed (patched)', median(pairs.move[0]!), median(pairs.move[1]!), 200);
    row('move a table → drawn whole (baseline)', median(pairs.move[1]!), median(pairs.move[1]!), 200);
    console.log(
      `line path elements put in again per patched edit (median, of ${document.relationships.length}): ` +
        `add a column ${median(lines.column)}, move a table ${median(lines.move)}`,
    );
    row('first complete drawing', median(first), baseline, 1500);
    console.log(
      `JS heap after GC: ${(heap.usedSize / 2 ** 20).toFixed(1)} MB (budget 150 MB: ${heap.usedSize < 150 * 2 ** 20 ? 'met' : 'not met'})`,
    );
    console.log(
      `patched drawing agrees with a full drawing (tables' boxes, every line, no more lines through tables): ${same ? 'yes' : 'NO'}`,
    );
    console.log(
      `DBML pane (${typing.tables} tables, ${typing.relationships} relationships; median of ${RUNS} alternating ` +
        'runs; baseline: the same column added on the canvas)',
    );
    row('type a column in DBML → read, edit, drawn (pane)', typing.pane, typing.canvas, 300);
    row('add the column on the canvas → drawn (baseline)', typing.canvas, typing.canvas, 300);
    if (!same) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

/** Only the DBML pane's part, printed as runBrowserBench prints it. */
export async function runTypingBench(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const typing = await typingBench(browser);
    console.log(
      `DBML pane (${typing.tables} tables, ${typing.relationships} relationships; median of ${RUNS} alternating ` +
        'runs; baseline: the same column added on the canvas)',
    );
    const ratio = typing.pane / typing.canvas;
    console.log(
      `type a column in DBML → read, edit, drawn (pane)      ${typing.pane.toFixed(1)} ms  ${ratio.toFixed(2)} × baseline  (budget 300 ms: ${typing.pane <= 300 ? 'met' : 'not met'})`,
    );
    console.log(
      `add the column on the canvas → drawn (baseline)      ${typing.canvas.toFixed(1)} ms  1.00 × baseline`,
    );
  } finally {
    await browser.close();
  }
}

/**
 * Typing in the DBML pane of a 100-table diagram: from the end of the pause to the drawing with the typed
 * column on screen, the text read by the importer's conversion (@dss/ddl's ConversionPool, one warm worker,
 * as the importer runs it; the page reaches it through a Playwright binding in place of the web app's
 * POST /diagrams/{uuid}/dbml), against the same column added on the canvas.
 */
async function typingBench(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
): Promise<{ tables: number; relationships: number; pane: number; canvas: number }> {
  const document = generateDiagram({ tables: 100, columnsPerTable: 12 });
  const table = document.tables[50]!.name;
  const pool = new ConversionPool({
    size: 1,
    timeoutMs: 30_000,
    maxOldGenerationSizeMb: 1024,
    warmUp: [document.driver],
  });
  try {
    await pool.ready();
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.exposeFunction('dssReadDbml', async (text: string) => {
      const outcome = await pool.convert(document.driver, text, 'dbml');
      if (outcome.kind === 'timeout') return { ok: false, message: 'timeout' };
      const result = outcome.result;
      if (!result.ok) return { ok: false, message: result.message, line: result.line, column: result.column };
      return { ok: true, document: JSON.parse(result.document_json), warnings: result.warnings };
    });
    await page.setContent('<!doctype html><html><head><title>bench</title></head><body></body></html>');
    await page.addScriptTag({ path: PAGE_SCRIPT });
    await page.evaluate((doc) => (globalThis as unknown as BenchWindow).dssBench.load(doc), document);
    // One untimed read first: the worker loads @dbml/core on its first DBML.
    await page.evaluate(
      (name) => (globalThis as unknown as BenchWindow).dssBench.typeColumn(name, false),
      table,
    );
    const times = [[], []] as number[][];
    for (let run = 0; run < RUNS; run++)
      for (const canvas of run % 2 === 0 ? [false, true] : [true, false])
        times[canvas ? 1 : 0]!.push(
          await page.evaluate(
            ([name, onCanvas]) => (globalThis as unknown as BenchWindow).dssBench.typeColumn(name, onCanvas),
            [table, canvas] as const,
          ),
        );
    await page.close();
    return {
      tables: document.tables.length,
      relationships: document.relationships.length,
      pane: median(times[0]!),
      canvas: median(times[1]!),
    };
  } finally {
    await pool.close();
  }
}
