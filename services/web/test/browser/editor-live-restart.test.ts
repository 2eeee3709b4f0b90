/// <reference lib="dom" />
// A restart of the services while a person is editing: the editor says the edit is not saved yet, keeps it
// in the browser, reconnects by itself when the services are back and saves it; no edit the page reported
// saved is lost, and the page is never reloaded. As live-restart.test.ts, on NATS with the same database,
// data directory (session key) and address each time.
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { type RestartableSystem, startRestartableSystem } from '../support/restartable-system';
import { PASSWORD } from '../support/web-system';

jest.setTimeout(180_000);

describe('a restart of the services while a person edits (Chromium, embedded system on NATS)', () => {
  let system: RestartableSystem;
  let browser: TestBrowser;

  beforeAll(async () => {
    system = await startRestartableSystem({
      team: 'restart-editing',
      editorName: 'Eve Editor',
      diagramName: 'Restarted while editing',
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.close();
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
    const answer = await fetch(`${system.apiUrl}/diagrams/${system.diagramUuid}/schema`, {
      headers: { authorization: `Bearer ${system.editor.token}` },
    });
    const body = (await answer.json()) as { data: { tables: { name: string }[] } };
    return body.data.tables.map((table) => table.name).sort();
  };

  it('should reconnect by itself, save the edit made during the restart, and lose no saved edit', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${system.webUrl}/diagrams/${system.diagramUuid}/edit`);
    await page.fill('input[name=email]', system.editor.email);
    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    await presence(page).getByText('Live', { exact: true }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });

    await addTable(page, 'before_restart');
    await saved(page);

    await system.stop();
    await presence(page).getByText('Offline: reconnecting…').waitFor();
    // Made while the services are down: the status must not claim it is saved.
    await page.keyboard.press('Escape');
    await addTable(page, 'during_restart');
    await page
      .getByRole('status')
      .filter({ hasText: /^Offline|^Not saved yet/ })
      .waitFor();
    await saveScreenshot(page, 'editor-live-offline');

    await system.start();
    // Back by itself (backoff of at most 15 s) and the waiting edit saved, without a reload.
    await presence(page).getByText('Live', { exact: true }).waitFor();
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
