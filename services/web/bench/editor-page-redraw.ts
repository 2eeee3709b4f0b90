// Benchmark (npm run bench, never a timed test) of issue 25's redraw budgets on the editor page itself,
// panels, autosave and live connection included: "an added column is drawn, lines re-routed, within 100 ms of
// the keystroke that commits it; moving a table re-routes its lines within 200 ms", on packages/schema's
// generated 300-table diagram (12 columns each, 598 foreign keys) made through the API. An added column is
// timed in the page from the "New column" form's submit to the frame after the canvas has drawn the edit
// (its `data-drawn` count goes up, then a frame is rendered); a move from the release of a table dragged by
// its header to the same. And the page's first complete drawing: from the navigation's start (a reload of
// the editor page) to the frame after the canvas first drew, over 3 loads. Baseline in the same run: the
// same on a three-table diagram. The editor
// package's own bench (packages/editor, `npm run bench -w @dss/editor`) measures the drawing path alone.
// Settings: BENCH_REDRAW_EDITS (8 of each kind, at most 50). PostgreSQL: DSS_TEST_DATABASE_URL, else
// 127.0.0.1:5432. Chromium: DSS_TEST_CHROMIUM, else /usr/bin/chromium. DSS_BENCH_PART=redraw runs only this.
import type { TestMember } from '@dss/system';
import type { Browser, Page } from 'playwright-core';
import { createGenerated, largeDiagramEditor, signIn, startBenchSystem } from './bench-system';
import { median } from '@dss/schema/dist/bench/measure';

const EDITS = Math.min(50, Math.max(1, Number(process.env.BENCH_REDRAW_EDITS) || 8));
const WAIT_MS = 15_000;
const LOADS = Math.min(20, Math.max(1, Number(process.env.BENCH_FIRST_LOADS) || 3));
const BUDGET_MS = { column: 100, move: 200, first: 1500 };

interface Timings {
  column: number[];
  move: number[];
  first: number[];
}

/**
 * Installed in the page: the start of each edit (a "New column" submit, or the release of a drag) and the
 * frame after the canvas next drew. Runs in the page (no closure over Node values).
 */
function instrument() {
  const marks: { kind: string; start: number; drawn: number | null }[] = [];
  (window as unknown as { dssBenchRedraws: typeof marks }).dssBenchRedraws = marks;
  const canvas = document.getElementById('editor-canvas');
  if (!canvas) throw new Error('the editor has no canvas (#editor-canvas)');
  document.addEventListener(
    'submit',
    (event) => {
      const panel = (event.target as Element).closest('section');
      if (panel?.getAttribute('aria-label') === 'New column')
        marks.push({ kind: 'column', start: event.timeStamp, drawn: null });
    },
    true,
  );
  document.addEventListener(
    'pointerup',
    (event) => marks.push({ kind: 'move', start: event.timeStamp, drawn: null }),
    true,
  );
  new MutationObserver(() => {
    const last = marks.at(-1);
    if (!last || last.drawn !== null) return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (last.drawn === null) last.drawn = performance.now();
      }, 0),
    );
  }).observe(canvas, { attributes: true, attributeFilter: ['data-drawn'] });
}

/**
 * Installed before the page's scripts on every navigation: the time (from the navigation's start) of the
 * frame after the canvas's first drawing. Runs in the page (no closure over Node values).
 */
function watchFirstDrawing() {
  const state = window as unknown as { dssFirstDrawn: number | null };
  state.dssFirstDrawn = null;
  new MutationObserver((_records, observer) => {
    const canvas = document.getElementById('editor-canvas');
    if (!canvas?.dataset['drawn']) return;
    observer.disconnect();
    requestAnimationFrame(() =>
      setTimeout(() => {
        state.dssFirstDrawn = performance.now();
      }, 0),
    );
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });
}

async function openEditor(browser: Browser, webUrl: string, person: TestMember, uuid: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  await signIn(page, webUrl, `/diagrams/${uuid}/edit`, person);
  await page.locator('#editor-canvas svg g.dss-table').first().waitFor();
  await page.evaluate(instrument);
  return page;
}

/** ms from navigation to the frame after the editor's first drawing, over `loads` loads of the page. */
async function firstDrawings(page: Page, loads: number): Promise<number[]> {
  await page.addInitScript(watchFirstDrawing);
  const times: number[] = [];
  for (let load = 0; load < loads; load += 1) {
    await page.reload({ waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { dssFirstDrawn: number | null }).dssFirstDrawn !== null,
      undefined,
      { timeout: WAIT_MS, polling: 50 },
    );
    times.push(await page.evaluate(() => (window as unknown as { dssFirstDrawn: number }).dssFirstDrawn));
  }
  await page.evaluate(instrument);
  return times;
}

