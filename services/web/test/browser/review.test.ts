// Browser journeys of the review flow in Debian's Chromium: sign-in and sign-out, proposing over REST
// then applying or declining on the review page, what a viewer sees and may do, reopening an expired
// proposal from the History pane. Screenshots of the review and diagram pages go to artifacts/screenshots.
import { Client } from 'pg';
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { saveScreenshot, type TestBrowser } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import {
  api,
  createDiagram,
  createPerson,
  PASSWORD,
  propose,
  type WebTestSystem,
} from '../support/web-system';

const INVOICES_PROPOSAL = {
  title: 'Add invoices',
  message: 'Invoices for orders,\n  with totals.',
  schema: {
    strategy: 'additive',
    tables: [
      {
        name: 'invoices',
        comment: 'One per order',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'total_amount', type: 'numeric(12,2)' },
        ],
      },
      { name: 'orders', columns: [{ name: 'shipping_status', type: 'varchar(20)' }] },
    ],
  },
};

describe('review flow in the browser (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  const { signedInPage } = suite;
  let web: WebTestSystem;
  let browser: TestBrowser;
  let editor: TestMember;
  let viewer: TestMember;
  let diagramUuid: string;

  beforeAll(async () => {
    ({ web, browser } = suite);
    await web.people.team('shop');
    editor = await createPerson(web, 'shop', 'editor', 'Edith Editor');
    viewer = await createPerson(web, 'shop', 'viewer', 'Victor Viewer');
    diagramUuid = await createDiagram(web, editor, twoTableShopPatch());
  }, 120_000);

  const proposalStatus = async (uuid: string) =>
    (await api(web, editor.token, 'GET', `/proposals/${uuid}`)).body.data as {
      state: string;
      opened_at: string | null;
      applied_version_uuid: string | null;
      decline_reason: string | null;
      expires_at: string;
    };

  describe('sign-in', () => {
    it('shows an error for a wrong password and lands on / with the right one', async () => {
      const { page } = await browser.newPage();
      await page.goto(`${web.webUrl}/`);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await page.fill('input[name=email]', editor.email);
      await page.fill('input[name=password]', 'not the password');
      await page.click('button[type=submit]');
      await page.waitForSelector('.error');
      expect(await page.textContent('.error')).toContain('Wrong email or password.');
      await saveScreenshot(page, 'sign-in-page');
      await page.fill('input[name=password]', PASSWORD);
      await Promise.all([page.waitForURL(`${web.webUrl}/`), page.click('button[type=submit]')]);
      expect(await page.textContent('h1')).toBe('Your diagrams');
      expect(await page.isVisible(`a[href="/diagrams/${diagramUuid}"]`)).toBe(true);
      await saveScreenshot(page, 'home-page');
    });

    it('ends the session on sign-out: the cookie no longer opens pages', async () => {
      const page = await signedInPage(editor);
      const cookies = await page.context().cookies();
      await Promise.all([page.waitForURL(/\/sign-in/), page.click('header button:has-text("Sign out")')]);
      // Put the old cookie back: the session behind it is gone, so pages still go to sign-in.
      await page.context().addCookies(cookies);
      await page.goto(`${web.webUrl}/diagrams/${diagramUuid}`);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
    });
  });

  describe('layout at 1400×1000', () => {
    it('should show Apply and Decline without scrolling and scroll a wide migration inside its frame', async () => {
      // A long diff: 40 columns with long names, so the actions would sit far below it.
      const columns = Array.from({ length: 40 }, (_, i) => ({
        name: `a_rather_long_column_name_for_measuring_${i}`,
        type: 'numeric(12,2)',
        comment: 'A comment long enough to make the statement wider than its frame on this page',
      }));
      const proposal = await propose(web, editor, diagramUuid, {
        title: 'Wide table',
        message: 'Many columns.',
        schema: { strategy: 'additive', tables: [{ name: 'measurements_with_a_long_name', columns }] },
      });
      const page = await signedInPage(editor, `/review/${proposal.uuid}`);
      expect(page.viewportSize()).toEqual({ width: 1400, height: 1000 });
      const actions = page.getByRole('region', { name: 'Review actions' });
      for (const name of ['Apply changes', 'Decline']) {
        const box = await actions.getByRole('button', { name }).boundingBox();
        expect(box).not.toBeNull();
        expect(box!.y + box!.height).toBeLessThanOrEqual(1000);
      }
      const frame = await page.locator('pre.migration-sql').evaluate((pre) => ({
        scrollWidth: pre.scrollWidth,
        clientWidth: pre.clientWidth,
        right: pre.getBoundingClientRect().right,
        pageWidth: document.documentElement.scrollWidth,
      }));
      expect(frame.scrollWidth).toBeGreaterThan(frame.clientWidth);
      expect(frame.right).toBeLessThanOrEqual(1400);
      expect(frame.pageWidth).toBeLessThanOrEqual(1400);
      await saveScreenshot(page, 'review-page-actions-on-top');
    });
  });

  describe('apply', () => {
    it('shows the diff of a REST proposal, applies it, and lists the new version in History', async () => {
      const proposal = await propose(web, editor, diagramUuid, INVOICES_PROPOSAL);
      expect(proposal.review_url).toBe(`${web.webUrl}/review/${proposal.uuid}`);
      const page = await signedInPage(editor, new URL(proposal.review_url).pathname);
      expect(page.url()).toBe(proposal.review_url);

      const changes = await page.textContent('.changes-section');
      expect(changes).toContain('invoices');
      expect(changes).toContain('total_amount');
      expect(changes).toContain('orders.shipping_status');
      expect(await page.textContent('#proposal-message')).toBe(INVOICES_PROPOSAL.message);
      expect(await page.textContent('#diagram svg')).toContain('invoices');
      await saveScreenshot(page, 'review-page');

      await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Apply changes")')]);
      await page.waitForSelector('#state-note');
      expect(await page.textContent('h1')).toContain('applied');
      // After the decision the page still shows what changed, the highlighted diagram and who applied it.
      expect(await page.textContent('#decided-by')).toBe('Edith Editor');
      const appliedChanges = await page.textContent('.changes-section');
      expect(appliedChanges).toContain('invoices');
      expect(appliedChanges).toContain('orders.shipping_status');
      expect(await page.locator('#diagram svg g.dss-table.dss-added[data-table="invoices"]').count()).toBe(1);
      await saveScreenshot(page, 'review-page-applied');

      const status = await proposalStatus(proposal.uuid);
      expect(status.state).toBe('applied');
      expect(status.applied_version_uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(status.opened_at).not.toBeNull();

      // One numbering everywhere: the review page and History show the API's version number.
      const listed = await api(web, editor.token, 'GET', `/diagrams/${diagramUuid}/versions`);
      const versions = listed.body.data as unknown as { number: number; proposal_uuid: string | null }[];
      const appliedNumber = versions.find((entry) => entry.proposal_uuid === proposal.uuid)?.number;
      expect(appliedNumber).toBeGreaterThan(1);
      expect(await page.textContent('#state-note')).toContain(`version ${appliedNumber}`);

      await page.goto(`${web.webUrl}/diagrams/${diagramUuid}`);
      const version = page.locator(`#version-${status.applied_version_uuid}`);
      expect(await version.count()).toBe(1);
      expect(await version.locator('.version-number').textContent()).toBe(`Version ${appliedNumber}`);
      expect(await page.locator('.history .versions .version-number').allTextContents()).toEqual(
        versions.map((entry) => `Version ${entry.number}`),
      );
      expect(await version.textContent()).toContain('Edith Editor');
      expect(await version.textContent()).toContain(`“${INVOICES_PROPOSAL.title}”`);
      expect(await page.textContent('#diagram svg')).toContain('total_amount');
      await saveScreenshot(page, 'diagram-page');
    });
  });

  describe('migration', () => {
    it('shows the migration SQL with its warnings beside the diff, and Copy SQL puts it on the clipboard', async () => {
      const proposal = await propose(web, editor, diagramUuid, {
        title: 'Rename and drop',
        message: 'Tidy the orders table.',
        schema: {
          strategy: 'merge',
          tables: [{ name: 'orders', columns: [{ name: 'placed_at', old_name: 'id', type: 'bigint' }] }],
          deletions: { tables: ['customers'] },
        },
      });
      const page = await signedInPage(editor, new URL(proposal.review_url).pathname);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.webUrl });
      const sql = (await page.textContent('#migration-sql')) ?? '';
      expect(sql).toContain('RENAME COLUMN');
      expect(sql).toContain('DROP TABLE');
      const warnings = await page.locator('#migration-warnings li').allTextContents();
      expect(warnings.some((text) => text.startsWith('drops_table'))).toBe(true);
      // Beside the diff on a wide screen: the two sections side by side, their tops level.
      const diffBox = await page.locator('.changes-section').boundingBox();
      const migrationBox = await page.locator('#migration').boundingBox();
      expect(migrationBox!.x).toBeGreaterThan(diffBox!.x + diffBox!.width - 1);
      expect(Math.abs(migrationBox!.y - diffBox!.y)).toBeLessThan(2);
      await page.click('#copy-migration');
      await page.waitForFunction(() => document.getElementById('copy-migration')?.textContent === 'Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sql);
      await saveScreenshot(page, 'review-page-migration');
    });
  });

  describe('focus', () => {
    it('opens a large diagram closed in on the change: the changed table centred, at actual size, closer than Fit', async () => {
      const tables = Array.from({ length: 40 }, (_, at) => ({
        name: `t${String(at).padStart(2, '0')}`,
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'label', type: 'varchar(40)' },
        ],
      }));
      const large = await createDiagram(web, editor, { strategy: 'merge', tables }, 'Large');
      const proposal = await propose(web, editor, large, {
        title: 'One column',
        message: 'A column on t27.',
        schema: {
          strategy: 'merge',
          tables: [{ name: 't27', columns: [{ name: 'added_at', type: 'timestamp' }] }],
        },
      });
      const page = await signedInPage(editor, new URL(proposal.review_url).pathname);
      await page.waitForSelector('figure#diagram[data-viewport=ready]');
      const measure = () =>
        page.evaluate(() => {
          const figure = document.getElementById('diagram')!.getBoundingClientRect();
          const table = document
            .querySelector('g.dss-table[data-table="t27"] rect.dss-box')!
            .getBoundingClientRect();
          return {
            zoom: Number(document.getElementById('diagram')!.dataset['zoom']),
            offX: Math.abs(table.left + table.width / 2 - (figure.left + figure.width / 2)) / figure.width,
            offY: Math.abs(table.top + table.height / 2 - (figure.top + figure.height / 2)) / figure.height,
            inside:
              table.left >= figure.left &&
              table.right <= figure.right &&
              table.top >= figure.top &&
              table.bottom <= figure.bottom,
          };
        });
      const focused = await measure();
      await saveScreenshot(page, 'review-page-focused');
      await page.click('button[data-zoom-action=fit]');
      const fitted = await measure();
      expect(focused.inside).toBe(true);
      expect(focused.offX).toBeLessThan(0.1);
      expect(focused.offY).toBeLessThan(0.1);
      // Closer than the whole-diagram fit, up to actual size (where column text is 12 px high).
      expect(focused.zoom).toBeGreaterThan(fitted.zoom);
      expect(focused.zoom).toBe(100);
    });
  });

  describe('decline', () => {
    it('declines with a reason, which the REST status then shows', async () => {
      const proposal = await propose(web, editor, diagramUuid, {
        ...INVOICES_PROPOSAL,
        title: 'Add refunds',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'refunds', columns: [{ name: 'id', type: 'bigint' }] }],
        },
      });
      const page = await signedInPage(editor, `/review/${proposal.uuid}`);
      await page.fill('textarea[name=reason]', 'Refunds live in the payments service.');
      await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Decline")')]);
      await page.waitForSelector('#decline-reason');
      expect(await page.textContent('#decline-reason')).toBe('Refunds live in the payments service.');
      expect(await page.textContent('#decided-by')).toBe('Edith Editor');
      const status = await proposalStatus(proposal.uuid);
      expect(status.state).toBe('declined');
      expect(status.decline_reason).toBe('Refunds live in the payments service.');
    });
  });

  describe('viewer', () => {
    it('sees the diff without the Apply and Decline buttons, and a post by the viewer is refused', async () => {
      const proposal = await propose(web, editor, diagramUuid, {
        ...INVOICES_PROPOSAL,
        title: 'Add payments',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'payments', columns: [{ name: 'paid_at', type: 'timestamp' }] }],
        },
      });
      const page = await signedInPage(viewer, `/review/${proposal.uuid}`);
      expect(await page.textContent('.changes-section')).toContain('paid_at');
      expect(await page.locator('button:has-text("Apply changes")').count()).toBe(0);
      expect(await page.locator('button:has-text("Decline")').count()).toBe(0);
      expect(await page.locator('form[action$="/apply"]').count()).toBe(0);

      const csrf = await page.inputValue('header input[name=_csrf]');
      const refused = await page.request.post(`${web.webUrl}/review/${proposal.uuid}/apply`, {
        form: { _csrf: csrf },
        headers: { origin: web.webUrl },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect((await proposalStatus(proposal.uuid)).state).toBe('pending');
    });
  });

  describe('a proposal whose base version moved', () => {
    it('says which entity changed since and offers nothing to apply; a forged apply is refused with the same reason', async () => {
      const diagram = await createDiagram(web, editor, twoTableShopPatch(), 'Stale review');
      const stale = await propose(web, editor, diagram, {
        title: 'Longer emails',
        message: 'Some are long.',
        schema: {
          strategy: 'merge',
          tables: [{ name: 'customers', columns: [{ name: 'email', type: 'varchar(320)' }] }],
        },
      });
      const rename = await propose(web, editor, diagram, {
        title: 'Rename email',
        message: 'It is a contact.',
        schema: {
          strategy: 'merge',
          tables: [
            { name: 'customers', columns: [{ name: 'contact', old_name: 'email', type: 'varchar(255)' }] },
          ],
        },
      });
      const page = await signedInPage(editor, `/review/${rename.uuid}`);
      await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Apply changes")')]);
      await page.waitForSelector('#state-note');

      await page.goto(`${web.webUrl}/review/${stale.uuid}`);
      const reason = 'column customers.email was renamed to contact after the patch was made';
      expect(await page.textContent('#conflicts')).toContain(reason);
      expect(await page.locator('button:has-text("Apply changes")').count()).toBe(0);
      expect(await page.locator('form[action$="/apply"]').count()).toBe(0);
      await saveScreenshot(page, 'review-page-conflict');

      const csrf = await page.inputValue('header input[name=_csrf]');
      const refused = await page.request.post(`${web.webUrl}/review/${stale.uuid}/apply`, {
        form: { _csrf: csrf },
        headers: { origin: web.webUrl },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(409);
      expect(await refused.text()).toContain(reason);
      expect((await proposalStatus(stale.uuid)).state).toBe('pending');
    });
  });

  describe('reopen', () => {
    it('reopens an expired proposal from the History pane: pending again with a new expiry', async () => {
      const proposal = await propose(web, editor, diagramUuid, {
        ...INVOICES_PROPOSAL,
        title: 'Add coupons',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'coupons', columns: [{ name: 'code', type: 'text' }] }],
        },
      });
      await expireInDatabase(web, proposal.uuid);
      expect((await proposalStatus(proposal.uuid)).state).toBe('expired');

      const page = await signedInPage(editor, `/diagrams/${diagramUuid}`);
      const entry = page.locator(`li[data-proposal="${proposal.uuid}"]`);
      expect(await entry.textContent()).toContain('expired');
      await Promise.all([page.waitForLoadState('load'), entry.locator('button:has-text("Reopen")').click()]);
      expect(new URL(page.url()).pathname).toBe(`/review/${proposal.uuid}`);

      const status = await proposalStatus(proposal.uuid);
      expect(status.state).toBe('pending');
      expect(Date.parse(status.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
      expect(await page.locator('button:has-text("Apply changes")').count()).toBe(1);
    });
  });

  it('met no Content Security Policy violation on any page it opened (no inline script or style)', () => {
    expect(browser.cspViolations).toEqual([]);
  });
});

/** Acceptable inside a test only: moves a proposal's expiry into the past in its own table. */
async function expireInDatabase(web: WebTestSystem, uuid: string): Promise<void> {
  const client = new Client({ connectionString: web.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `UPDATE proposals.proposals SET expires_at = now() - interval '1 minute' WHERE uuid = $1`,
      [uuid],
    );
  } finally {
    await client.end();
  }
}
