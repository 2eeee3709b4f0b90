/// <reference lib="dom" />
// The editor's DBML pane, driven through roles and accessible names: DBML typed beside the drawing adds a
// table and a reference (drawn in free space, saved: the API's schema has them); a move on the canvas keeps
// the person's text; an edit on the canvas writes the text again; an undo of the DBML edit takes it back;
// a syntax error is shown at its line and column and the drawing stays; the SQL tab shows the CREATE
// script; a viewer reads the text but cannot type in it; axe finds nothing serious with the pane open.
import type { TestMember } from '@dss/system';
import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, type WebTestSystem } from '../support/web-system';

interface Schema {
  tables: { name: string; columns: { name: string }[] }[];
  relationships: {
    source_table: string;
    source_column: string;
    target_table: string;
    target_column: string;
  }[];
}

const CUSTOMERS = {
  strategy: 'merge',
  tables: [
    {
      name: 'customers',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true, is_nullable: false },
        { name: 'email', type: 'varchar(200)', is_nullable: false },
      ],
    },
  ],
};

// Typed key by key; the editor keeps a new line's indentation, so lines are typed without their own.
const ORDERS = `

Table orders {
id bigint [pk]
customer_id bigint [not null, ref: > customers.id]
total numeric(12,2)
}
`;

describe('the DBML pane of the editor (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let owner: TestMember;
  let viewer: TestMember;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('texts');
    owner = await createPerson(web, 'texts', 'owner', 'Olive Owner');
    viewer = await createPerson(web, 'texts', 'viewer', 'Vera Viewer');
  });

  const schemaOf = async (uuid: string) =>
    (await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema`)).body.data as unknown as Schema;
  /** Where a table is on the canvas, in diagram units, as saved. */
  const placeOf = async (uuid: string, table: string) => {
    const full = await api(web, owner.token, 'GET', `/diagrams/${uuid}/schema-full`);
    const tables = (full.body.data as { tables: { name: string; left: number; top: number }[] }).tables;
    const found = tables.find((candidate) => candidate.name === table);
    return found && { left: found.left, top: found.top };
  };
  const saved = (page: Page) =>
    page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
  const dbml = (page: Page) => page.getByRole('textbox', { name: 'DBML' });
  const tableBox = (page: Page, name: string) =>
    page.locator(`#editor g.dss-table[data-table="${name}"] rect.dss-box`).first().boundingBox();

  async function openPane(page: Page, uuid: string): Promise<Locator> {
    await page.goto(`${web.webUrl}/diagrams/${uuid}/edit`);
    const toggle = page.getByRole('button', { name: 'DBML pane' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await dbml(page).waitFor();
    return dbml(page);
  }

  /** Types at the end of the text, as a person does (keyboard input into CodeMirror). */
  async function typeAtEnd(page: Page, text: string) {
    await dbml(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(text);
  }

  it('When DBML that adds a table and a reference is typed, then it is drawn in free space and saved, a move keeps the text, a canvas edit rewrites it and undo takes the DBML edit back', async () => {
    const uuid = await createDiagram(web, owner, CUSTOMERS, 'Typed shop');
    const page = await suite.signedInPage(owner, `/diagrams/${uuid}/edit`);
    const pane = await openPane(page, uuid);
    expect(await pane.textContent()).toContain('Table "customers"');
    const placeBefore = await placeOf(uuid, 'customers');

    await typeAtEnd(page, ORDERS);
    await page.locator('#editor g.dss-table[data-table="orders"]').waitFor();
    await saved(page);
    const typed = await pane.textContent();
    expect(typed).toContain('Table orders');

    // Drawn: the table and the line between the two; the old table did not move, the new one overlaps nothing.
    const customers = await tableBox(page, 'customers');
    const orders = await tableBox(page, 'orders');
    expect(await placeOf(uuid, 'customers')).toEqual(placeBefore);
    expect(orders).not.toBeNull();
    const apart =
      orders!.x >= customers!.x + customers!.width ||
      customers!.x >= orders!.x + orders!.width ||
      orders!.y >= customers!.y + customers!.height ||
      customers!.y >= orders!.y + orders!.height;
    expect(apart).toBe(true);
    expect(await page.locator('#editor [data-relationship]').count()).toBe(1);

    // Saved through the same path as the canvas: the API's schema has the table and the reference.
    const schema = await schemaOf(uuid);
    expect(schema.tables.map((table) => table.name).sort()).toEqual(['customers', 'orders']);
    expect(schema.tables.find((table) => table.name === 'orders')?.columns.map((c) => c.name)).toEqual([
      'id',
      'customer_id',
      'total',
    ]);
    expect(schema.relationships).toEqual([
      expect.objectContaining({
        source_table: 'orders',
        source_column: 'customer_id',
        target_table: 'customers',
        target_column: 'id',
      }),
    ]);
    await saveScreenshot(page, 'editor-dbml-pane');

    // A move on the canvas (arrow keys on the selected table) leaves the DBML as the person wrote it.
    await page.locator('#editor g.dss-table[data-table="orders"]').first().click();
    await page.getByRole('region', { name: 'Diagram' }).focus();
    await page.keyboard.press('ArrowDown');
    await saved(page);
    expect((await tableBox(page, 'orders'))!.y).toBeGreaterThan(orders!.y);
    expect(await pane.textContent()).toBe(typed);

    // An edit of the schema on the canvas writes the text again from the diagram.
    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('textbox', { name: 'Table name' }).waitFor();
    await saved(page);
    await page.locator('#editor-text-dbml .cm-content', { hasText: 'table_3' }).waitFor();

    // Undo: the new table, then the move, then the DBML edit; the text follows the diagram.
    for (let step = 0; step < 3; step++) await page.getByRole('button', { name: 'Undo' }).click();
    await page.locator('#editor g.dss-table[data-table="orders"]').waitFor({ state: 'detached' });
    await saved(page);
    expect(await pane.textContent()).not.toContain('orders');
    expect((await schemaOf(uuid)).tables.map((table) => table.name)).toEqual(['customers']);
  });

  it('When the drawing changes while the pane is closed, then opening the pane shows the text of the diagram as it is now', async () => {
    const uuid = await createDiagram(web, owner, CUSTOMERS, 'Closed pane');
    const page = await suite.signedInPage(owner, `/diagrams/${uuid}/edit`);
    const pane = await openPane(page, uuid);
    expect(await pane.textContent()).not.toContain('table_2');
    const toggle = page.getByRole('button', { name: 'DBML pane' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    // Two canvas edits with the pane closed (its text is written only once it is shown again).
    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('textbox', { name: 'Table name' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('textbox', { name: 'Table name' }).waitFor();
    await saved(page);

    await toggle.click();
    await page.locator('#editor-text-dbml .cm-content', { hasText: 'table_3' }).waitFor();
    const text = await pane.textContent();
    expect(text).toContain('table_2');
    expect(text).toContain('Table "customers"');
  });

  it('When the DBML has a syntax error, then its line and column are shown, nothing is drawn or saved from it, and fixing it applies it', async () => {
    const uuid = await createDiagram(web, owner, CUSTOMERS, 'Broken text');
    const page = await suite.signedInPage(owner, `/diagrams/${uuid}/edit`);
    const pane = await openPane(page, uuid);
    expect(await pane.textContent()).toContain('Table "customers"');
    const lines = await page.locator('#editor-text-dbml .cm-line').count();
    // Line lines+3 of the text: `name varchar(20) [notnul]` (indented as the editor indents a new line).
    await typeAtEnd(page, '\n\nTable broken {\nname varchar(20) [notnul]\n}');
    // Typing pauses may show other errors on the way; the one of the whole text names the setting.
    const problem = page.locator('#editor-text-problem', { hasText: 'notnul' });
    await problem.waitFor();
    expect(await problem.getAttribute('role')).toBe('alert');
    const line =
      (await page
        .locator('#editor-text-dbml .cm-line')
        .nth(lines + 2)
        .textContent()) ?? '';
    const column = line.indexOf('notnul') + 1;
    expect(column).toBeGreaterThan(0);
    expect(await problem.textContent()).toMatch(
      new RegExp(`^Line ${lines + 3}, column ${column}: DBML: .*notnul`),
    );
    // The diagnostic is marked in the editor at that place.
    await page.locator('#editor-text-dbml .cm-lintRange-error').waitFor();
    expect(await page.locator('#editor-text-dbml .cm-lintRange-error').textContent()).toMatch(/^notnul/);
    // The drawing stays as it was and nothing was saved.
    expect(await page.locator('#editor g.dss-table[data-table="customers"]').count()).toBe(1);
    expect(await page.locator('#editor g.dss-table[data-table="broken"]').count()).toBe(0);
    expect((await schemaOf(uuid)).tables.map((table) => table.name)).toEqual(['customers']);
    await saveScreenshot(page, 'editor-dbml-pane-error');

    // Fixed: the message goes and the table is drawn and saved.
    await dbml(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    for (let at = 0; at < 'notnul]'.length; at++) await page.keyboard.press('Backspace');
    await page.keyboard.type('not null]');
    await page.locator('#editor g.dss-table[data-table="broken"]').waitFor();
    await problem.waitFor({ state: 'detached' });
    await saved(page);
    expect((await schemaOf(uuid)).tables.map((table) => table.name).sort()).toEqual(['broken', 'customers']);
  });

  it('When the SQL tab is chosen, then it shows the CREATE script of the diagram, read-only, and axe finds nothing serious with the pane open', async () => {
    const uuid = await createDiagram(web, owner, CUSTOMERS, 'Scripted shop');
    const page = await suite.signedInPage(owner, `/diagrams/${uuid}/edit`);
    await openPane(page, uuid);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'SQL' }).click();
    const sql = page.getByRole('textbox', { name: 'SQL' });
    // The script is put into the view after the render that shows the tab.
    await sql.filter({ hasText: 'CREATE TABLE "customers"' }).waitFor();
    expect(await sql.getAttribute('aria-readonly')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('When a viewer opens the pane, then the DBML is there to read but typing changes nothing', async () => {
    const uuid = await createDiagram(web, owner, CUSTOMERS, 'Read-only text');
    const page = await suite.signedInPage(viewer, `/diagrams/${uuid}/edit`);
    const pane = await openPane(page, uuid);
    expect(await pane.getAttribute('aria-readonly')).toBe('true');
    const text = await pane.textContent();
    expect(text).toContain('Table "customers"');
    await pane.click();
    await page.keyboard.insertText('Table sneaky { id int }');
    expect(await pane.textContent()).toBe(text);
    const forged = await page.evaluate(async (diagram) => {
      const response = await fetch(`/diagrams/${diagram}/dbml`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrf-token': document.getElementById('editor')?.dataset['csrf'] ?? '',
        },
        body: JSON.stringify({ dbml: 'Table sneaky { id int }' }),
      });
      return response.status;
    }, uuid);
    expect(forged).toBe(403);
  });
});