const marksSoFar = (page: Page) =>
  page.evaluate(() => (window as unknown as { dssBenchRedraws: unknown[] }).dssBenchRedraws.length);

/** ms from the start to the drawn frame of the first edit of `kind` marked after the first `from` marks. */
async function timeOf(page: Page, from: number, kind: string): Promise<number> {
  const find = ([skip, wanted]: [number, string]) => {
    const marks = (
      window as unknown as { dssBenchRedraws: { kind: string; start: number; drawn: number | null }[] }
    ).dssBenchRedraws;
    const mark = marks.slice(skip).find((m) => m.kind === wanted);
    return mark && mark.drawn !== null ? mark.drawn - mark.start : null;
  };
  try {
    await page.waitForFunction(
      (args) => {
        const marks = (window as unknown as { dssBenchRedraws: { kind: string; drawn: number | null }[] })
          .dssBenchRedraws;
        return marks.slice(args[0]).some((m) => m.kind === args[1] && m.drawn !== null);
      },
      [from, kind] as [number, string],
      { timeout: WAIT_MS, polling: 50 },
    );
  } catch (error) {
    const marks = await page.evaluate(
      () => (window as unknown as { dssBenchRedraws: unknown[] }).dssBenchRedraws,
    );
    throw new Error(
      `a ${kind} was not drawn within ${WAIT_MS} ms (marks: ${JSON.stringify(marks.slice(from))}): ${error}`,
    );
  }
  return (await page.evaluate(find, [from, kind] as [number, string]))!;
}

/** Column adds and table moves, alternately, on `tables` (one after another, each once drawn). */
async function edit(page: Page, tables: string[], timings: Timings): Promise<void> {
  for (let at = 0; at < EDITS; at += 1) {
    const table = tables[at % tables.length]!;
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Open table ${table}` }).click();
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByRole('textbox', { name: 'Column name' }).fill(`bench_${at + 1}`);
    await page.getByRole('combobox', { name: 'Type' }).selectOption('int');
    let from = await marksSoFar(page);
    await page.getByRole('button', { name: 'Save column' }).click();
    timings.column.push(await timeOf(page, from, 'column'));
    await page.keyboard.press('Escape');

    const header = page.locator(`#editor-canvas g.dss-table[data-table="${table}"] rect.dss-box`);
    await header.scrollIntoViewIfNeeded();
    const box = await header.boundingBox();
    if (!box) throw new Error(`table ${table} is not on the page`);
    const x = box.x + box.width / 2;
    const y = box.y + 10;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let step = 1; step <= 4; step += 1) await page.mouse.move(x + 10 * step, y + 6 * step);
    from = await marksSoFar(page);
    await page.mouse.up();
    timings.move.push(await timeOf(page, from, 'move'));
  }
}

async function main() {
  const bench = await startBenchSystem();
  const { system, people, browser, webUrl } = bench;
  try {
    const person = await largeDiagramEditor(people, 'bench-redraw');
    const large = await createGenerated(system, person, 'Bench 300', 300);
    const small = await createGenerated(system, person, 'Bench 3', 3);
    const result: Record<'large' | 'small', Timings> = {
      large: { column: [], move: [], first: [] },
      small: { column: [], move: [], first: [] },
    };
    for (const [key, diagram, picks] of [
      ['small', small, [0, 1, 2]],
      ['large', large, [150, 75, 225, 10]],
    ] as const) {
      const page = await openEditor(browser, webUrl, person, diagram.uuid);
      result[key].first.push(...(await firstDrawings(page, LOADS)));
      await edit(
        page,
        picks.map((at) => diagram.document.tables[at]!.name),
        result[key],
      );
      await page.context().close();
    }
    console.log(
      `\neditor page: ${large.document.tables.length} tables, ${large.document.relationships.length} relationships ` +
        `(baseline: the same edits on ${small.document.tables.length} tables); median of ${EDITS} edits, ms from the commit to the frame after the canvas drew it`,
    );
    const labels = {
      column: 'add a column → drawn, lines re-routed',
      move: 'move a table → lines re-routed',
      first: `first complete drawing (of ${LOADS} loads)`,
    };
    for (const kind of ['column', 'move', 'first'] as const) {
      const ms = median(result.large[kind]);
      const base = median(result.small[kind]);
      const label = labels[kind];
      console.log(
        `${label.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms   baseline ${base.toFixed(1).padStart(7)} ms  ` +
          `${(ms / base).toFixed(2).padStart(6)} ×  (budget ${BUDGET_MS[kind]} ms: ${ms <= BUDGET_MS[kind] ? 'met' : 'not met'})`,
      );
    }
  } finally {
    await bench.stop();
  }
}

if (!process.env.DSS_BENCH_PART || process.env.DSS_BENCH_PART === 'redraw')
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
