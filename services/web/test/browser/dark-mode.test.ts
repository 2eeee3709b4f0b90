/// <reference lib="dom" />
// Dark mode: the pages follow prefers-color-scheme, and the header's "Dark mode" toggle overrides it
// (remembered in localStorage, applied before the first paint by /assets/theme.js). Measured, not trusted:
// the computed background is dark, axe-core finds no serious violation (colour contrast included), the
// drawing's text has at least 4.5:1 against what it sits on in both themes (computed colours), and
// screenshots of the diagram and review pages show that contrast in their pixels.
import type { TestMember } from '@dss/system';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe';
import { SCREENSHOT_DIR } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { drawingTextColours, luminance, measured, parseRgb, screenshotContrasts } from '../support/contrast';
import { createDiagram, createPerson, PASSWORD, propose, type WebTestSystem } from '../support/web-system';

const AA_TEXT = 4.5;
/** Relative luminance of a background a person would call dark (#3a3a3a is about 0.042). */
const DARK_BACKGROUND = 0.05;

async function bodyBackground(page: Page): Promise<number> {
  return luminance(parseRgb(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)));
}

async function bodyText(page: Page): Promise<number> {
  return luminance(parseRgb(await page.evaluate(() => getComputedStyle(document.body).color)));
}

describe('dark mode (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let owner: TestMember;
  let diagramUuid: string;
  let reviewPath: string;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('dusk');
    owner = await createPerson(web, 'dusk', 'owner', 'Dora Dusk');
    diagramUuid = await createDiagram(
      web,
      owner,
      {
        strategy: 'merge',
        tables: [
          {
            name: 'customers',
            columns: [
              { name: 'id', type: 'bigint', is_primary_key: true },
              { name: 'email', type: 'varchar(255)', is_unique_key: true },
            ],
          },
          {
            name: 'orders',
            columns: [
              { name: 'id', type: 'bigint', is_primary_key: true },
              { name: 'customer_id', type: 'bigint', is_index: true },
              { name: 'note', type: 'text', is_nullable: true },
            ],
          },
        ],
        relationships: [
          {
            type: 'many-to-one',
            source_table: 'orders',
            source_column: 'customer_id',
            target_table: 'customers',
            target_column: 'id',
          },
        ],
      },
      'Night shop',
    );
    // Columns of every kind the drawing shows: keys, a foreign key, nullable ones, an added table and an
    // added column on a changed table (its row is tinted on the review page).
    const proposal = await propose(web, owner, diagramUuid, {
      title: 'Add invoices',
      message: 'Invoices for orders.',
      schema: {
        strategy: 'additive',
        tables: [
          {
            name: 'invoices',
            columns: [
              { name: 'id', type: 'bigint', is_primary_key: true },
              { name: 'number', type: 'varchar(40)', is_unique_key: true },
              { name: 'paid_at', type: 'timestamp', is_nullable: true },
            ],
          },
          { name: 'customers', columns: [{ name: 'nickname', type: 'varchar(80)', is_nullable: true }] },
        ],
      },
    });
    reviewPath = new URL(proposal.review_url).pathname;
  });

  const pages: [string, () => string][] = [
    ['home', () => '/'],
    ['diagram', () => `/diagrams/${diagramUuid}`],
    ['review', () => reviewPath],
    ['editor', () => `/diagrams/${diagramUuid}/edit`],
  ];

  it('should show the sign-in page dark, with light text and no serious axe violation, when the system prefers dark', async () => {
    const { page } = await suite.browser.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${web.webUrl}/sign-in`);
    expect(await bodyBackground(page)).toBeLessThan(DARK_BACKGROUND);
    expect(await bodyText(page)).toBeGreaterThan(0.6);
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it.each(pages)(
    'should show the %s page dark with no serious axe violation (colour contrast included) when the system prefers dark',
    async (_name, path) => {
      const { page } = await suite.browser.newPage();
      await page.emulateMedia({ colorScheme: 'dark' });
      await signIn(page, path());
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-theme'))).toBe(false);
      expect(await bodyBackground(page)).toBeLessThan(DARK_BACKGROUND);
      expect(await bodyText(page)).toBeGreaterThan(0.6);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );

  it.each([
    ['diagram', () => `/diagrams/${diagramUuid}`],
    ['review', () => reviewPath],
    ['editor', () => `/diagrams/${diagramUuid}/edit`],
  ] as [string, () => string][])(
    'should give every text of the drawing on the %s page at least 4.5:1 against its fill in both themes',
    async (_name, path) => {
      for (const scheme of ['light', 'dark'] as const) {
        const { page } = await suite.browser.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        await signIn(page, path());
        await page.locator('svg.dss-diagram g.dss-table').first().waitFor();
        const texts = await drawingTextColours(page);
        expect(texts.length).toBeGreaterThan(8);
        const boxes = await page.evaluate(() =>
          Array.from(document.querySelectorAll('svg.dss-diagram rect.dss-box')).map(
            (box) => getComputedStyle(box).fill,
          ),
        );
        for (const box of boxes)
          if (scheme === 'dark') expect(luminance(parseRgb(box))).toBeLessThan(DARK_BACKGROUND);
          else expect(luminance(parseRgb(box))).toBeGreaterThan(0.8);
        const lowest = measured(texts)[0]!;
        expect({ scheme, ...lowest, atLeast: lowest.ratio >= AA_TEXT }).toEqual({
          scheme,
          ...lowest,
          atLeast: true,
        });
        await page.context().close();
      }
    },
  );

  it('should keep a dark choice made with the toggle over a light system, across pages and reloads, and forget it when toggled back', async () => {
    const { page } = await suite.browser.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, '/');
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await bodyBackground(page)).toBeGreaterThan(0.8);

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    expect(await bodyBackground(page)).toBeLessThan(DARK_BACKGROUND);

    // Another page: the attribute is on <html> as soon as the document is parsed (theme.js runs in <head>,
    // before the stylesheets are applied to a painted body).
    await page.goto(`${web.webUrl}/diagrams/${diagramUuid}`, { waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await page.waitForLoadState('load');
    expect(await bodyBackground(page)).toBeLessThan(DARK_BACKGROUND);
    const canvas = await page.evaluate(
      () => getComputedStyle(document.querySelector('svg.dss-diagram')!).backgroundColor,
    );
    expect(luminance(parseRgb(canvas))).toBeLessThan(DARK_BACKGROUND);
    expect(await seriousViolations(page)).toEqual([]);
    expect(measured(await drawingTextColours(page))[0]!.ratio).toBeGreaterThanOrEqual(AA_TEXT);

    await page.reload();
    expect(await bodyBackground(page)).toBeLessThan(DARK_BACKGROUND);
    await page.getByRole('button', { name: 'Dark mode' }).click();
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('false');
    expect(await bodyBackground(page)).toBeGreaterThan(0.8);
    // Toggled back to what the system asks for: no stored choice, the page follows the system again.
    expect(await page.evaluate(() => localStorage.getItem('dss-theme'))).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await bodyBackground(page)).toBeLessThan(DARK_BACKGROUND);
  });

  it('should keep a light choice made with the toggle over a dark system', async () => {
    const { page } = await suite.browser.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, reviewPath);
    await page.getByRole('button', { name: 'Dark mode' }).click();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('light');
    await page.reload();
    expect(await bodyBackground(page)).toBeGreaterThan(0.8);
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('false');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it.each([
    ['diagram', () => `/diagrams/${diagramUuid}`],
    ['review', () => reviewPath],
  ] as [string, () => string][])(
    'should show at least 4.5:1 in the pixels of a dark screenshot of the %s page (table names, column names, types)',
    async (name, path) => {
      const { context, page } = await suite.browser.newPage({ deviceScaleFactor: 2, colorScheme: 'dark' });
      await signIn(page, path());
      await page.locator('svg.dss-diagram g.dss-table').first().waitFor();
      await page.locator('svg.dss-diagram').scrollIntoViewIfNeeded();
      // The pointer is left where the sign-in button was: off the drawing, so no table is emphasised (hovering
      // one dims the others, which is meant to lower their contrast).
      await page.mouse.move(1, 1);
      // The drawing fits itself to its frame after load; wait for its transform to settle.
      await page.waitForTimeout(300);
      const boxes = await page.evaluate(() => {
        const out: { what: string; x: number; y: number; width: number; height: number }[] = [];
        const texts = document.querySelectorAll(
          'svg.dss-diagram text.dss-table-name, svg.dss-diagram text.dss-column-name, svg.dss-diagram text.dss-column-type',
        );
        for (const text of Array.from(texts)) {
          // Tables the review dims on purpose (context around the changes) are not text to read at 4.5:1.
          let opacity = 1;
          for (let at: Element | null = text; at; at = at.parentElement)
            opacity *= Number(getComputedStyle(at).opacity);
          if (opacity < 1) continue;
          const rect = text.getBoundingClientRect();
          if (rect.width < 4 || rect.bottom > innerHeight || rect.right > innerWidth || rect.top < 0)
            continue;
          out.push({
            what: `${text.closest('g.dss-table')?.getAttribute('data-table')} ${text.getAttribute('class')} ${text.textContent}`,
            x: rect.x - 2,
            y: rect.y - 1,
            width: rect.width + 4,
            height: rect.height + 2,
          });
        }
        return out;
      });
      expect(boxes.length).toBeGreaterThan(6);
      const png = await page.screenshot();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/dark-${name}.png`, fullPage: true });
      const contrasts = await screenshotContrasts(suite.browser.browser, png, 2, boxes);
      for (const sample of contrasts) expect(luminance(sample.background)).toBeLessThan(DARK_BACKGROUND);
      const lowest = contrasts.sort((a, b) => a.ratio - b.ratio)[0]!;
      expect({ ...lowest, atLeast: lowest.ratio >= AA_TEXT }).toEqual({ ...lowest, atLeast: true });
      await context.close();
    },
  );

  async function signIn(page: Page, start: string): Promise<void> {
    await page.goto(`${web.webUrl}${start}`);
    await page.fill('input[name=email]', owner.email);
    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
  }
});
