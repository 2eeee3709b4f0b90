// The one browser launcher of the web app's browser tests: Debian's Chromium driven by playwright-core,
// headless, with no network activity of its own (no updates, sync or QUIC probing). Each launch runs on
// a fresh temporary profile (user-data dir) that playwright creates and deletes; each test page gets its
// own isolated context (own cookies).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = process.env.DSS_TEST_CHROMIUM || '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../../../artifacts/screenshots');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * How long a page action, wait or navigation may take before it fails: a guard against a hang, never a speed
 * check (benchmarks measure speed). Playwright's 30 s default is too short on a 2-core CI machine running three
 * test files at once beside Chromium, where a page that loads in 3 s alone has taken more than 30 s; jest's
 * own limit for a test is 120 s.
 */
export const PAGE_TIMEOUT_MS = 60_000;

export interface TestBrowser {
  browser: Browser;
  /** Console reports of Content Security Policy violations on any page opened so far. */
  cspViolations: string[];
  /** A new isolated context (its own cookies) with one page; `options` add to or replace the defaults. */
  newPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `${CHROMIUM_PATH} is missing: install it with \`apt-get install -y chromium\` (npm test does so as root)`,
    );
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const cspViolations: string[] = [];
  return {
    browser,
    cspViolations,
    async newPage(options = {}) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options });
      context.setDefaultTimeout(PAGE_TIMEOUT_MS);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      return { context, page };
    },
    async close() {
      await browser.close();
    },
  };
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
