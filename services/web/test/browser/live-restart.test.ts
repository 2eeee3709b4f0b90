/// <reference lib="dom" />
// A restart of the services while a diagram page is open: the page says it is offline, reconnects by itself
// when the services are back, and keeps showing what is saved; nothing saved before the restart is lost.
// The system runs on NATS here (the bus of a cluster), so the events reach the page through JetStream.
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { pasteSave } from '../support/live-pages';
import { type RestartableSystem, startRestartableSystem } from '../support/restartable-system';
import { PASSWORD, type WebTestSystem } from '../support/web-system';

jest.setTimeout(180_000);

describe('a restart of the services during editing (Chromium, embedded system on NATS)', () => {
  let system: RestartableSystem;
  let browser: TestBrowser;

  beforeAll(async () => {
    system = await startRestartableSystem({
      team: 'restart',
      editorName: 'Rita Restart',
      diagramName: 'Restarted',
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('should reconnect by itself after the restart, keep saving, and lose no saved edit', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${system.webUrl}/diagrams/${system.diagramUuid}`);
    await page.fill('input[name=email]', system.editor.email);
    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    await page.waitForSelector('#live[data-state="open"]');
    // What any page script (the editor's too) hears of the connection: offline, then back.
    await page.evaluate(() => {
      const states: string[] = [];
      (window as unknown as { loadedOnce: boolean; states: string[] }).loadedOnce = true;
      (window as unknown as { states: string[] }).states = states;
      document.addEventListener('dss:live-connection', (event) =>
        states.push((event as CustomEvent<{ state: string }>).detail.state),
      );
    });
    const web = { webUrl: system.webUrl } as WebTestSystem;
    const tab = await context.newPage();
    const addTable = (name: string) => ({
      strategy: 'merge',
      tables: [{ name, columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
    });

    await pasteSave(web, tab, system.diagramUuid, addTable('before_restart'));
    await page.waitForSelector('g.dss-table[data-table="before_restart"]');

    await system.stop();
    await page.waitForSelector('#live[data-state="offline"]');
    await saveScreenshot(page, 'live-offline');
    await system.start();
    // The page comes back by itself (backoff of at most 15 s) — no reload.
    await page.waitForSelector('#live[data-state="open"]');
    const states = await page.evaluate(() => (window as unknown as { states: string[] }).states);
    expect(states[0]).toBe('offline');
    expect(states.at(-1)).toBe('open');

    await pasteSave(web, tab, system.diagramUuid, addTable('after_restart'));
    await page.waitForSelector('g.dss-table[data-table="after_restart"]');
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    const stored = await page.evaluate(async (uuid) => {
      const answer = await (await fetch(`/diagrams/${uuid}/document.json`)).json();
      return (answer.data.document.tables as { name: string }[]).map((table) => table.name).sort();
    }, system.diagramUuid);
    expect(stored).toEqual(['after_restart', 'before_restart', 'customers', 'orders']);
    await context.close();
  });
});
