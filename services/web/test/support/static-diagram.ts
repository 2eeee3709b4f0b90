/// <reference lib="dom" />
// A diagram page served from memory to Chromium: the diagram page's frame (routes/diagram.ts), the app's and
// the diagram's stylesheets and the viewport script, around a drawing of any document, with no services. For
// browser tests of the drawing and its viewport on documents the API would not take (the corpus file over
// its DDL limit) or that are made up in the test.
import * as fs from 'node:fs';
import type { DdlDriver } from '@dss/ddl';
import { type DiagramHighlight, diagramCss, renderDiagramSvg, viewportBundlePath } from '@dss/diagram-svg';
import { apply, type DiagramDocument, emptyDocument, normalize, validate } from '@dss/schema';
import type { Page } from 'playwright-core';
import { APP_CSS } from '../../src/assets/app-css';
import { THEME_SCRIPT } from '../../src/assets/theme-js';
import { html, trustedHtml } from '../../src/html';
import { page as pageFrame } from '../../src/views/layout';
import { importCorpus as importCorpusEntry } from '../../../../packages/sql/test/corpus';
import type { TestBrowser } from './browser';

export { CORPUS, corpusFiles } from '../../../../packages/sql/test/corpus';
const ORIGIN = 'http://diagram.test';

/** A corpus file's document as the importer makes it (packages/sql's corpus helper, memoised per run). */
export function importCorpus(file: string, driver: DdlDriver): Promise<DiagramDocument> {
  return importCorpusEntry({ file, driver });
}

/** The document a patch makes of `base` (an empty PostgreSQL diagram by default), with the diff. */
export function documentFrom(patch: object, base: DiagramDocument = emptyDocument('pgsql')) {
  const result = validate(normalize(patch).patch, base, base.driver, 'propose');
  if (!result.ok) throw new Error(`fixture patch is invalid: ${JSON.stringify(result.problems)}`);
  return apply(base, result.patch);
}

export interface DiagramPageOptions {
  highlight?: DiagramHighlight;
  /** The embed view: no page chrome, the drawing fills the window. */
  embed?: boolean;
  /** The arrange-by-hand form owners and editors get. */
  arrange?: boolean;
  /** Busy tables drawn again beside far tables that reference them, as the diagram page draws them. */
  copies?: boolean;
}

/** The diagram page's frame around a drawing (as routes/diagram.ts and the embed route write it). */
export function diagramPage(
  name: string,
  document: DiagramDocument,
  options: DiagramPageOptions = {},
): string {
  const svg = renderDiagramSvg(document, {
    title: name,
    ...(options.highlight ? { highlight: options.highlight } : {}),
    ...(options.copies ? { hubCopies: true } : {}),
  });
  const focus = options.highlight ? ' data-focus="changes"' : '';
  const figure = html`<figure class="diagram" id="diagram"${trustedHtml(focus)}>${trustedHtml(svg)}</figure>`;
  const chrome = { title: name, stylesheets: ['/assets/diagram.css'], scripts: ['/assets/viewport.js'] };
  if (options.embed)
    return pageFrame({ ...chrome, bodyClass: 'embed' }, html`<main class="embed">${figure}</main>`).text;
  return pageFrame(
    chrome,
    html`<main class="with-aside wide">
<div class="primary-column">
<h1>${name}</h1>
<p class="meta"><span class="badge">${document.driver}</span> ${String(document.tables.length)} tables</p>
${figure}
${options.arrange === false ? '' : trustedHtml('<form id="layout-form" method="post" action="/layout"><input type="hidden" name="positions"></form>')}
</div>
<aside class="history"><h2>History</h2><ol><li>Version 1</li></ol></aside>
</main>`,
  ).text;
}

/** A new page at 1440×900 showing `body`, its assets served from memory; resolves once the viewport is set up. */
export async function openDiagramPage(browser: TestBrowser, body: string): Promise<Page> {
  const { page } = await browser.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const viewport = fs.readFileSync(viewportBundlePath, 'utf8');
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    const files: Record<string, [string, string]> = {
      '/': ['text/html', body],
      '/assets/app.css': ['text/css', APP_CSS],
      '/assets/diagram.css': ['text/css', diagramCss],
      '/assets/viewport.js': ['text/javascript', viewport],
      '/assets/theme.js': ['text/javascript', THEME_SCRIPT],
    };
    const file = files[url.pathname];
    return file ? route.fulfill({ contentType: file[0], body: file[1] }) : route.fulfill({ status: 404 });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector('figure.diagram[data-viewport=ready]');
  return page;
}
