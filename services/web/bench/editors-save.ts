// Benchmark (npm run bench, never a timed test) of issue 25's "a save reaches 'Saved' within 2 s at the
// 95th percentile with 10 editors on 10 diagrams at once": ten people, each an editor signed in to the
// editor of a diagram of their own (a small three-table shop) in one Chromium (a context each), add
// columns through the table panel ("Add column", "Column name", "Save column") all at the same time. Each
// edit is timed in the page from the form's submit (the edit's commit) to the status (`role="status"`)
// reading "Saved" after "Saving…", by a MutationObserver, so Playwright's round trips to the page are not
// in the numbers; the time includes the editor's autosave pause (600 ms). A page makes its next edit once
// the last one is saved. Baseline in the same run: the same edits by one editor alone (only their page
// open). Afterwards every diagram is read through the API (`GET /v1/diagrams/{uuid}/schema`) and every
// added column must be there; the exit code is 1 when one is missing or an edit never reached "Saved".
// Both on the in-process bus (`npm start`) and on NATS (a cluster's bus) when a NATS server answers.
// Settings: BENCH_EDITORS_EDITS (10 per page, at most 100). PostgreSQL: DSS_TEST_DATABASE_URL, else
// 127.0.0.1:5432; NATS: DSS_TEST_NATS_URL, else 127.0.0.1:4222. Chromium: DSS_TEST_CHROMIUM, else
// /usr/bin/chromium. DSS_BENCH_PART=editors runs only this bench (and `live` only live-latency).
import { type TestMember, twoTableShopPatch } from '@dss/system';
import type { Browser, Page } from 'playwright-core';
import { PASSWORD, signIn, startBenchSystem } from './bench-system';

const EDITS = Math.min(100, Math.max(1, Number(process.env.BENCH_EDITORS_EDITS) || 10));
const EDITORS = 10;
const TABLES = ['customers', 'orders', 'products'];
/** Every wait on a page (an edit reaching "Saved", a control appearing) ends by then. */
const WAIT_MS = 30_000;
const TARGET_P95_MS = 2000;

/** One edit as the page saw it: performance.now() at the submit and at the status reading "Saved". */
interface Timed {
  commit: number;
  saved: number | null;
}

interface Editor {
  person: TestMember;
  uuid: string;
  /** table → the columns this bench added to it, checked against the stored schema afterwards. */
  added: Map<string, string[]>;
}

interface Run {
  /** Milliseconds from commit to "Saved", one per edit that got there. */
  times: number[];
  /** Edits that did not reach "Saved" in WAIT_MS (the page stopped there), with what its status said. */
  failures: string[];
}

interface Row {
  bus: string;
  alone: Run;
  together: Run;
  /** "diagram: table.column" for every added column the API does not serve. */
  lost: string[];
  checked: number;
}

/**
 * Installed once per page: times each "New column" form submit and the first time after it that the status
 * reads "Saved" having read "Saving…" (so a "Saved" drawn before the edit's own state never counts).
 * Runs in the page (no closure over Node values).
 */
function instrument() {
  const timed: { commit: number; saving: boolean; saved: number | null }[] = [];
  (window as unknown as { dssBenchSaves: typeof timed }).dssBenchSaves = timed;
  const status = document.getElementById('editor-status');
  if (!status) throw new Error('the editor has no status element (#editor-status)');
  document.addEventListener(
    'submit',
    (event) => {
      const panel = (event.target as Element).closest('section');
      if (panel?.getAttribute('aria-label') === 'New column')
        timed.push({ commit: event.timeStamp, saving: false, saved: null });
    },
    true,
  );
  new MutationObserver(() => {
    const last = timed.at(-1);
    if (!last || last.saved !== null) return;
    if (status.textContent === 'Saving…') last.saving = true;
    else if (last.saving && status.textContent === 'Saved') last.saved = performance.now();
  }).observe(status, { childList: true, characterData: true, subtree: true });
}

async function openEditor(browser: Browser, webUrl: string, editor: Editor): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  await signIn(page, webUrl, `/diagrams/${editor.uuid}/edit`, editor.person);
  await page.getByRole('button', { name: 'Add table' }).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor();
  await page.evaluate(instrument);
  return page;
}

