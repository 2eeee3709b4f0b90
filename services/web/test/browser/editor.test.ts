/// <reference lib="dom" />
// The editor, driven as a person drives it, through roles and accessible names only: a new empty diagram,
// two tables with columns of several types, a relationship undone and redone, a column renamed, a table
// deleted; the API then serves exactly that schema and its SQL loads into the real database. Refused
// edits show the engine's message and store nothing; a viewer gets no controls and a forged save is 403.
import type { TestMember } from '@dss/system';
import type { Page } from 'playwright-core';
import { scratchMariadb, scratchPostgres } from '../../../../packages/sql/test/real-db';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, type WebTestSystem } from '../support/web-system';

interface SchemaTable {
  name: string;
  columns: {
    name: string;
    driver_data_type_name: string;
    driver_data_type_params: Record<string, unknown> | null;
    is_nullable: boolean;
    is_primary_key: boolean;
  }[];
}
interface Schema {
  tables: SchemaTable[];
  relationships: {
    source_table: string;
    source_column: string;
    target_table: string;
    target_column: string;
    type: string;
  }[];
}

describe('the editor (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let owner: TestMember;
  let viewer: TestMember;
  let outsider: TestMember;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('editing');
    await web.people.team('elsewhere');
    owner = await createPerson(web, 'editing', 'owner', 'Olga Owner');
    viewer = await createPerson(web, 'editing', 'viewer', 'Vic Viewer');
    outsider = await createPerson(web, 'elsewhere', 'owner', 'Otto Outsider');
  });

  const schemaOf = async (uuid: string) =>
    (await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema`)).body.data as unknown as Schema;

  async function newDiagram(page: Page, name: string, database: string): Promise<string> {
    await page.getByRole('link', { name: 'New diagram' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('combobox', { name: 'Database' }).selectOption({ label: database });
    await page.getByRole('radio', { name: 'Empty' }).check();
    await Promise.all([
      page.waitForURL(/\/edit$/),
      page.getByRole('button', { name: 'Create diagram' }).click(),
    ]);
    await page.getByRole('button', { name: 'Add table' }).waitFor();
    return page.url().split('/').at(-2)!;
  }

  async function addTable(page: Page, name: string) {
    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('textbox', { name: 'Table name' }).fill(name);
    await page.getByRole('button', { name: 'Save table' }).click();
    await page.getByRole('heading', { name: `Table ${name}` }).waitFor();
  }

  async function addColumn(
    page: Page,
    column: {
      name: string;
      type: string;
      length?: string;
      precision?: string;
      scale?: string;
      nullable?: boolean;
      unsigned?: boolean;
      /** The engine is expected to refuse it (its message stays in the form). */
      refused?: boolean;
    },
  ) {
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByRole('textbox', { name: 'Column name' }).fill(column.name);
    await page.getByRole('combobox', { name: 'Type' }).selectOption(column.type);
    if (column.length) await page.getByRole('textbox', { name: 'Length' }).fill(column.length);
    if (column.precision) await page.getByRole('textbox', { name: 'Precision' }).fill(column.precision);
    if (column.scale) await page.getByRole('textbox', { name: 'Scale' }).fill(column.scale);
    if (column.unsigned) await page.getByRole('checkbox', { name: 'Unsigned' }).check();
    await page.getByRole('checkbox', { name: 'Nullable' }).setChecked(column.nullable ?? true);
    await page.getByRole('button', { name: 'Save column' }).click();
    // Saved: the form gives way to the table panel; refused: the engine's message stays in the form.
    await page.getByRole('button', { name: 'Add column' }).or(page.getByRole('alert')).first().waitFor();
    if (!column.refused && (await page.getByRole('alert').count()) > 0)
      throw new Error(`column ${column.name} was refused: ${await page.getByRole('alert').textContent()}`);
  }

  async function addRelationship(page: Page, from: string, to: string) {
    await page.getByRole('button', { name: 'Add relationship' }).click();
    await page.getByRole('combobox', { name: 'From column' }).fill(from);
    await page.getByRole('combobox', { name: 'To column' }).fill(to);
    await page.getByRole('button', { name: 'Save relationship' }).click();
  }

  /** Waits for "Saved"; when it does not come, the failure names what the status said instead. */
  async function saved(page: Page) {
    try {
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .waitFor();
    } catch (error) {
      const said = await page.getByRole('status').allTextContents();
      throw new Error(`the editor did not say "Saved" within 40 s; its status said ${JSON.stringify(said)}`, {
        cause: error,
      });
    }
  }

  async function buildLibrary(
    page: Page,
    types: { text: string; textLength?: string; whole: string; money: string; unsignedKeys?: boolean },
    shots: boolean,
  ) {
    if (shots) await saveScreenshot(page, 'editor-empty-diagram');
    await addTable(page, 'authors');
    await addColumn(page, { name: 'name', type: types.text, length: types.textLength, nullable: false });
    await addColumn(page, { name: 'born', type: 'date' });
    await addTable(page, 'books');
    await addColumn(page, { name: 'title', type: types.text, length: types.textLength, nullable: false });
    await addColumn(page, { name: 'price', type: types.money, precision: '8', scale: '2' });
    // MySQL's new tables get `bigint unsigned` keys; a foreign key must match that exactly.
    await addColumn(page, {
      name: 'author_id',
      type: types.whole,
      nullable: false,
      unsigned: types.unsignedKeys,
    });
    if (shots) {
      await page.getByRole('button', { name: 'Edit column price' }).click();
      await saveScreenshot(page, 'editor-table-being-edited');
      await page.getByRole('button', { name: 'Cancel' }).click();
    }
    await addRelationship(page, 'books.author_id', 'authors.id');
    if (shots) await saveScreenshot(page, 'editor-relationship-drawn');
    const relationship = page.getByRole('button', {
      name: 'Delete relationship books.author_id → authors.id',
    });
    await relationship.waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await relationship.waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+Z');
    await relationship.waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open table books' }).click();
    await page.getByRole('button', { name: 'Edit column title' }).click();
    await page.getByRole('textbox', { name: 'Column name' }).fill('book_title');
    await page.getByRole('button', { name: 'Save column' }).click();
    await addTable(page, 'scratch');
    await page.getByRole('button', { name: 'Delete table' }).click();
    await page.getByRole('button', { name: 'Open table scratch' }).waitFor({ state: 'detached' });
    await saved(page);
  }

  function expectLibrary(schema: Schema, types: { text: string; whole: string; money: string }) {
    expect(schema.tables.map((table) => table.name)).toEqual(['authors', 'books']);
    const books = schema.tables.find((table) => table.name === 'books')!;
    expect(
      books.columns.map((column) => [column.name, column.driver_data_type_name, column.is_nullable]),
    ).toEqual([
      ['id', expect.any(String), false],
      ['book_title', types.text, false],
      ['price', types.money, true],
      ['author_id', types.whole, false],
    ]);
    expect(books.columns[2]!.driver_data_type_params).toMatchObject({ precision: 8, scale: 2 });
    expect(schema.tables[0]!.columns.map((column) => column.name)).toEqual(['id', 'name', 'born']);
    expect(
      schema.relationships.map((r) => [
        r.source_table,
        r.source_column,
        r.target_table,
        r.target_column,
        r.type,
      ]),
    ).toEqual([['books', 'author_id', 'authors', 'id', 'many-to-one']]);
  }

  async function exportedSql(uuid: string): Promise<string> {
    const response = await fetch(`${web.apiUrl}/diagrams/${uuid}/export?format=sql`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  it('When a person builds a PostgreSQL diagram by hand, then /schema and the exported SQL (loaded into PostgreSQL) hold exactly that', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Library', 'PostgreSQL');
    await buildLibrary(
      page,
      { text: 'character varying', textLength: '120', whole: 'bigint', money: 'numeric' },
      true,
    );
    expectLibrary(await schemaOf(uuid), { text: 'character varying', whole: 'bigint', money: 'numeric' });
    const database = await scratchPostgres();
    try {
      await database.run(await exportedSql(uuid));
      const shape = await database.shape();
      expect(Object.keys(shape.tables).sort()).toEqual(['authors', 'books']);
      expect(shape.foreignKeys).toHaveLength(1);
      expect(shape.foreignKeys[0]).toContain('author_id');
    } finally {
      await database.drop();
    }
    const versions = await api(web, owner.token, 'GET', `/diagrams/${uuid}/versions`);
    expect(JSON.stringify(versions.body)).toContain('editor');
  });

  it("When the editor opens a diagram, then its first drawing is the server's drawing sent with the page, and without it the routing sent with the page is the one drawn", async () => {
    const table = (name: string, references: string[] = []) => ({
      name,
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        ...references.map((other) => ({ name: `${other}_id`, type: 'bigint' })),
      ],
    });
    const uuid = await createDiagram(
      web,
      owner,
      {
        strategy: 'merge',
        tables: [
          table('customers'),
          table('orders', ['customers']),
          table('invoices', ['orders', 'customers']),
          table('payments', ['invoices']),
        ],
        relationships: [
          ['orders', 'customers'],
          ['invoices', 'orders'],
          ['invoices', 'customers'],
          ['payments', 'invoices'],
        ].map(([source, target]) => ({
          type: 'many-to-one',
          source_table: source,
          source_column: `${target}_id`,
          target_table: target,
          target_column: 'id',
        })),
      },
      'Routed shop',
    );
    /** Every line's path data in the drawing inside `scope`, by relationship uuid. */
    const linesIn = (page: Page, scope: string) =>
      page.evaluate(
        (selector) =>
          Object.fromEntries(
            Array.from(
              document.querySelectorAll<SVGGElement>(`${selector} g.dss-relationship[data-relationship]`),
            ).map((group) => [
              group.dataset['relationship'] ?? '',
              group.querySelector('path.dss-line')?.getAttribute('d') ?? '',
            ]),
          ),
        scope,
      );
    const page = await suite.signedInPage(owner, `/diagrams/${uuid}`);
    await page.locator('figure.diagram svg g.dss-relationship').first().waitFor();
    const served = await linesIn(page, 'figure.diagram');
    expect(Object.keys(served)).toHaveLength(4);

    await page.goto(`${web.webUrl}/diagrams/${uuid}/edit`);
    await page.locator('#editor-canvas svg g.dss-relationship').first().waitFor();
    expect(await linesIn(page, '#editor-canvas')).toEqual(served);

    // The drawing the page carries, with one line's path changed: the first drawing is that node, adopted.
    const [changed] = Object.keys(served);
    await page.route(`**/diagrams/${uuid}/edit`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(
        new RegExp(`(data-relationship="${changed}"[^]*?<path class="dss-line" d=")[^"]*(")`),
        (_all, before: string, after: string) => `${before}M 1 1 L 2 2${after}`,
      );
      await route.fulfill({ response, body });
    });
    await page.reload();
    await page.locator('#editor-canvas svg g.dss-relationship').first().waitFor();
    const adopted = await linesIn(page, '#editor-canvas');
    expect(adopted[changed!]).toBe('M 1 1 L 2 2');
    for (const [line, d] of Object.entries(served)) if (line !== changed) expect(adopted[line]).toEqual(d);
    await page.unrouteAll();

    // Without that drawing, the routing the page carries, with one line's middle run moved 30 px: the first
    // drawing draws it so.
    let moved = '';
    await page.route(`**/diagrams/${uuid}/edit`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text())
        .replace(/<template id="editor-drawing">.*?<\/template>/s, '')
        .replace(
          /(<script type="application\/json" id="editor-routes">)(.*?)(<\/script>)/s,
          (_all, open: string, json: string, close: string) => {
            const seed = JSON.parse(json) as { routes: [string, string, number[]][] };
            const line = seed.routes.find(([, , points]) => points.length >= 8)!;
            moved = line[0];
            const points = line[2];
            // x of the inner points (not the two ends on the tables' edges).
            for (let at = 2; at < points.length - 2; at += 2) points[at]! += 30;
            return `${open}${JSON.stringify(seed).replace(/</g, '\\u003c')}${close}`;
          },
        );
      await route.fulfill({ response, body });
    });
    await page.reload();
    await page.locator('#editor-canvas svg g.dss-relationship').first().waitFor();
    const drawn = await linesIn(page, '#editor-canvas');
    expect(moved).not.toBe('');
    expect(drawn[moved]).not.toEqual(served[moved]);
    for (const [line, d] of Object.entries(served)) if (line !== moved) expect(drawn[line]).toEqual(d);
    await page.context().close();
  });

  it('When the answer to a save arrives while a person fills in a column, then what they typed stays in the form', async () => {
    const page = await suite.signedInPage(owner, '/');
    await newDiagram(page, 'Typing during a save', 'PostgreSQL');
    // The new table's save goes out after the debounce and comes back with the server's own uuids, while
    // the column form is already being filled in.
    await addTable(page, 'members');
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByRole('textbox', { name: 'Column name' }).fill('nickname');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('character varying');
    await page.getByRole('textbox', { name: 'Length' }).fill('40');
    await saved(page);
    expect(await page.getByRole('textbox', { name: 'Column name' }).inputValue()).toBe('nickname');
    expect(await page.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('character varying');
    expect(await page.getByRole('textbox', { name: 'Length' }).inputValue()).toBe('40');
    await page.getByRole('button', { name: 'Save column' }).click();
    await page.getByRole('button', { name: 'Add column' }).waitFor();
    await saved(page);
  });

  it('When a person builds a MySQL diagram by hand, then its exported SQL loads into MariaDB', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Library (MySQL)', 'MySQL');
    await buildLibrary(
      page,
      { text: 'varchar', textLength: '120', whole: 'bigint', money: 'decimal', unsignedKeys: true },
      false,
    );
    expectLibrary(await schemaOf(uuid), { text: 'varchar', whole: 'bigint', money: 'decimal' });
    const database = await scratchMariadb();
    try {
      await database.run(await exportedSql(uuid));
      const shape = await database.shape();
      expect(Object.keys(shape.tables).sort()).toEqual(['authors', 'books']);
      expect(shape.foreignKeys).toHaveLength(1);
    } finally {
      await database.drop();
    }
  });

  it('When an edit is refused by the patch engine, then its message is shown where it was made and nothing is stored', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Refusals', 'PostgreSQL');
    await addTable(page, 'people');
    await saved(page);
    const before = await schemaOf(uuid);

    await addColumn(page, { name: 'id', type: 'integer', refused: true });
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/id/);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await addColumn(page, { name: 'nick', type: 'character varying', length: '99999999', refused: true });
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/length|10485760/i);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await addRelationship(page, 'people.id', 'people.missing');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/missing/);
    await saveScreenshot(page, 'editor-refused-relationship');

    expect(await page.getByRole('status').textContent()).toBe('Saved');
    expect(await schemaOf(uuid)).toEqual(before);
  });

  it('When a viewer opens the editor, then it is read-only and a forged save answers 403 and changes nothing; another team gets 404', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Guarded', 'PostgreSQL');
    await addTable(page, 'secrets');
    await saved(page);
    const before = await schemaOf(uuid);

    const viewing = await suite.signedInPage(viewer, `/diagrams/${uuid}/edit`);
    await viewing.getByRole('region', { name: 'Diagram' }).waitFor();
    expect(await viewing.getByRole('button', { name: 'Add table' }).count()).toBe(0);
    expect(await viewing.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    const forged = await viewing.evaluate(async (diagram) => {
      const root = document.getElementById('editor')!;
      const response = await fetch(`/diagrams/${diagram}/edits`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': root.dataset.csrf ?? '' },
        body: JSON.stringify({
          base_version_uuid: root.dataset.version,
          patch: { strategy: 'merge', deletions: { tables: ['secrets'] } },
        }),
      });
      return response.status;
    }, uuid);
    expect(forged).toBe(403);
    expect(await schemaOf(uuid)).toEqual(before);

    const outside = await suite.signedInPage(outsider, `/diagrams/${uuid}/edit`);
    expect(await outside.getByRole('heading', { name: 'Not found' }).count()).toBe(1);
  });

  it('When two pages change the same table, then the later one reports the conflict, keeps its edit on screen and overwrites nothing', async () => {
    const first = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(first, 'Contested', 'PostgreSQL');
    await addTable(first, 'customers');
    await saved(first);
    const second = await suite.signedInPage(owner, `/diagrams/${uuid}/edit`);
    await second.getByRole('button', { name: 'Open table customers' }).click();

    // Offline, the second page does not hear of the first one's rename (editor-live.test.ts: live).
    await second.context().setOffline(true);
    await first.getByRole('textbox', { name: 'Table name' }).fill('clients');
    await first.getByRole('button', { name: 'Save table' }).click();
    await saved(first);
    await second.getByRole('textbox', { name: 'Table name' }).fill('patrons');
    await second.getByRole('button', { name: 'Save table' }).click();
    await second.context().setOffline(false);

    const conflict = second.getByRole('alert').filter({ hasText: 'Someone else changed this diagram' });
    await conflict.waitFor();
    // The engine names the entity both changed.
    expect(await conflict.textContent()).toContain('customers');
    expect(await second.getByRole('status').textContent()).toMatch(/conflict/i);
    await second.getByRole('heading', { name: 'Table patrons' }).waitFor();
    await saveScreenshot(second, 'editor-conflict');
    expect((await schemaOf(uuid)).tables.map((table) => table.name)).toEqual(['clients']);
  });

  it('When keys are pressed on the canvas, then ? lists the shortcuts, Escape closes them, arrows nudge and Delete removes the selection', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Keys', 'MySQL');
    await addTable(page, 'temporary');
    await saved(page);
    await page.getByRole('region', { name: 'Diagram' }).focus();
    await page.keyboard.press('?');
    await page.getByRole('region', { name: 'Keyboard shortcuts' }).waitFor();
    expect(await page.getByRole('region', { name: 'Keyboard shortcuts' }).textContent()).toContain('Undo');
    await page.keyboard.press('Escape');
    await page.getByRole('region', { name: 'Keyboard shortcuts' }).waitFor({ state: 'detached' });
    const position = async () => {
      const full = await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema-full`);
      const tables = (full.body.data as { tables: { left: number }[] } | undefined)?.tables ?? [];
      return tables[0]?.left;
    };
    const left = await position();
    await page.keyboard.press('ArrowRight');
    await saved(page);
    expect(await position()).toBe((left ?? 0) + 10);
    await page.keyboard.press('Delete');
    await saved(page);
    expect((await schemaOf(uuid)).tables).toEqual([]);
    await page.keyboard.press('Control+z');
    await saved(page);
    expect((await schemaOf(uuid)).tables.map((table) => table.name)).toEqual(['temporary']);
  });

  it("When a diagram starts from SQL read from a file, then the editor opens on the imported tables with the import's warnings", async () => {
    const page = await suite.signedInPage(owner, '/');
    await page.getByRole('link', { name: 'New diagram' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Imported');
    await page.getByRole('combobox', { name: 'Database' }).selectOption({ label: 'PostgreSQL' });
    await page.getByLabel('Or read it from a file').setInputFiles({
      name: 'shop.sql',
      mimeType: 'text/plain',
      buffer: Buffer.from('CREATE TABLE shops (id bigint PRIMARY KEY, name text NOT NULL, area geometry);\n'),
    });
    await page.getByRole('status').filter({ hasText: 'Read shop.sql.' }).waitFor();
    expect(await page.getByRole('radio', { name: 'From SQL' }).isChecked()).toBe(true);
    await Promise.all([
      page.waitForURL(/\/edit$/),
      page.getByRole('button', { name: 'Create diagram' }).click(),
    ]);
    await page.getByRole('button', { name: 'Open table shops' }).waitFor();
    expect(await page.getByText(/The SQL import skipped or changed/).count()).toBe(1);
  });

  it('When the connection drops while editing, then the edit is kept, the status says so, and it is saved when the connection returns', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Offline', 'PostgreSQL');
    await page.context().setOffline(true);
    await addTable(page, 'written_offline');
    await page
      .getByRole('status')
      .filter({ hasText: /^Offline/ })
      .waitFor();
    expect(
      await page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('dss-editor:'))),
    ).toBe(true);
    expect((await schemaOf(uuid)).tables).toEqual([]);
    await page.context().setOffline(false);
    await saved(page);
    expect((await schemaOf(uuid)).tables.map((table) => table.name)).toEqual(['written_offline']);
  });

  it('When a tab closes before its edit was sent, then the next page of that diagram sends the kept edit', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Closed tab', 'PostgreSQL');
    await page.context().setOffline(true);
    await addTable(page, 'kept_in_browser');
    await page
      .getByRole('status')
      .filter({ hasText: /^Offline/ })
      .waitFor();
    // The tab closes while still offline, so its edit never left; the same browser profile opens it again.
    const context = page.context();
    await page.close();
    expect((await schemaOf(uuid)).tables).toEqual([]);
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto(`${web.webUrl}/diagrams/${uuid}/edit`);
    await again.getByRole('button', { name: 'Open table kept_in_browser' }).waitFor();
    await saved(again);
    expect((await schemaOf(uuid)).tables.map((table) => table.name)).toEqual(['kept_in_browser']);
  });

  it('When a person makes a group and a sticky note, then they are saved, renamed, joined, changed and deleted as shown', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Grouped', 'PostgreSQL');
    const full = async () =>
      (await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema-full`)).body.data as unknown as {
        tables: { name: string; parent_uuid: string | null }[];
        groups: { uuid: string; name: string }[];
        sticky_notes: { content: string }[];
      };
    await addTable(page, 'invoices');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('textbox', { name: 'Group name' }).fill('billing');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('heading', { name: 'Group billing' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open table invoices' }).click();
    await page.getByRole('combobox', { name: 'Group' }).selectOption('billing');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('textbox', { name: 'Note text' }).fill('Invoices are immutable');
    await page.getByRole('button', { name: 'Save note' }).click();
    await saved(page);
    let stored = await full();
    expect(stored.groups.map((group) => group.name)).toEqual(['billing']);
    expect(stored.tables[0]!.parent_uuid).toBe(stored.groups[0]!.uuid);
    expect(stored.sticky_notes.map((note) => note.content)).toEqual(['Invoices are immutable']);

    await page.getByRole('button', { name: 'Delete note' }).click();
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+y');
    await saved(page);
    stored = await full();
    expect(stored.sticky_notes).toEqual([]);
    expect(stored.groups.map((group) => group.name)).toEqual(['billing']);
  });

  it("When a new note's first save lands while its text is being written, then the text stays in the box and is saved", async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Slow writer', 'PostgreSQL');
    await page.getByRole('button', { name: 'Add note' }).click();
    const text = page.getByRole('textbox', { name: 'Note text' });
    await text.fill('Refunds need');
    // The note's creation is saved meanwhile; the server's copy names the note with a uuid of its own.
    await saved(page);
    expect(await text.inputValue()).toBe('Refunds need');
    await text.press('End');
    await text.pressSequentially(' two approvals');
    await page.getByRole('button', { name: 'Save note' }).click();
    await saved(page);
    const notes = async () =>
      (
        (await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema-full`)).body.data as unknown as {
          sticky_notes: { content: string }[];
        }
      ).sticky_notes.map((note) => note.content);
    // "Saved" can still be on the page from the save before, for the moment until the status is drawn again.
    let stored = await notes();
    for (let tries = 0; tries < 40 && stored[0] !== 'Refunds need two approvals'; tries++) {
      await page.waitForTimeout(250);
      stored = await notes();
    }
    expect(stored).toEqual(['Refunds need two approvals']);
  });

  it('When a person colours a table and a group, then the drawing shows it, it is saved, undo takes it back and a renamed group keeps it', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Coloured', 'PostgreSQL');
    const full = async () =>
      (await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema-full`)).body.data as unknown as {
        tables: { name: string; color: string | null }[];
        groups: { name: string; color: string | null }[];
      };
    const headerFill = () =>
      page.locator('g.dss-table[data-table="ledger"] path.dss-header').getAttribute('fill');
    await addTable(page, 'ledger');
    const defaultFill = await headerFill();
    await page.getByLabel('Table colour').fill('#f97316');
    await saved(page);
    expect(await headerFill()).toBe('#f97316');
    expect((await full()).tables.map((table) => [table.name, table.color])).toEqual([['ledger', '#f97316']]);

    await page.getByRole('button', { name: 'Undo' }).click();
    await saved(page);
    expect(await headerFill()).toBe(defaultFill);
    expect((await full()).tables[0]!.color).toBeNull();
    await page.getByRole('button', { name: 'Redo' }).click();
    await page.getByRole('button', { name: 'Default colour' }).click();
    await saved(page);
    expect((await full()).tables[0]!.color).toBeNull();

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('textbox', { name: 'Group name' }).fill('money');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('heading', { name: 'Group money' }).waitFor();
    await page.getByLabel('Group colour').fill('#22c55e');
    await page.getByRole('textbox', { name: 'Group name' }).fill('finance');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('heading', { name: 'Group finance' }).waitFor();
    await saved(page);
    await saveScreenshot(page, 'editor-colours');
    expect((await full()).groups.map((group) => [group.name, group.color])).toEqual([['finance', '#22c55e']]);
  });

  it('When a person moves a column up, then the drawing, /schema and the exported SQL show the new order, and undo takes it back', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Reordered', 'PostgreSQL');
    await addTable(page, 'people');
    await addColumn(page, { name: 'email', type: 'text' });
    await addColumn(page, { name: 'nickname', type: 'text' });
    await saved(page);
    const drawn = () => page.locator('g.dss-table[data-table="people"] .dss-column-name').allTextContents();
    const stored = async () => (await schemaOf(uuid)).tables[0]!.columns.map((column) => column.name);
    expect(await stored()).toEqual(['id', 'email', 'nickname']);
    expect(await page.getByRole('button', { name: 'Move column id up' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Move column nickname up' }).click();
    await saved(page);
    expect(await drawn()).toEqual(['id', 'nickname', 'email']);
    expect(await stored()).toEqual(['id', 'nickname', 'email']);
    expect(await exportedSql(uuid)).toMatch(/"nickname"[^;]*"email"/s);

    await page.getByRole('button', { name: 'Undo' }).click();
    await saved(page);
    expect(await drawn()).toEqual(['id', 'email', 'nickname']);
    expect(await stored()).toEqual(['id', 'email', 'nickname']);
  });

  it('When a team is on a plan with caps, then the web app holds a person to them as the API holds a token', async () => {
    // The free plan: 10 tables per diagram, 1 private diagram (services/accounts/plans.json).
    await web.people.team('frugal', 'free');
    const saver = await createPerson(web, 'frugal', 'owner', 'Fran Frugal');
    const page = await suite.signedInPage(saver, '/');
    const dbml = Array.from({ length: 10 }, (_, at) => `Table t${at} {\n  id bigint [pk]\n}`).join('\n\n');
    await page.getByRole('link', { name: 'New diagram' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Ten tables');
    await page.getByRole('combobox', { name: 'Database' }).selectOption({ label: 'PostgreSQL' });
    await page.getByRole('radio', { name: 'From DBML' }).check();
    await page.getByRole('textbox', { name: /SQL or DBML/ }).fill(dbml);
    await Promise.all([
      page.waitForURL(/\/edit$/),
      page.getByRole('button', { name: 'Create diagram' }).click(),
    ]);

    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('textbox', { name: 'Table name' }).fill('eleventh');
    await page.getByRole('button', { name: 'Save table' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /plan allows at most 10 tables/ })
      .waitFor();
    const uuid = page.url().split('/').at(-2)!;
    const stored = await fetch(`${web.webUrl}/diagrams/${uuid}/document.json`, {
      headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    const document = ((await stored.json()) as { data: { document: { tables: unknown[] } } }).data.document;
    expect(document.tables).toHaveLength(10);

    await page.goto(`${web.webUrl}/diagrams/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('One too many');
    await page.getByRole('radio', { name: 'Empty' }).check();
    await page.getByRole('button', { name: 'Create diagram' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/at most 1 private diagram/);
  });

  it('When a person drags from a column to a column with the relationship panel open, then the relationship is drawn and saved', async () => {
    const page = await suite.signedInPage(owner, '/');
    const uuid = await newDiagram(page, 'Dragged link', 'PostgreSQL');
    await addTable(page, 'teams');
    await addTable(page, 'players');
    await addColumn(page, { name: 'team_id', type: 'bigint', nullable: false });
    await saved(page);
    await page.getByRole('button', { name: 'Add relationship' }).click();
    // The drag itself is geometry: from the players.team_id row to the teams.id row of the drawing.
    const from = await page.locator('g.dss-table[data-table="players"] g.dss-column').nth(1).boundingBox();
    const to = await page.locator('g.dss-table[data-table="teams"] g.dss-column').nth(0).boundingBox();
    await page.mouse.move(from!.x + 20, from!.y + from!.height / 2);
    await page.mouse.down();
    await page.mouse.move(to!.x + 40, to!.y + to!.height / 2, { steps: 8 });
    await saveScreenshot(page, 'editor-relationship-being-drawn');
    await page.mouse.up();
    await page.getByRole('button', { name: 'Delete relationship players.team_id → teams.id' }).waitFor();
    await saved(page);
    expect(
      (await schemaOf(uuid)).relationships.map(
        (r) => `${r.source_table}.${r.source_column}>${r.target_table}.${r.target_column}`,
      ),
    ).toEqual(['players.team_id>teams.id']);
  });
});
