// Walking a diagram's history in the browser: open an old version read-only, label it, compare two
// versions (the migration SQL the page shows is loaded into the real PostgreSQL and MariaDB and gives the
// later version's catalog), restore an old version, and download every export format of a version.
import { twoTableShopPatch } from '@dss/system';
import { inflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import {
  type ScratchDatabase,
  type Shape,
  scratchMariadb,
  scratchPostgres,
  withoutImplicit,
} from '../../../../packages/sql/test/real-db';
import { readWithMermaid } from '../../../../packages/sql/test/mermaid-in-browser';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createPerson, propose, type WebTestSystem } from '../support/web-system';
import type { TestMember } from '@dss/system';

const ADD_INVOICES = {
  title: 'Add invoices',
  message: 'Invoices for orders.',
  schema: {
    strategy: 'merge',
    tables: [
      {
        name: 'invoices',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'order_id', type: 'bigint' },
        ],
      },
      { name: 'customers', columns: [{ name: 'name', type: 'varchar(120)', is_nullable: true }] },
    ],
    relationships: [
      {
        type: 'many-to-one',
        source_table: 'invoices',
        source_column: 'order_id',
        target_table: 'orders',
        target_column: 'id',
      },
    ],
    deletions: { columns: [{ table: 'customers', columns: ['email'] }] },
  },
};

