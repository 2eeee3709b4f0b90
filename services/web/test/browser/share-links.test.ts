// Share links in the browser: an editor makes a read-only link on the diagram's "Share links" page; signed
// out, the link shows that one diagram (or that one version) and nothing else of the team, is not indexed,
// can be framed through its embed view, cannot write or reach anything else, is no API token, and answers
// 404 once revoked or expired. Visits are limited per address.
import { twoTableShopPatch } from '@dss/system';
import type { TestMember } from '@dss/system';
import { Client } from 'pg';
import type { Page } from 'playwright-core';
import { SHARE_VISITS_PER_MINUTE } from '../../src/routes/share';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, propose, type WebTestSystem } from '../support/web-system';

describe('Share links (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let editor: TestMember;
  let viewer: TestMember;
  let diagramUuid: string;
  let otherUuid: string;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('sharing');
    editor = await createPerson(web, 'sharing', 'editor', 'Selma Editor');
    viewer = await createPerson(web, 'sharing', 'viewer', 'Sven Viewer');
    diagramUuid = await createDiagram(web, editor, twoTableShopPatch(), 'Shared shop');
    otherUuid = await createDiagram(web, editor, twoTableShopPatch(), 'Private plans');
    // Version 2 of the shared diagram adds a table, so a link to version 1 can be told apart.
    const proposal = await propose(web, editor, diagramUuid, {
      title: 'Invoices',
      message: 'Add invoices',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'invoices', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
      },
    });
    const page = await suite.signedInPage(editor, `/review/${proposal.uuid}`);
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Apply changes' }).click(),
    ]);
  });

  /** Makes a link on the Share links page as the editor; answers its address. */
  async function makeLink(options: { version?: string; expires?: string } = {}): Promise<string> {
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}`);
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('link', { name: 'Share links' }).click(),
    ]);
    if (options.version) await page.getByLabel('Opens').selectOption({ label: options.version });
    if (options.expires) await page.getByLabel('Expires').selectOption({ label: options.expires });
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Create share link' }).click(),
    ]);
    const url = (await page.locator('#share-url').textContent()) ?? '';
    expect(url).toMatch(new RegExp(`^${web.webUrl}/s/[A-Za-z0-9_-]{43}$`));
    await page.context().close();
    return url;
  }

  /** A signed-out visit. */
  async function visit(
    url: string,
  ): Promise<{ page: Page; status: number; headers: Record<string, string> }> {
    const { page } = await suite.browser.newPage();
    const response = await page.goto(url);
    return { page, status: response!.status(), headers: response!.headers() };
  }

  it('should show the one diagram signed out, read-only, noindex, with nothing else of the team', async () => {
    const url = await makeLink();
    const { page, status, headers } = await visit(url);
    expect(status).toBe(200);
    expect(headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Shared shop');
    expect(await page.locator('#diagram svg g.dss-table[data-table="invoices"]').count()).toBe(1);
    const text = (await page.textContent('body')) ?? '';
    for (const hidden of ['Team sharing', 'sharing', 'Private plans', 'Selma Editor', 'Sign out', 'History'])
      expect(text).not.toContain(hidden);
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Diagrams' }).count()).toBe(0);
    await saveScreenshot(page, 'share-page');

    // Nothing else opens with the link's cookies (there are none): the team's pages ask to sign in.
    for (const path of [
      '/',
      `/diagrams/${otherUuid}`,
      `/diagrams/${diagramUuid}`,
      `/diagrams/${diagramUuid}/share`,
    ]) {
      await page.goto(`${web.webUrl}${path}`);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
    }
    const write = await page.request.post(`${web.webUrl}/diagrams/${diagramUuid}/layout`, {
      form: { positions: '{"tables":{"orders":[0,0]}}' },
      maxRedirects: 0,
    });
    expect([303, 403]).toContain(write.status());
    expect((await api(web, editor.token, 'GET', `/diagrams/${diagramUuid}/versions`)).body.data).toHaveLength(
      2,
    );
  });

  it('should open a version link at that version, and its embed view in a frame of another site', async () => {
    const url = await makeLink({ version: 'Version 1 only' });
    const { page } = await visit(url);
    expect(await page.textContent('#shared-note')).toContain('version 1');
    expect(await page.locator('#diagram svg g.dss-table[data-table="invoices"]').count()).toBe(0);
    const embed = await visit(`${url}/embed`);
    expect(embed.status).toBe(200);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(await embed.page.locator('header').count()).toBe(0);
    expect(await embed.page.locator('#diagram svg g.dss-table[data-table="customers"]').count()).toBe(1);
  });

  it('should not be accepted as an API token', async () => {
    const url = await makeLink();
    const token = url.slice(url.lastIndexOf('/') + 1);
    const answer = await api(web, token, 'GET', `/diagrams/${diagramUuid}`);
    expect(answer.status).toBe(401);
  });

  it('should answer 404 at once after it is revoked, and list who made it', async () => {
    const url = await makeLink();
    expect((await visit(url)).status).toBe(200);
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}/share`);
    const rows = page.locator('#share-links tbody tr');
    expect(await rows.first().textContent()).toContain('Selma Editor');
    await Promise.all([
      page.waitForLoadState('load'),
      rows
        .first()
        .getByRole('button', { name: /^Revoke/ })
        .click(),
    ]);
    expect(await page.locator('#share-links tbody tr').first().locator('.state').textContent()).toBe(
      'revoked',
    );
    const after = await visit(url);
    expect(after.status).toBe(404);
    expect(after.headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it('should answer 404 after it expires', async () => {
    const url = await makeLink({ expires: 'In 1 day' });
    expect((await visit(url)).status).toBe(200);
    const client = new Client({ connectionString: web.databaseUrl });
    await client.connect();
    try {
      const aged = await client.query(
        "UPDATE diagrams.share_links SET expires_at = now() - interval '1 second' WHERE diagram_uuid = $1 AND expires_at IS NOT NULL",
        [diagramUuid],
      );
      expect(aged.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    expect((await visit(url)).status).toBe(404);
  });

  it('should not let a viewer make or revoke links', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${diagramUuid}/share`);
    expect(await page.getByRole('button', { name: 'Create share link' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const refused = await page.request.post(`${web.webUrl}/diagrams/${diagramUuid}/share`, {
      form: { _csrf: csrf ?? '', version: '', expires: '' },
    });
    expect(refused.status()).toBe(403);
  });

  it('should limit visits from one address', async () => {
    const url = await makeLink();
    // Twice the limit and one: however the one-minute windows fall, one of them holds more than the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 2 * (SHARE_VISITS_PER_MINUTE + 1) && statuses.at(-1) !== 429; i += 1)
      statuses.push((await fetch(url, { redirect: 'manual' })).status);
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(429);
  });
});
