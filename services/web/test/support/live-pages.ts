/// <reference lib="dom" />
// Helpers of the live browser tests: a diagram page whose live connection is open, saving a patch through
// the paste-back box (the page's own save path, as a person would), and the stored tables' names.
import type { TestMember } from '@dss/system';
import type { Page } from 'playwright-core';
import type { BrowserSuite } from './browser-suite';
import { api, type WebTestSystem } from './web-system';

/** The person's diagram page, live; `window.loadedOnce` tells later whether it was ever reloaded. */
export async function livePage(suite: BrowserSuite, person: TestMember, diagramUuid: string): Promise<Page> {
  const page = await suite.signedInPage(person, `/diagrams/${diagramUuid}`);
  await page.waitForSelector('#live[data-state="open"]');
  await page.evaluate(() => {
    (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
  });
  return page;
}

/** Opens the diagram in `page` and previews `patch` (JSON text) in the paste-back box. */
export async function previewPaste(web: WebTestSystem, page: Page, diagramUuid: string, patch: string) {
  await page.goto(`${web.webUrl}/diagrams/${diagramUuid}`);
  await page.click('.paste-box summary');
  await page.fill('#paste-form textarea', patch);
  await Promise.all([page.waitForLoadState('load'), page.click('#paste-form button')]);
}

/** Saves `patch` as a new version through the paste-back box in `page`. */
export async function pasteSave(web: WebTestSystem, page: Page, diagramUuid: string, patch: object) {
  await previewPaste(web, page, diagramUuid, JSON.stringify(patch));
  await Promise.all([
    page.waitForURL(`${web.webUrl}/diagrams/${diagramUuid}`),
    page.click('#paste-apply-form button'),
  ]);
}

export async function tableNames(web: WebTestSystem, person: TestMember, diagramUuid: string) {
  const schema = (await api(web, person.token, 'GET', `/diagrams/${diagramUuid}/schema`)).body.data as {
    tables: { name: string }[];
  };
  return schema.tables.map((table) => table.name).sort();
}
