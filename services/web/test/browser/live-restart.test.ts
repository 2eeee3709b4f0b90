/// <reference lib="dom" />
// A restart of the services while a diagram page is open: the page says it is offline, reconnects by itself
// when the services are back, and keeps showing what is saved; nothing saved before the restart is lost.
// The system runs on NATS here (the bus of a cluster), so the events reach the page through JetStream.
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
import { launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser';
import { pasteSave } from '../support/live-pages';
import { PASSWORD, type WebTestSystem } from '../support/web-system';

jest.setTimeout(180_000);

describe('a restart of the services during editing (Chromium, embedded system on NATS)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let system: TestSystem | undefined;
  let browser: TestBrowser;
  let webUrl: string;
  let editor: TestMember;
  let diagramUuid: string;

  /** The same database, data directory (session key), address and NATS each time: a restart. */
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
      DSS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dss-live-restart-')),
      DSS_WEB_PORT: String(port),
      DSS_APP_URL: webUrl,
      NATS_URL: testNatsUrl(),
    };
    const first = await start();
    const people = new TestPeople(first.grpc.accounts);
    await people.team('restart');
    editor = await people.member({
      team: 'restart',
      role: 'editor',
      name: 'Rita Restart',
      password: PASSWORD,
      write: true,
    });
    people.close();
    const created = await fetch(`${first.apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restarted', driver: 'pgsql', schema: twoTableShopPatch() }),
    });
    diagramUuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await database?.drop();
  });

  it('should reconnect by itself after the restart, keep saving, and lose no saved edit', async () => {
    const { context, page } = await browser.newPage();
    await page.goto(`${webUrl}/diagrams/${diagramUuid}`);
    await page.fill('input[name=email]', editor.email);
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
    const web = { webUrl } as WebTestSystem;
    const tab = await context.newPage();
    const addTable = (name: string) => ({
      strategy: 'merge',
      tables: [{ name, columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
    });

    await pasteSave(web, tab, diagramUuid, addTable('before_restart'));
    await page.waitForSelector('g.dss-table[data-table="before_restart"]', { timeout: 10_000 });

    await system!.stop();
    system = undefined;
    await page.waitForSelector('#live[data-state="offline"]', { timeout: 10_000 });
    await saveScreenshot(page, 'live-offline');
    await start();
    // The page comes back by itself (backoff of at most 15 s) — no reload.
    await page.waitForSelector('#live[data-state="open"]', { timeout: 30_000 });
    const states = await page.evaluate(() => (window as unknown as { states: string[] }).states);
    expect(states[0]).toBe('offline');
    expect(states.at(-1)).toBe('open');

    await pasteSave(web, tab, diagramUuid, addTable('after_restart'));
    await page.waitForSelector('g.dss-table[data-table="after_restart"]', { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    const stored = await page.evaluate(async (uuid) => {
      const answer = await (await fetch(`/diagrams/${uuid}/document.json`)).json();
      return (answer.data.document.tables as { name: string }[]).map((table) => table.name).sort();
    }, diagramUuid);
    expect(stored).toEqual(['after_restart', 'before_restart', 'customers', 'orders']);
    await context.close();
  });
});
