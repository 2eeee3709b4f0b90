// What every benchmark of the web app starts from: the embedded system with the web app on a port chosen
// up front (so DSS_APP_URL is its real address), on the in-process bus or on NATS, without the importer (on
// a shared NATS server it would take other runs' import jobs); people with passwords; one headless
// Chromium; and a page signed in through the sign-in form. PostgreSQL: DSS_TEST_DATABASE_URL, else
// 127.0.0.1:5432; NATS: DSS_TEST_NATS_URL, else 127.0.0.1:4222; Chromium: DSS_TEST_CHROMIUM, else
// /usr/bin/chromium.
import { freePort, testNatsUrl } from '@dss/platform/testing';
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

/** `page` at `path` of the web app, signed in as `person` through the sign-in form it answers with. */
export async function signIn(page: Page, webUrl: string, path: string, person: TestMember): Promise<void> {
  await page.goto(`${webUrl}${path}`);
  await page.fill('input[name=email]', person.email);
  await page.fill('input[name=password]', PASSWORD);
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
}
