// The set-up every browser test file of the web app shares: the whole embedded system with the web app on
// its real address, one Chromium, and a fresh page with a person signed in. Call it inside the file's
// describe; its hooks start both before the file's own beforeAll and stop both after the tests.
import type { TestMember } from '@dss/system';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser';
import { PASSWORD, startWebTestSystem, type WebTestSystem } from './web-system';

/** Starting the whole system and Chromium on a shared 2-core machine: generous, never a timing assertion. */
const BROWSER_TEST_TIMEOUT_MS = 120_000;

export interface BrowserSuite {
  /** Available from the file's own beforeAll on. */
  readonly web: WebTestSystem;
  readonly browser: TestBrowser;
  /** A new page (own cookies) signed in as `person` through the sign-in form, having asked for `start`. */
  signedInPage(person: TestMember, start?: string): Promise<Page>;
}

/** `extraEnv()`: more variables for the system, read when it starts (after the file's earlier hooks). */
export function useBrowserSuite(extraEnv: () => Record<string, string> = () => ({})): BrowserSuite {
  jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);
  let web: WebTestSystem | undefined;
  let browser: TestBrowser | undefined;

  beforeAll(async () => {
    web = await startWebTestSystem(extraEnv());
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('the browser suite is not started yet: use it from beforeAll on');
    return value;
  };

  return {
    get web() {
      return started(web);
    },
    get browser() {
      return started(browser);
    },
    async signedInPage(person, start = '/') {
      const { page } = await started(browser).newPage();
      await page.goto(`${started(web).webUrl}${start}`);
      await page.fill('input[name=email]', person.email);
      await page.fill('input[name=password]', PASSWORD);
      await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
      return page;
    },
  };
}
