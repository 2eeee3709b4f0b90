/// <reference lib="dom" />
// Zoom in the editor, driven through roles and names: the toolbar's Zoom out, Zoom in, Fit the diagram and
// Actual size change the scale the drawing is shown at (measured as the boxes' size on screen), Fit puts
// every table inside the canvas, a drag at any zoom moves a table by the distance dragged in the drawing's
// units, Ctrl with the wheel zooms around the pointer, and Auto-layout ends with the whole new drawing in
// view. A viewer zooms too.
import type { TestMember } from '@dss/system';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../support/browser';
import {
  type Box,
  placeTables,
  SHOP_TABLES,
  shopOfTables,
  standInARow as standTablesInARow,
  tableBoxes,
} from '../support/editor-page';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, type WebTestSystem } from '../support/web-system';

const NAMES = SHOP_TABLES;

describe('zoom in the editor (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let owner: TestMember;
  let viewer: TestMember;
  let diagramUuid: string;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('zooming');
    owner = await createPerson(web, 'zooming', 'owner', 'Zoe Zoom');
    viewer = await createPerson(web, 'zooming', 'viewer', 'Vin Viewer');
    diagramUuid = await createDiagram(web, owner, shopOfTables(), 'Wide row');
  });

  /** The tables in one row, far wider than the canvas. */
  const standInARow = (page: Page) => standTablesInARow(page, NAMES, false);
  const screenBoxes = (page: Page) => tableBoxes(page, 'screen');

  /** Every table's box lies inside the canvas. */
  const expectAllInside = (boxes: Record<string, Box>, canvas: Box) => {
    for (const name of NAMES) {
      const box = boxes[name]!;
      expect(box.left).toBeGreaterThanOrEqual(canvas.left);
      expect(box.top).toBeGreaterThanOrEqual(canvas.top);
      expect(box.left + box.width).toBeLessThanOrEqual(canvas.left + canvas.width);
      expect(box.top + box.height).toBeLessThanOrEqual(canvas.top + canvas.height);
    }
  };

  const canvasBox = async (page: Page): Promise<Box> => {
    const box = await page.getByRole('region', { name: 'Diagram' }).boundingBox();
    if (!box) throw new Error('the canvas is not on the page');
    return { left: box.x, top: box.y, width: box.width, height: box.height };
  };

  const zoomShown = (page: Page) => page.locator('#editor-zoom-out-readout').textContent();

  const waitForZoom = async (page: Page, text: string) => {
    await page.locator('#editor-zoom-out-readout', { hasText: new RegExp(`^${text}$`) }).waitFor();
  };

  const savedFrame = async (name: string) => {
    const tables = (await api(web, owner.token, 'GET', `/diagrams/${diagramUuid}/schema-full`)).body.data!
      .tables as { name: string; left: number; top: number }[];
    const table = tables.find((candidate) => candidate.name === name)!;
    return [table.left, table.top];
  };

  it('When a person zooms out, fits, drags and zooms back, then the drawing scales, every table is in view, and the drag moves the table by what was dragged', async () => {
    const page = await suite.signedInPage(owner, `/diagrams/${diagramUuid}/edit`);
    await page.getByRole('button', { name: 'Open table users' }).waitFor();
    await standInARow(page);
    expect(await zoomShown(page)).toBe('100%');
    const actual = await screenBoxes(page);

    await page.getByRole('button', { name: 'Zoom out' }).click();
    await waitForZoom(page, '80%');
    const smaller = await screenBoxes(page);
    for (const name of NAMES) expect(smaller[name]!.width).toBeCloseTo(actual[name]!.width * 0.8, 0);

    await page.getByRole('button', { name: 'Fit the diagram' }).click();
    await page.waitForFunction(
      () => document.getElementById('editor-zoom-out-readout')?.textContent !== '80%',
    );
    const scale = Number.parseInt((await zoomShown(page))!, 10) / 100;
    // The row is about 6,600 units wide: fitting it needs far less than 80%.
    expect(scale).toBeLessThan(0.5);
    const canvas = await canvasBox(page);
    const fitted = await screenBoxes(page);
    expectAllInside(fitted, canvas);
    for (const name of NAMES) expect(fitted[name]!.width).toBeCloseTo(actual[name]!.width * scale, -1);
    await saveScreenshot(page, 'editor-zoom-fit');

    // A drag of 60 screen pixels at this zoom moves the table 60 / scale units.
    const before = await savedFrame('orders');
    const box = fitted.orders!;
    await page.mouse.move(box.left + box.width / 2, box.top + 4);
    await page.mouse.down();
    await page.mouse.move(box.left + box.width / 2 + 60, box.top + 4, { steps: 6 });
    await page.mouse.up();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    for (let attempt = 0; attempt < 50; attempt++) {
      if ((await savedFrame('orders'))[0] !== before[0]) break;
      await page.waitForTimeout(100);
    }
    const after = await savedFrame('orders');
    const measured = fitted.users!.width / actual.users!.width;
    expect(after[1]).toBe(before[1]);
    expect(Math.abs(after[0]! - before[0]! - 60 / measured)).toBeLessThanOrEqual(2);

    await page.getByRole('button', { name: 'Actual size' }).click();
    await waitForZoom(page, '100%');
    const back = await screenBoxes(page);
    for (const name of NAMES) expect(back[name]!.width).toBeCloseTo(actual[name]!.width, 0);
  });

  it('When a viewer opens the editor, then the zoom buttons are there and Fit the diagram works', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${diagramUuid}/edit`);
    await page.getByRole('region', { name: 'Diagram' }).waitFor();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await waitForZoom(page, '125%');
    await page.getByRole('button', { name: 'Fit the diagram' }).click();
    await page.waitForFunction(
      () => document.getElementById('editor-zoom-out-readout')?.textContent !== '125%',
    );
    // The row laid out by the first test is still far wider than the canvas.
    expect(Number.parseInt((await zoomShown(page))!, 10)).toBeLessThan(50);
    expect(await page.getByRole('button', { name: 'Auto-layout' }).count()).toBe(0);
  });

  it('When a person holds Ctrl and turns the wheel over a table, then the drawing zooms and the point under the pointer stays under it', async () => {
    const page = await suite.signedInPage(owner, `/diagrams/${diagramUuid}/edit`);
    await page.getByRole('button', { name: 'Open table users' }).waitFor();
    const box = (await screenBoxes(page)).users!;
    const pointer = { x: box.left + box.width * 0.75, y: box.top + box.height * 0.5 };
    await page.mouse.move(pointer.x, pointer.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await page.waitForFunction(
      () => document.getElementById('editor-zoom-out-readout')?.textContent !== '100%',
    );
    expect(Number.parseInt((await zoomShown(page))!, 10)).toBeGreaterThan(100);
    const zoomed = (await screenBoxes(page)).users!;
    expect(zoomed.width).toBeGreaterThan(box.width * 1.2);
    // The same fraction of the box is under the pointer across the row. Down, the zoomed row is still
    // shorter than the canvas, so there is nothing to scroll: it stands in the canvas's middle.
    expect(zoomed.left + zoomed.width * 0.75).toBeCloseTo(pointer.x, 0);
    const canvas = await canvasBox(page);
    const drawing = await page.locator('#editor-canvas > svg').boundingBox();
    expect(drawing!.y + drawing!.height / 2).toBeCloseTo(canvas.top + canvas.height / 2, -1);

    // The keys: - zooms out, 1 is actual size, 0 fits (the canvas has focus).
    await page.getByRole('region', { name: 'Diagram' }).focus();
    await page.keyboard.press('1');
    await waitForZoom(page, '100%');
    await page.keyboard.press('-');
    await waitForZoom(page, '80%');
  });

  it('When the drawing leaves its top-left corner empty, then the editor opens at 100% on the table with the most relationships, its header in view, and a long table name stays inside the panel', async () => {
    const LONG = 'partman_template_public_enriched_events_archive';
    const shop = shopOfTables();
    const uuid = await createDiagram(
      web,
      owner,
      { ...shop, tables: [...shop.tables, { name: LONG, columns: [{ name: 'id', type: 'bigint' }] }] },
      'Empty corner',
    );
    const page = await suite.signedInPage(owner, `/diagrams/${uuid}/edit`);
    await page.getByRole('button', { name: 'Open table users' }).waitFor();
    // The other tables on the diagonal from (3000, 0) to (0, 3000), `users` (6 relationships) beyond it:
    // at 100% the canvas's first view of the drawing's top-left corner holds no table.
    const others = [...NAMES.filter((name) => name !== 'users'), LONG];
    const frames = [
      ...others.map((name, at) => ({
        name,
        left: Math.round(3000 - (at * 3000) / (others.length - 1)),
        top: Math.round((at * 3000) / (others.length - 1)),
      })),
      { name: 'users', left: 2200, top: 2200 },
    ];
    await placeTables(page, frames);
    await waitForZoom(page, '100%');
    const canvas = await canvasBox(page);
    let users: Box | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      users = (await screenBoxes(page)).users;
      if (users && users.top >= canvas.top && users.top < canvas.top + canvas.height) break;
      await page.waitForTimeout(100);
    }
    // Its header just below the canvas's top edge, the table centred across.
    expect(users!.top).toBeGreaterThanOrEqual(canvas.top);
    expect(users!.top).toBeLessThanOrEqual(canvas.top + 48);
    expect(Math.abs(users!.left + users!.width / 2 - (canvas.left + canvas.width / 2))).toBeLessThanOrEqual(
      2,
    );
    expect(await zoomShown(page)).toBe('100%');
    const panel = await page.getByRole('region', { name: 'Help' }).boundingBox();
    const button = await page.getByRole('button', { name: `Open table ${LONG}` }).boundingBox();
    expect(button!.x + button!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
    await saveScreenshot(page, 'editor-opens-on-the-hub');
  });

  it('When an owner clicks Auto-layout, then the whole new drawing is in view', async () => {
    const page = await suite.signedInPage(owner, `/diagrams/${diagramUuid}/edit`);
    await page.getByRole('button', { name: 'Open table users' }).waitFor();
    await standInARow(page);
    const row = await screenBoxes(page);
    const canvas = await canvasBox(page);
    // At 100% the row runs off the canvas's right side.
    expect(Math.max(...Object.values(row).map((box) => box.left + box.width))).toBeGreaterThan(
      canvas.left + canvas.width,
    );
    await page.getByRole('button', { name: 'Auto-layout' }).click();
    for (let attempt = 0; attempt < 100; attempt++) {
      const drawn = await screenBoxes(page);
      if (NAMES.some((name) => drawn[name]!.left !== row[name]!.left)) break;
      await page.waitForTimeout(100);
    }
    const laidOut = await screenBoxes(page);
    expectAllInside(laidOut, canvas);
    await saveScreenshot(page, 'editor-zoom-after-auto-layout');
  });
});
