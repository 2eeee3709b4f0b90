// The audit log page (/settings/audit) in Chromium: an owner reads the team's entries, filters them by
// labelled controls and pages through them; an entry's user text (a diagram named with markup) stays
// text; editors are refused; no serious axe violation. Screenshot: artifacts/screenshots/audit-log.png.
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { seriousViolations } from '../support/axe';
import { useBrowserSuite } from '../support/browser-suite';
import { saveScreenshot } from '../support/browser';
import { api, createDiagram, createPerson } from '../support/web-system';

describe('web app: the audit log page', () => {
  const suite = useBrowserSuite();
  let owner: TestMember;
  let editor: TestMember;
  let hostileUuid: string;

  beforeAll(async () => {
    await suite.web.people.team('audit-page');
    owner = await createPerson(suite.web, 'audit-page', 'owner', 'Olive Owner');
    editor = await createPerson(suite.web, 'audit-page', 'editor', 'Eddie Editor');
    hostileUuid = await createDiagram(
      suite.web,
      editor,
      twoTableShopPatch(),
      '<img src=x onerror="window.__pwned=1">Orders',
    );
    await api(suite.web, editor.token, 'PATCH', `/diagrams/${hostileUuid}`, { name: 'Orders <b>v2</b>' });
    for (let index = 0; index < 3; index += 1)
      await createDiagram(suite.web, editor, twoTableShopPatch(), `Inventory ${index + 1}`);
    // Wait until the entries written through the diagrams service's outbox have arrived.
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const page = await api(suite.web, owner.token, 'GET', `/audit-events?action=diagram&limit=100`);
      if (((page.body as { data?: unknown[] }).data ?? []).length >= 5) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('should show an owner the team’s entries with user text inert, filter them and pass axe', async () => {
    const page = await suite.signedInPage(owner, '/settings/audit');
    await page.goto(`${suite.web.webUrl}/settings/audit`);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const rows = page.locator('#audit-events tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(6);
    const actions = await page
      .locator('#audit-events tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')));
    expect(actions).toEqual(expect.arrayContaining(['diagram.created', 'diagram.renamed', 'user.signed_in']));
    const renamed = page.locator('#audit-events tr[data-action="diagram.renamed"]').first();
    expect(await renamed.textContent()).toContain('Orders <b>v2</b>');
    expect(await renamed.locator('b').count()).toBe(0);
    expect(await page.locator('#audit-events img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'audit-log');

    await page.getByLabel('Action').selectOption('diagram');
    await page.getByLabel('Actor').fill(editor.email);
    await Promise.all([
      page.waitForURL(/action=diagram/),
      page.getByRole('button', { name: 'Filter' }).click(),
    ]);
    const filtered = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')));
    expect(filtered.length).toBeGreaterThanOrEqual(5);
    expect(filtered.every((action) => action?.startsWith('diagram.'))).toBe(true);
    expect(await page.getByLabel('Actor').inputValue()).toBe(editor.email);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Target id').fill(hostileUuid);
    await page.getByLabel('From (date)').fill('2026-01-01');
    await Promise.all([page.waitForURL(/target=/), page.getByRole('button', { name: 'Filter' }).click()]);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')))).toEqual([
      'diagram.renamed',
      'diagram.created',
    ]);
    await page.close();
  });

  it('should page through the entries with Older entries and Newest entries', async () => {
    const page = await suite.signedInPage(owner, '/settings/audit');
    await page.goto(`${suite.web.webUrl}/settings/audit?action=diagram&limit=2`);
    const ids = () =>
      page
        .locator('#audit-events tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-audit-id')!));
    const seen: string[] = [];
    for (;;) {
      const onPage = await ids();
      expect(onPage.length).toBeLessThanOrEqual(2);
      seen.push(...onPage);
      const older = page.getByRole('link', { name: 'Older entries' });
      if ((await older.count()) === 0) break;
      await Promise.all([page.waitForURL(/cursor=/), older.click()]);
      expect(await page.getByRole('link', { name: 'Newest entries' }).count()).toBe(1);
    }
    expect(seen.length).toBe(5);
    expect(new Set(seen).size).toBe(5);
    await page.getByRole('link', { name: 'Newest entries' }).click();
    await page.waitForURL((url) => !url.search.includes('cursor='));
    expect(await ids()).toEqual(seen.slice(0, 2));
    await page.close();
  });

  it('should answer 422 with the filter named for a bad date, and refuse an editor', async () => {
    const page = await suite.signedInPage(owner, '/settings/audit');
    const bad = await page.goto(`${suite.web.webUrl}/settings/audit?since=last-week`);
    expect(bad?.status()).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('since');
    await page.close();
    const editorPage = await suite.signedInPage(editor, '/settings/audit');
    const refused = await editorPage.goto(`${suite.web.webUrl}/settings/audit`);
    expect(refused?.status()).toBe(403);
    await editorPage.close();
  });
});
