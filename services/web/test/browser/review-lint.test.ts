// The lint panel of the review page in Chromium: the same findings as GET /proposals/{uuid}/lint, beside
// the migration (in the migration's column, below it), errors first; a clean proposal says so.
import { twoTableShopPatch } from '@dss/system';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, propose } from '../support/web-system';

describe('review page lint panel (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();

  it('When a proposal has lint findings, then the review page lists the API’s findings beside the migration', async () => {
    const { web } = suite;
    await web.people.team('lintweb');
    const editor = await createPerson(web, 'lintweb', 'editor', 'Lena Lint');
    const diagramUuid = await createDiagram(web, editor, twoTableShopPatch());
    const proposal = await propose(web, editor, diagramUuid, {
      title: 'Loose table',
      message: 'No key, and a drop.',
      schema: {
        strategy: 'merge',
        tables: [{ name: 'AuditRows', columns: [{ name: 'note', type: 'text' }] }],
        deletions: { columns: [{ table: 'customers', columns: ['email'] }] },
      },
    });
    const fromApi = (await api(web, editor.token, 'GET', `/proposals/${proposal.uuid}/lint`)).body
      .data as unknown as {
      rule: string;
      table: string;
      column?: string;
    }[];
    expect(fromApi.map((finding) => finding.rule)).toEqual([
      'table-without-primary-key',
      'naming-convention',
      'destructive-change',
    ]);

    const page = await suite.signedInPage(editor, new URL(proposal.review_url).pathname);
    const shown = await page.locator('#lint-findings li').evaluateAll((items) =>
      items.map((item) => ({
        rule: item.getAttribute('data-rule'),
        table: item.getAttribute('data-table'),
        column: item.getAttribute('data-column') ?? undefined,
      })),
    );
    expect(shown).toEqual(fromApi.map(({ rule, table, column }) => ({ rule, table, column })));
    expect(await page.textContent('#lint-counts')).toBe('1 error, 2 warnings');
    // Beside the migration: in its column, directly below it.
    const migration = (await page.locator('#migration').boundingBox())!;
    const lint = (await page.locator('#lint').boundingBox())!;
    expect(Math.abs(lint.x - migration.x)).toBeLessThan(2);
    expect(lint.y).toBeGreaterThanOrEqual(migration.y + migration.height - 1);
    await saveScreenshot(page, 'review-page-lint');

    const clean = await propose(web, editor, diagramUuid, {
      title: 'Clean',
      message: 'A keyed table.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'notes', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
      },
    });
    await page.goto(clean.review_url);
    expect(await page.textContent('#lint-clean')).toContain('No findings');
  });
});