/** `edits` columns added one after another (each once the last is saved), round the tables. */
async function edit(page: Page, editor: Editor, prefix: string, edits: number, run: Run): Promise<void> {
  const saves = () => (window as unknown as { dssBenchSaves: Timed[] }).dssBenchSaves;
  const before = (await page.evaluate(saves)).length;
  for (let at = 0; at < edits; at += 1) {
    const table = TABLES[at % TABLES.length]!;
    const column = `${prefix}_${at + 1}`;
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Open table ${table}` }).click();
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByRole('textbox', { name: 'Column name' }).fill(column);
    await page.getByRole('button', { name: 'Save column' }).click();
    editor.added.set(table, [...(editor.added.get(table) ?? []), column]);
    try {
      await page.waitForFunction(
        (count) => {
          const timed = (window as unknown as { dssBenchSaves: Timed[] }).dssBenchSaves;
          return timed.length >= count && timed[count - 1]!.saved !== null;
        },
        before + at + 1,
        { timeout: WAIT_MS, polling: 100 },
      );
    } catch {
      const said = await page.getByRole('status').allTextContents();
      const alerts = await page.getByRole('alert').allTextContents();
      run.failures.push(
        `${table}.${column}: not "Saved" within ${WAIT_MS} ms ` +
          `(status ${JSON.stringify(said)}, alerts ${JSON.stringify(alerts)})`,
      );
      break;
    }
  }
  for (const { commit, saved } of (await page.evaluate(saves)).slice(before))
    if (saved !== null) run.times.push(saved - commit);
}

async function measure(bus: 'in-process' | 'NATS'): Promise<Row> {
  const bench = await startBenchSystem(bus);
  const { system, people, browser, webUrl } = bench;
  try {
    const shop = twoTableShopPatch();
    const schema = {
      ...shop,
      tables: [
        ...shop.tables,
        { name: 'products', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
      ],
    };
    const editors: Editor[] = [];
    for (let at = 0; at < EDITORS; at += 1) {
      const person = await people.member({
        team: 'bench-editors',
        role: 'editor',
        name: `Editor ${at + 1}`,
        password: PASSWORD,
        write: true,
      });
      const created = await fetch(`${system.apiUrl}/diagrams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Shop ${at + 1}`, driver: 'pgsql', schema }),
      });
      if (created.status !== 201 && created.status !== 200)
        throw new Error(`creating diagram ${at + 1} answered ${created.status}: ${await created.text()}`);
      const uuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
      editors.push({ person, uuid, added: new Map() });
    }

    // Baseline: the first editor alone, no other editor page open.
    const alone: Run = { times: [], failures: [] };
    const first = await openEditor(browser, webUrl, editors[0]!);
    await edit(first, editors[0]!, 'alone', EDITS, alone);

    const pages = [first];
    for (const editor of editors.slice(1)) pages.push(await openEditor(browser, webUrl, editor));
    const together: Run = { times: [], failures: [] };
    await Promise.all(pages.map((page, at) => edit(page, editors[at]!, 'together', EDITS, together)));

    const lost: string[] = [];
    let checked = 0;
    for (const [at, editor] of editors.entries()) {
      const response = await fetch(`${system.apiUrl}/diagrams/${editor.uuid}/schema`, {
        headers: { authorization: `Bearer ${editor.person.token}` },
      });
      if (response.status !== 200)
        throw new Error(`reading diagram ${at + 1} answered ${response.status}: ${await response.text()}`);
      const stored = (
        (await response.json()) as { data: { tables: { name: string; columns: { name: string }[] }[] } }
      ).data.tables;
      for (const [table, columns] of editor.added)
        for (const column of columns) {
          checked += 1;
          const there = stored.find((t) => t.name === table)?.columns.some((c) => c.name === column);
          if (!there) lost.push(`Shop ${at + 1}: ${table}.${column}`);
        }
    }
    return { bus, alone, together, lost, checked };
  } finally {
    await bench.stop();
  }
}

/** The nearest-rank percentile (q in 0..1) of the values; NaN when there are none. */
function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

const ms = (value: number, width: number) => (Number.isNaN(value) ? '—' : value.toFixed(0)).padStart(width);

async function main() {
  const rows = [await measure('in-process')];
  try {
    rows.push(await measure('NATS'));
  } catch (error) {
    console.log(`bench editors: the NATS row is left out (${(error as Error).message})`);
  }
  console.log(
    `\nedit → "Saved" (${EDITS} column adds per page, each after the last is saved; ms, from the form's ` +
      `submit to the status reading "Saved", measured in the page)`,
  );
  console.log(
    'bus         | 1 editor median | 1 editor p95 | 10 editors median | 10 editors p95 | p95 ratio | ' +
      `10 editors p95 < ${TARGET_P95_MS}`,
  );
  let broken = false;
  for (const row of rows) {
    const aloneP95 = percentile(row.alone.times, 0.95);
    const togetherP95 = percentile(row.together.times, 0.95);
    const complete = row.together.failures.length === 0 && row.together.times.length === EDITS * EDITORS;
    console.log(
      `${row.bus.padEnd(11)} | ${ms(percentile(row.alone.times, 0.5), 15)} | ${ms(aloneP95, 12)} | ` +
        `${ms(percentile(row.together.times, 0.5), 17)} | ${ms(togetherP95, 14)} | ` +
        `${(togetherP95 / aloneP95).toFixed(2).padStart(9)} | ` +
        `${complete && togetherP95 < TARGET_P95_MS ? 'met' : 'NOT met'}`,
    );
  }
  for (const row of rows) {
    const failures = [...row.alone.failures, ...row.together.failures];
    console.log(
      `${row.bus}: ${row.alone.times.length + row.together.times.length} edits saved, ` +
        `${failures.length} not; ${row.checked - row.lost.length} of ${row.checked} added columns ` +
        `served by GET /v1/diagrams/{uuid}/schema` +
        (row.lost.length > 0 ? ` — LOST: ${row.lost.join(', ')}` : ''),
    );
    for (const failure of failures) console.log(`  ${failure}`);
    if (failures.length > 0 || row.lost.length > 0) broken = true;
  }
  if (broken) process.exitCode = 1;
}

if (!process.env.DSS_BENCH_PART || process.env.DSS_BENCH_PART === 'editors')
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
