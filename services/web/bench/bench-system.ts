// What every benchmark of the web app starts from: the embedded system with the web app on a port chosen
// up front (so DSS_APP_URL is its real address), on the in-process bus or on NATS, without the importer (on
// a shared NATS server it would take other runs' import jobs); people with passwords; one headless
// Chromium; and a page signed in through the sign-in form. PostgreSQL: DSS_TEST_DATABASE_URL, else
// 127.0.0.1:5432; NATS: DSS_TEST_NATS_URL, else 127.0.0.1:4222; Chromium: DSS_TEST_CHROMIUM, else
// /usr/bin/chromium.
import { patchBetween } from '@dss/editor';
import { freePort, testNatsUrl } from '@dss/platform/testing';
import { type DiagramDocument, emptyDocument } from '@dss/schema';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { startTestSystem, type TestMember, TestPeople, type TestSystem } from '@dss/system';
import { type Browser, chromium, type Page } from 'playwright-core';

export const PASSWORD = 'correct horse battery staple';

export interface BenchSystem {
  system: TestSystem;
  webUrl: string;
  people: TestPeople;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startBenchSystem(bus: 'in-process' | 'NATS' = 'in-process'): Promise<BenchSystem> {
  const port = await freePort();
  const webUrl = `http://127.0.0.1:${port}`;
  const system = await startTestSystem(
    {
      DSS_WEB_PORT: String(port),
      DSS_APP_URL: webUrl,
      // As the product runs (the test system turns it off): the drawing thread warmed up at start; set
      // DSS_WEB_DRAWING_WARM_UP=false to measure the thread started by the first large version instead.
      DSS_WEB_DRAWING_WARM_UP: process.env.DSS_WEB_DRAWING_WARM_UP ?? 'true',
      ...(bus === 'NATS' ? { NATS_URL: testNatsUrl() } : {}),
    },
    { withoutImporter: true },
  );
  const people = new TestPeople(system.grpc.accounts);
  const browser = await chromium.launch({
    executablePath: process.env.DSS_TEST_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    system,
    webUrl,
    people,
    browser,
    async stop() {
      await browser.close();
      people.close();
      await system.stop();
    },
  };
}

/**
 * An editor of `team` with a password and a write token, on the enterprise plan: the generated 300-table
 * diagram has more tables than the team plan's 250 per diagram.
 */
export function largeDiagramEditor(people: TestPeople, team: string): Promise<TestMember> {
  return people.member({ team, role: 'editor', password: PASSWORD, write: true, plan: 'enterprise' });
}

/** `page` at `path` of the web app, signed in as `person` through the sign-in form it answers with. */
export async function signIn(page: Page, webUrl: string, path: string, person: TestMember): Promise<void> {
  await page.goto(`${webUrl}${path}`);
  await page.fill('input[name=email]', person.email);
  await page.fill('input[name=password]', PASSWORD);
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
}

/**
 * packages/schema's generated diagram of `tables` tables (12 columns each) made through the API as an agent
 * would make it: positions left to the create's layout, and flags at their default left out (or 300 tables
 * would pass the API's 500KB limit for a schema). The person's team needs a plan that allows the tables.
 */
export async function createGenerated(
  system: TestSystem,
  person: TestMember,
  name: string,
  tables: number,
): Promise<{ uuid: string; document: DiagramDocument }> {
  const document = generateDiagram({ tables, columnsPerTable: 12 });
  const schema = patchBetween(emptyDocument(document.driver), document) as unknown as {
    tables: Record<string, unknown>[];
    groups?: Record<string, unknown>[];
  } & Record<string, unknown>;
  const canvasKeys = ['left', 'top', 'width', 'height'];
  for (const group of schema.groups ?? []) for (const key of canvasKeys) delete group[key];
  for (const table of schema.tables) {
    for (const key of canvasKeys) delete table[key];
    for (const column of (table.columns ?? []) as Record<string, unknown>[])
      for (const [key, value] of Object.entries(column))
        if (key !== 'is_nullable' && (value === false || value === null)) delete column[key];
  }
  for (const key of ['sticky_notes', 'colors']) delete schema[key];
  const created = await fetch(`${system.apiUrl}/diagrams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, driver: document.driver, schema }),
  });
  if (created.status !== 201)
    throw new Error(`creating ${name} answered ${created.status}: ${(await created.text()).slice(0, 300)}`);
  const uuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
  return { uuid, document };
}
