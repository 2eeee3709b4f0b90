// User text that looks like markup stays text in every page that shows it, and /draw draws a patch held
// in the URL fragment without any request carrying it. Chromium against the whole embedded system.
import type { Page } from 'playwright-core';
import { type TestMember, twoTableShopPatch } from '@dss/system';
import type { TestBrowser } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, propose, type WebTestSystem } from '../support/web-system';

const SCRIPT = '<script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=1">';
const LINK =
  '<a href="javascript:window.__xss=1">click</a> [md](javascript:window.__xss=1) javascript:window.__xss=1';

describe('inert user text and /draw in the browser (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  const { signedInPage } = suite;
  let web: WebTestSystem;
  let browser: TestBrowser;
  let editor: TestMember;

  beforeAll(async () => {
    ({ web, browser } = suite);
    await web.people.team('xss');
    editor = await createPerson(web, 'xss', 'editor', `Mallory ${SCRIPT}`);
  }, 120_000);

  /** Nothing in the page ran or became an element: no flag, no script/img elements, no javascript: links. */
  async function expectInert(page: Page) {
    // Runs in the page, where `globalThis` is the window.
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    // The only scripts are the app's own files (zoom and pan, /draw): none came from the text.
    const scripts = await page.$$eval('script', (elements) =>
      elements.map((element) => element.getAttribute('src')),
    );
    expect(scripts.filter((src) => src === null || !/^\/assets\/[a-z]+\.js$/.test(src))).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('[onerror]').count()).toBe(0);
    const hrefs = await page.$$eval('a', (anchors) =>
      anchors.map((anchor) => anchor.getAttribute('href') ?? ''),
    );
    expect(hrefs.filter((href) => /^\s*javascript:/i.test(href))).toEqual([]);
  }

  it('shows markup in the title, message, table name, column comment and sticky note as text', async () => {
    const diagramUuid = await createDiagram(web, editor, twoTableShopPatch(), `Shop ${IMG}`);
    const proposal = await propose(web, editor, diagramUuid, {
      title: `${SCRIPT} title`,
      message: `${IMG}\n${LINK}`,
      schema: {
        strategy: 'additive',
        tables: [
          {
            name: `evil_${IMG}`,
            comment: SCRIPT,
            columns: [{ name: 'id', type: 'bigint', comment: `${SCRIPT} ${IMG}` }],
          },
        ],
        sticky_notes: [{ content: `${SCRIPT}\n${LINK}` }],
      },
    });

    const review = await signedInPage(editor, `/review/${proposal.uuid}`);
    await expectInert(review);
    expect(await review.textContent('#proposal-title')).toBe(`${SCRIPT} title`);
    expect(await review.textContent('#proposal-message')).toBe(`${IMG}\n${LINK}`);
    const changes = (await review.textContent('.changes-section')) ?? '';
    expect(changes).toContain(`evil_${IMG}`);
    expect(changes).toContain(`${SCRIPT} ${IMG}`);
    expect(changes).toContain('javascript:window.__xss=1');
    expect(await review.textContent('#diagram svg')).toContain('evil_');

    await Promise.all([review.waitForLoadState('load'), review.click('button:has-text("Apply changes")')]);
    expect((await api(web, editor.token, 'GET', `/proposals/${proposal.uuid}`)).body.data!.state).toBe(
      'applied',
    );
    await expectInert(review);

    for (const path of [`/diagrams/${diagramUuid}`, `/embed/${diagramUuid}`, '/']) {
      await review.goto(`${web.webUrl}${path}`);
      await expectInert(review);
    }
    await review.goto(`${web.webUrl}/`);
    expect(await review.textContent('main')).toContain(`Shop ${IMG}`);
    expect(await review.textContent('header')).toContain(`Mallory ${SCRIPT}`);
  });

  describe('/draw', () => {
    const patch = {
      strategy: 'merge',
      tables: [
        { name: 'zebra_stripes_table', columns: [{ name: 'stripe_count', type: 'integer' }] },
        { name: 'lion_manes_table', columns: [{ name: 'mane_length', type: 'numeric(5,2)' }] },
      ],
    };

    it('draws the patch from the fragment with no request carrying it', async () => {
      const { page } = await browser.newPage();
      const requests: { url: string; body: string }[] = [];
      page.on('request', (request) => requests.push({ url: request.url(), body: request.postData() ?? '' }));
      const encoded = encodeURIComponent(JSON.stringify(patch));
      await page.goto(`${web.webUrl}/draw?driver=pgsql#patch=${encoded}`);
      await page.waitForSelector('#diagram svg');
      const drawn = (await page.textContent('#diagram svg')) ?? '';
      expect(drawn).toContain('zebra_stripes_table');
      expect(drawn).toContain('lion_manes_table');
      expect(await page.locator('#problems li').count()).toBe(0);

      expect(requests.length).toBeGreaterThan(0);
      for (const request of requests) {
        for (const text of [request.url, request.body]) {
          expect(text).not.toContain('zebra');
          expect(text).not.toContain('patch=');
          expect(text).not.toContain(encoded.slice(0, 20));
        }
      }
    });

    it('lists the validation problems of a bad patch', async () => {
      const { page } = await browser.newPage();
      const bad = {
        strategy: 'merge',
        tables: [{ name: 'broken', columns: [{ name: 'x', type: 'no_such_type_at_all' }] }],
      };
      await page.goto(`${web.webUrl}/draw?driver=pgsql#patch=${encodeURIComponent(JSON.stringify(bad))}`);
      await page.waitForSelector('#problems li');
      expect(await page.textContent('#problems')).toMatch(/no_such_type_at_all|type/i);
    });

    it('lists a problem for text that is not JSON', async () => {
      const { page } = await browser.newPage();
      await page.goto(`${web.webUrl}/draw#patch=${encodeURIComponent('{not json')}`);
      await page.waitForSelector('#problems li');
      expect(await page.locator('#problems li').count()).toBeGreaterThan(0);
    });
  });

  it('met no Content Security Policy violation on any page it opened (no inline script or style)', () => {
    expect(browser.cspViolations).toEqual([]);
  });
});
