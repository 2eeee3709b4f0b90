/// <reference lib="dom" />
// Arrange by hand: an editor drags a table and saves the layout as a new version (source `layout`);
// saving over a diagram that changed meanwhile is refused; a viewer can zoom and pan but not move.
import { type TestMember, twoTableShopPatch } from '@dss/system';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, propose, type WebTestSystem } from '../support/web-system';

describe('arrange by hand (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let editor: TestMember;
  let viewer: TestMember;
  let diagramUuid: string;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('arrange');
    editor = await createPerson(web, 'arrange', 'editor', 'Ari Arranger');
    viewer = await createPerson(web, 'arrange', 'viewer', 'Viv Viewer');
    diagramUuid = await createDiagram(web, editor, {
      ...twoTableShopPatch(),
      tables: [
        ...twoTableShopPatch().tables,
        {
          name: 'payments',
          columns: [
            { name: 'id', type: 'bigint', is_primary_key: true },
            { name: 'order_id', type: 'bigint' },
          ],
        },
      ],
      relationships: [
        {
          type: 'many-to-one',
          source_table: 'payments',
          source_column: 'order_id',
          target_table: 'orders',
          target_column: 'id',
        },
      ],
    });
  });

  const framesByName = async () => {
    const document = (await api(web, editor.token, 'GET', `/diagrams/${diagramUuid}/schema-full`)).body
      .data as {
      tables: { name: string; left: number; top: number }[];
    };
    return new Map(document.tables.map((table) => [table.name, { left: table.left, top: table.top }]));
  };

  /** Drags the table's header by (dx, dy) screen pixels; answers the drawing units per screen pixel. */
  async function drag(page: Page, table: string, dx: number, dy: number): Promise<number> {
    const box = await page.evaluate((name) => {
      const rect = document.querySelector(`g.dss-table[data-table="${name}"] rect.dss-box`) as SVGRectElement;
      const screen = rect.getBoundingClientRect();
      return {
        x: screen.left + 20,
        y: screen.top + 10,
        unitsPerPixel: rect.width.baseVal.value / screen.width,
      };
    }, table);
    await page.mouse.move(box.x, box.y);
    await page.mouse.down();
    await page.mouse.move(box.x + dx, box.y + dy, { steps: 6 });
    await page.mouse.up();
    return box.unitsPerPixel;
  }

  it('moves a table by drag and saves the positions as a new version', async () => {
    const name = 'payments';
    const before = (await framesByName()).get(name)!;
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    await page.click('button[data-zoom-action=arrange]');
    const unitsPerPixel = await drag(page, name, 120, 60);
    // The lines followed the table (first-view.test.ts measures them); none is left behind, faded.
    expect(await page.locator('g.dss-relationship.dss-stale').count()).toBe(0);
    await saveScreenshot(page, 'arrange-dragged');
    await Promise.all([
      page.waitForURL(`${web.webUrl}/diagrams/${diagramUuid}`),
      page.click('button[data-zoom-action=save-layout]'),
    ]);
    const after = (await framesByName()).get(name)!;
    expect(after.left - before.left).toBeCloseTo(120 * unitsPerPixel, -1);
    expect(after.top - before.top).toBeCloseTo(60 * unitsPerPixel, -1);
    const versions = (await api(web, editor.token, 'GET', `/diagrams/${diagramUuid}/versions`))
      .body as unknown as {
      data: { source: string }[];
    };
    expect(versions.data[0]!.source).toBe('layout');
    expect(await page.textContent('.history .versions')).toContain('arranged the tables');
  });

  it('moves a group with the tables in it', async () => {
    const grouped = await createDiagram(
      web,
      editor,
      {
        strategy: 'merge',
        groups: [{ name: 'Billing' }],
        tables: [
          {
            name: 'invoices',
            parent_name: 'Billing',
            columns: [{ name: 'id', type: 'bigint', is_primary_key: true }],
          },
          {
            name: 'refunds',
            parent_name: 'Billing',
            columns: [{ name: 'id', type: 'bigint', is_primary_key: true }],
          },
        ],
      },
      'Grouped',
    );
    const read = async () => {
      const document = (await api(web, editor.token, 'GET', `/diagrams/${grouped}/schema-full`)).body
        .data as {
        tables: { name: string; left: number; top: number }[];
        groups: { name: string; left: number; top: number }[];
      };
      return { group: document.groups[0]!, tables: new Map(document.tables.map((t) => [t.name, t])) };
    };
    const before = await read();
    const page = await suite.signedInPage(editor, `/diagrams/${grouped}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    await page.click('button[data-zoom-action=arrange]');
    // Press on the group's title strip (not on a table) and drag.
    const start = await page.evaluate(() => {
      const frame = (
        document.querySelector('g.dss-group[data-group="Billing"] rect.dss-frame') as SVGRectElement
      ).getBoundingClientRect();
      return { x: frame.left + 8, y: frame.top + 8 };
    });
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 90, start.y + 40, { steps: 5 });
    await page.mouse.up();
    await Promise.all([
      page.waitForURL(`${web.webUrl}/diagrams/${grouped}`),
      page.click('button[data-zoom-action=save-layout]'),
    ]);
    const after = await read();
    const moved = { dx: after.group.left - before.group.left, dy: after.group.top - before.group.top };
    expect(moved.dx).toBeGreaterThan(10);
    expect(moved.dy).toBeGreaterThan(5);
    for (const name of ['invoices', 'refunds']) {
      expect(after.tables.get(name)!.left - before.tables.get(name)!.left).toBeCloseTo(moved.dx, -1);
      expect(after.tables.get(name)!.top - before.tables.get(name)!.top).toBeCloseTo(moved.dy, -1);
    }
  });

  it('moves a sticky note by drag, and a group carries its notes along', async () => {
    const noted = await createDiagram(
      web,
      editor,
      {
        strategy: 'merge',
        groups: [{ name: 'Ledger' }],
        tables: [
          {
            name: 'accounts',
            parent_name: 'Ledger',
            columns: [{ name: 'id', type: 'bigint', is_primary_key: true }],
          },
          { name: 'audit', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
        ],
        sticky_notes: [{ content: 'Free note' }, { content: 'Ledger note', parent_name: 'Ledger' }],
      },
      'Noted',
    );
    const read = async () => {
      const document = (await api(web, editor.token, 'GET', `/diagrams/${noted}/schema-full`)).body.data as {
        sticky_notes: { uuid: string; content: string; left: number; top: number }[];
        groups: { left: number; top: number }[];
      };
      return {
        notes: new Map(document.sticky_notes.map((note) => [note.content, note])),
        group: document.groups[0]!,
      };
    };
    const before = await read();
    const free = before.notes.get('Free note')!;
    const page = await suite.signedInPage(editor, `/diagrams/${noted}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    await page.click('button[data-zoom-action=arrange]');
    const card = await page.evaluate((uuid) => {
      const rect = document.querySelector(`g.dss-note[data-note="${uuid}"] rect.dss-card`) as SVGRectElement;
      const screen = rect.getBoundingClientRect();
      return {
        x: screen.left + 10,
        y: screen.top + 10,
        unitsPerPixel: rect.width.baseVal.value / screen.width,
      };
    }, free.uuid);
    await page.mouse.move(card.x, card.y);
    await page.mouse.down();
    await page.mouse.move(card.x + 80, card.y + 50, { steps: 5 });
    await page.mouse.up();
    await Promise.all([
      page.waitForURL(`${web.webUrl}/diagrams/${noted}`),
      page.click('button[data-zoom-action=save-layout]'),
    ]);
    const after = await read();
    expect(after.notes.get('Free note')!.left - free.left).toBeCloseTo(80 * card.unitsPerPixel, -1);
    expect(after.notes.get('Free note')!.top - free.top).toBeCloseTo(50 * card.unitsPerPixel, -1);

    // Drag the group by its title strip: the note inside it moves by the same amount.
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    await page.click('button[data-zoom-action=arrange]');
    const start = await page.evaluate(() => {
      const frame = (
        document.querySelector('g.dss-group[data-group="Ledger"] rect.dss-frame') as SVGRectElement
      ).getBoundingClientRect();
      return { x: frame.left + 8, y: frame.top + 8 };
    });
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 70, start.y + 30, { steps: 5 });
    await page.mouse.up();
    await Promise.all([
      page.waitForURL(`${web.webUrl}/diagrams/${noted}`),
      page.click('button[data-zoom-action=save-layout]'),
    ]);
    const last = await read();
    const groupMoved = last.group.left - after.group.left;
    expect(groupMoved).toBeGreaterThan(10);
    const ledgerBefore = after.notes.get('Ledger note')!;
    const ledgerAfter = last.notes.get('Ledger note')!;
    expect(ledgerAfter.left - ledgerBefore.left).toBeCloseTo(groupMoved, -1);
    expect(ledgerAfter.top - ledgerBefore.top).toBeCloseTo(last.group.top - after.group.top, -1);
    await saveScreenshot(page, 'arrange-notes');
  });

  it('refuses to save over a diagram that changed meanwhile', async () => {
    const [name] = [...(await framesByName()).keys()];
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    // Arranging when the change lands: a live page redraws a newer version only when not arranging.
    await page.click('button[data-zoom-action=arrange]');
    const proposal = await propose(web, editor, diagramUuid, {
      title: 'Meanwhile',
      message: 'Another change.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'meanwhile', columns: [{ name: 'id', type: 'bigint' }] }],
      },
    });
    const other = await suite.signedInPage(editor, `/review/${proposal.uuid}`);
    await Promise.all([other.waitForLoadState('load'), other.click('button:has-text("Apply changes")')]);
    const before = (await framesByName()).get(name!)!;
    await page.waitForFunction(() =>
      document.querySelector('#live [data-live="note"]')?.textContent?.includes('newer version'),
    );
    await drag(page, name!, 80, 0);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url().endsWith('/layout')),
      page.click('button[data-zoom-action=save-layout]'),
    ]);
    expect(response.status()).toBe(409);
    expect(await page.textContent('body')).toContain('has changed');
    expect((await framesByName()).get(name!)).toEqual(before);
  });

  it('gives a viewer zoom and pan but no Arrange button', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${diagramUuid}`);
    await page.waitForSelector('figure.diagram[data-viewport=ready]');
    expect(await page.locator('button[data-zoom-action=fit]').count()).toBe(1);
    expect(await page.locator('button[data-zoom-action=arrange]').count()).toBe(0);
    expect(await page.locator('#layout-form').count()).toBe(0);
  });
});