describe('History you can walk (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let editor: TestMember;
  let viewer: TestMember;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('history');
    editor = await createPerson(web, 'history', 'editor', 'Hedda Editor');
    viewer = await createPerson(web, 'history', 'viewer', 'Vera Viewer');
  });

  /** A diagram of the driver with version 2 made by applying ADD_INVOICES on its review page. */
  let made = 0;
  async function twoVersions(driver: 'pgsql' | 'mysql'): Promise<{ uuid: string; page: Page }> {
    made += 1;
    const created = await api(web, editor.token, 'POST', '/diagrams', {
      name: `Shop ${driver} ${made}`,
      driver,
      schema: twoTableShopPatch(),
    });
    const uuid = created.body.data!.uuid as string;
    const proposal = await propose(web, editor, uuid, ADD_INVOICES);
    const page = await suite.signedInPage(editor, `/review/${proposal.uuid}`);
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Apply changes' }).click(),
    ]);
    await page.waitForSelector('#state-note');
    return { uuid, page };
  }

  const download = async (page: Page, uuid: string, format: string, version: number) => {
    const response = await page.request.get(
      `${web.webUrl}/diagrams/${uuid}/export/${format}?version=${version}`,
    );
    expect(response.status()).toBe(200);
    return { body: await response.body(), disposition: response.headers()['content-disposition'] ?? '' };
  };

  async function migrationLoads(driver: 'pgsql' | 'mysql', open: () => Promise<ScratchDatabase>) {
    const { uuid, page } = await twoVersions(driver);
    await page.goto(`${web.webUrl}/diagrams/${uuid}`);
    const history = page.getByRole('complementary', { name: 'History' });
    await history.getByLabel('From').selectOption('1');
    await history.getByLabel('To').selectOption('2');
    await Promise.all([
      page.waitForLoadState('load'),
      history.getByRole('button', { name: 'Compare versions' }).click(),
    ]);
    expect(new URL(page.url()).search).toBe('?from=1&to=2');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Compare versions');
    expect(await page.textContent('.changes-section')).toContain('invoices');
    expect(await page.locator('#diagram svg g.dss-table.dss-added[data-table="invoices"]').count()).toBe(1);
    // Dropping customers.email loses data: the page warns of it above the SQL.
    expect(await page.textContent('#migration-warnings')).toContain('email');
    const migration = (await page.textContent('#migration-sql')) ?? '';
    if (driver === 'pgsql') await saveScreenshot(page, 'version-compare');

    const migrated = await open();
    const fresh = await open();
    try {
      await migrated.run((await download(page, uuid, 'sql', 1)).body.toString('utf8'));
      await migrated.run(migration);
      await fresh.run((await download(page, uuid, 'sql', 2)).body.toString('utf8'));
      const shape = await migrated.shape();
      expect(Object.keys(shape.tables).sort()).toEqual(['customers', 'invoices', 'orders']);
      // MariaDB names the index of a key added later after the key: such implicit indexes are left out.
      const explicit = (found: Shape) => withoutImplicit(found, { tables: {}, foreignKeys: [] });
      expect(explicit(shape)).toEqual(explicit(await fresh.shape()));
    } finally {
      await migrated.drop();
      await fresh.drop();
    }
  }

  it('should compare versions 1 and 2 with migration SQL that turns version 1 into version 2 in PostgreSQL', () =>
    migrationLoads('pgsql', scratchPostgres));

  it('should compare versions 1 and 2 with migration SQL that turns version 1 into version 2 in MariaDB', () =>
    migrationLoads('mysql', scratchMariadb));

  it('should open version 1 read-only, label it, and restore it as a new version that says so', async () => {
    const { uuid, page } = await twoVersions('pgsql');
    await page.goto(`${web.webUrl}/diagrams/${uuid}`);
    const history = page.getByRole('complementary', { name: 'History' });
    await Promise.all([
      page.waitForLoadState('load'),
      history.getByRole('link', { name: 'Version 1', exact: true }).click(),
    ]);
    expect(new URL(page.url()).pathname).toBe(`/diagrams/${uuid}/versions/1`);
    const banner = page.getByRole('status');
    expect(await banner.textContent()).toContain('You are looking at Version 1 of 2');
    expect(await page.locator('#diagram svg g.dss-table[data-table="invoices"]').count()).toBe(0);
    expect(await page.locator('#diagram svg g.dss-table[data-table="customers"]').count()).toBe(1);

    await page.getByLabel('Version label').fill('before invoices');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Save label' }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toContain('Version 1 “before invoices”');
    await saveScreenshot(page, 'version-opened');

    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Restore version 1' }).click(),
    ]);
    expect(new URL(page.url()).pathname).toBe(`/diagrams/${uuid}`);
    const newest = page.locator('ol.versions li').first();
    expect(await newest.getAttribute('data-number')).toBe('3');
    expect(await newest.textContent()).toContain('restored version 1');
    expect(await newest.textContent()).toContain('Hedda Editor');
    expect(await page.locator('ol.versions li[data-number="1"] .version-label').textContent()).toBe(
      'before invoices',
    );

    const schema = await api(web, editor.token, 'GET', `/diagrams/${uuid}/schema`);
    const tables = (schema.body.data as { tables: { name: string }[] }).tables.map((table) => table.name);
    expect(tables.sort()).toEqual(['customers', 'orders']);
    const versions = await api(web, editor.token, 'GET', `/diagrams/${uuid}/versions`);
    expect((versions.body.data as unknown as { number: number; source: string }[])[0]).toMatchObject({
      number: 3,
      source: 'restore',
    });
  });

  it('should not let a viewer restore or label (no buttons; a forged post is refused)', async () => {
    const { uuid } = await twoVersions('pgsql');
    const page = await suite.signedInPage(viewer, `/diagrams/${uuid}/versions/1`);
    expect(await page.getByRole('button', { name: 'Restore version 1' }).count()).toBe(0);
    expect(await page.getByLabel('Version label').count()).toBe(0);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const refused = await page.request.post(`${web.webUrl}/diagrams/${uuid}/versions/1/restore`, {
      form: { _csrf: csrf ?? '' },
    });
    expect(refused.status()).toBe(403);
  });

  it('should download every export of a version with a file name naming the diagram and version', async () => {
    const { uuid, page } = await twoVersions('pgsql');
    await page.goto(`${web.webUrl}/diagrams/${uuid}/versions/1`);
    await page.getByText('Export', { exact: true }).click();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'DBML' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`shop-pgsql-${made}-v1.dbml`);

    const sql = await download(page, uuid, 'sql', 2);
    expect(sql.disposition).toContain(`filename="shop-pgsql-${made}-v2.sql"`);
    const database = await scratchPostgres();
    try {
      await database.run(sql.body.toString('utf8'));
      expect(Object.keys((await database.shape()).tables).sort()).toEqual([
        'customers',
        'invoices',
        'orders',
      ]);
    } finally {
      await database.drop();
    }
    const mermaid = (await download(page, uuid, 'mermaid', 2)).body.toString('utf8');
    expect(mermaid.startsWith('erDiagram')).toBe(true);
    // Opened by Mermaid itself: one entity per table, one line per relationship (invoices → orders).
    const reader = await page.context().newPage();
    const read = await readWithMermaid(reader, mermaid);
    await reader.close();
    expect({ entities: read.entities, lines: read.lines }).toEqual({ entities: 3, lines: 1 });
    const svg = (await download(page, uuid, 'svg', 2)).body.toString('utf8');
    expect(svg).toMatch(/^<svg[^>]* width="\d+" height="\d+"/);
    const png = await download(page, uuid, 'png', 2);
    expect(png.disposition).toContain(`filename="shop-pgsql-${made}-v2.png"`);
    const size = pngSize(png.body);
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(50);
  });
});

/** Width and height from a PNG's IHDR, after checking the signature and that its image data inflates. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    if (type === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  expect(inflateSync(Buffer.concat(chunks)).length).toBeGreaterThan(0);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
