/// <reference lib="dom" />
// A restart of the services while a person is editing: the editor says the edit is not saved yet, keeps it
// in the browser, reconnects by itself when the services are back and saves it; no edit the page reported
// saved is lost, and the page is never reloaded. As live-restart.test.ts, on NATS with the same database,
// data directory (session key) and address each time.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, testNatsUrl } from '@dss/platform/testing';
import {
  startTestSystem,
  type TestMember,
  TestPeople,
  type TestSystem,
  twoTableShopPatch,
} from '@dss/system';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { PASSWORD } from '../support/web-system';

jest.setTimeout(180_000);

describe('a restart of the services while a person edits (Chromium, embedded system on NATS)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let system: TestSystem | undefined;
  let browser: TestBrowser;
  let webUrl: string;
  let apiUrl: string;
  let editor: TestMember;
  let diagramUuid: string;

  const start = async () => {
    // No importer: on a NATS server other test runs share, it would take their import jobs.
    system = await startTestSystem(env, { withoutImporter: true });
    return system;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    webUrl = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: database.url,
      DSS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dss-editor-restart-')),
      DSS_WEB_PORT: String(port),
      DSS_APP_URL: webUrl,
      NATS_URL: testNatsUrl(),
    };
    const first = await start();
    apiUrl = first.apiUrl;
    const people = new TestPeople(first.grpc.accounts);
    await people.team('restart-editing');
    editor = await people.member({
      team: 'restart-editing',
      role: 'editor',
      name: 'Eve Editor',
      password: PASSWORD,
      write: true,
    });
    people.close();
    const created = await fetch(`${apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restarted while editing', driver: 'pgsql', schema: twoTableShopPatch() }),
    });
    diagramUuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await database?.drop();
  });

  const presence = (page: Page) => page.getByRole('region', { name: 'People here' });
  const saved = (page: Page, timeout = 15_000) =>
    page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor({ timeout });

  async function addTable(page: Page, name: string) {
    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('textbox', { name: 'Table name' }).fill(name);
    await page.getByRole('button', { name: 'Save table' }).click();
    await page.getByRole('region', { name: `Table ${name}` }).waitFor();
  }

  const storedTables = async () => {
    const answer = await fetch(`${apiUrl}/diagrams/${diagramUuid}/schema`, {
      headers: { authorization: `Bearer ${editor.token}` },
    });
    const body = (await answer.json()) as { data: { tables: { name: string }[] } };
    return body.data.tables.map((table) => table.name).sort();
  };

  it('should reconnect by itself, save the edit made during the restart, and lose no saved edit', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${webUrl}/diagrams/${diagramUuid}/edit`);
    await page.fill('input[name=email]', editor.email);
    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    await presence(page).getByText('Live', { exact: true }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });

    await addTable(page, 'before_restart');
    await saved(page);

    await system!.stop();
    system = undefined;
    await presence(page).getByText('Offline: reconnecting…').waitFor({ timeout: 15_000 });
    // Made while the services are down: the status must not claim it is saved.
    await page.keyboard.press('Escape');
    await addTable(page, 'during_restart');
    await page
      .getByRole('status')
      .filter({ hasText: /^Offline|^Not saved yet/ })
      .waitFor({ timeout: 15_000 });
    await saveScreenshot(page, 'editor-live-offline');

    await start();
    apiUrl = system!.apiUrl;
    // Back by itself (backoff of at most 15 s) and the waiting edit saved, without a reload.
    await presence(page).getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
    await saved(page, 30_000);
    expect(await storedTables()).toEqual(['before_restart', 'customers', 'during_restart', 'orders']);

    await page.keyboard.press('Escape');
    await addTable(page, 'after_restart');
    await saved(page);
    expect(await storedTables()).toEqual([
      'after_restart',
      'before_restart',
      'customers',
      'during_restart',
      'orders',
    ]);
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
  });
});
