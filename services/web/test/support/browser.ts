// The one browser launcher of the web app's browser tests: Debian's Chromium driven by playwright-core,
// headless, with no network activity of its own (no updates, sync or QUIC probing). Each launch runs on
// a fresh temporary profile (user-data dir) that playwright creates and deletes; each test page gets its
// own isolated context (own cookies).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

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

export interface TestBrowser {
  browser: Browser;
  /** Console reports of Content Security Policy violations on any page opened so far. */
  cspViolations: string[];
  /** A new isolated context (its own cookies) with one page. */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
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
    async newPage() {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
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
