// Benchmark (npm run bench, never a timed test) of issue 26's "the diagram page of the generated 300-table
// schema is completely drawn within 1.5 s of navigation", with the browser: packages/schema's generated
// 300-table diagram (12 columns each, 598 foreign keys) made through the API on an enterprise team, opened
// on the diagram page in Chromium at 1440×900. Timed in the page from the navigation's start to the frame
// after the page's script has put up its toolbar (the drawing fitted to the view, every table in it): the
// first view of the version (the server lays it out and draws it) and the views after it (the drawing kept
// by content, services/web/src/drawings.ts). The server's share (request to the last byte of the HTML) is
// printed beside it. Baseline in the same run: the same views of a three-table diagram.
// Settings: BENCH_PAGE_VIEWS (views after the first, 5 by default, at most 30). PostgreSQL:
// DSS_TEST_DATABASE_URL, else 127.0.0.1:5432. Chromium: DSS_TEST_CHROMIUM, else /usr/bin/chromium.
// DSS_BENCH_PART=page runs only this.
import type { TestMember } from '@dss/system';
import type { Browser } from 'playwright-core';
import { createGenerated, largeDiagramEditor, signIn, startBenchSystem } from './bench-system';
import { median } from '@dss/schema/dist/bench/measure';

const VIEWS = Math.min(30, Math.max(1, Number(process.env.BENCH_PAGE_VIEWS) || 5));
const BUDGET_MS = 1500;
const WAIT_MS = 60_000;

interface View {
  /** ms from the navigation's start to the frame after the toolbar was put up. */
  drawn: number;
  /** ms from the request's start to the HTML's last byte. */
  server: number;
  bytes: number;
  tables: number;
}

/** Opens the diagram page `views + 1` times in one signed-in context; the first view is the version's first. */
async function viewsOf(
  browser: Browser,
  webUrl: string,
  person: TestMember,
  uuid: string,
  views: number,
): Promise<View[]> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);
  try {
    const page = await context.newPage();
    await signIn(page, webUrl, '/', person);
    const result: View[] = [];
    for (let view = 0; view <= views; view += 1) {
      await page.goto(`${webUrl}/diagrams/${uuid}`, { waitUntil: 'commit' });
      await page.waitForSelector('.dss-zoom-controls', { state: 'attached', timeout: WAIT_MS });
      result.push(
        await page.evaluate(
          () =>
            new Promise<View>((resolve) =>
              requestAnimationFrame(() =>
                setTimeout(() => {
                  const navigation = performance.getEntriesByType(
                    'navigation',
                  )[0] as PerformanceNavigationTiming;
                  resolve({
                    drawn: performance.now(),
                    server: navigation.responseEnd - navigation.requestStart,
                    bytes: navigation.transferSize || navigation.encodedBodySize,
                    tables: document.querySelectorAll('g.dss-table[data-table]').length,
                  });
                }, 0),
              ),
            ),
        ),
      );
    }
    return result;
  } finally {
    await context.close();
  }
}

async function main() {
  const bench = await startBenchSystem();
  const { system, people, browser, webUrl } = bench;
  try {
    const person = await largeDiagramEditor(people, 'bench-page');
    const large = await createGenerated(system, person, 'Page 300', 300);
    const small = await createGenerated(system, person, 'Page 3', 3);
    const largeViews = await viewsOf(browser, webUrl, person, large.uuid, VIEWS);
    const smallViews = await viewsOf(browser, webUrl, person, small.uuid, VIEWS);
    for (const [label, views, tables] of [
      ['300 tables', largeViews, 300],
      ['3 tables', smallViews, 3],
    ] as const) {
      const wrong = views.find((view) => view.tables !== tables);
      if (wrong) throw new Error(`the ${label} page drew ${wrong.tables} tables`);
    }
    console.log(
      `\ndiagram page: ${large.document.tables.length} tables, ${large.document.relationships.length} relationships ` +
        `(baseline: ${small.document.tables.length} tables); ms from navigation to the frame after the page's script put up its toolbar`,
    );
    const row = (label: string, ms: number, base: number, server: number, bytes: number) =>
      console.log(
        `${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms   baseline ${base.toFixed(1).padStart(7)} ms  ` +
          `${(ms / base).toFixed(2).padStart(6)} ×   server ${server.toFixed(1).padStart(7)} ms, ` +
          `${(bytes / 1024).toFixed(0)} KB  (budget ${BUDGET_MS} ms: ${ms <= BUDGET_MS ? 'met' : 'not met'})`,
      );
    const [firstLarge, ...laterLarge] = largeViews;
    const [firstSmall, ...laterSmall] = smallViews;
    row(
      'first view of the version',
      firstLarge!.drawn,
      firstSmall!.drawn,
      firstLarge!.server,
      firstLarge!.bytes,
    );
    row(
      `later views (median of ${VIEWS})`,
      median(laterLarge.map((view) => view.drawn)),
      median(laterSmall.map((view) => view.drawn)),
      median(laterLarge.map((view) => view.server)),
      median(laterLarge.map((view) => view.bytes)),
    );
  } finally {
    await bench.stop();
  }
}

if (!process.env.DSS_BENCH_PART || process.env.DSS_BENCH_PART === 'page')
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
