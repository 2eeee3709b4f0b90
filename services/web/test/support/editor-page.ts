/// <reference lib="dom" />
// What the editor's browser tests share: a small shop of tables, a way to put its tables far apart through
// the editor's own save route, and the tables' boxes as drawn (markup contract: data-table, dss-box).
import type { Page } from 'playwright-core';

export type Box = { left: number; top: number; width: number; height: number };

export const SHOP_TABLES = [
  'users',
  'accounts',
  'orders',
  'order_lines',
  'products',
  'payments',
  'refunds',
  'audit_log',
];

/** Eight tables (a JSON create's schema), all referring to `users` and some to each other. */
export function shopOfTables() {
  const key = { name: 'id', type: 'bigint', is_primary_key: true };
  const refs: Record<string, string[]> = {
    accounts: ['users'],
    orders: ['users', 'accounts'],
    order_lines: ['orders', 'products'],
    products: ['users'],
    payments: ['orders', 'users'],
    refunds: ['payments'],
    audit_log: ['users'],
  };
  return {
    strategy: 'additive',
    tables: SHOP_TABLES.map((name) => ({
      name,
      columns: [key, ...(refs[name] ?? []).map((target) => ({ name: `${target}_id`, type: 'bigint' }))],
    })),
    relationships: Object.entries(refs).flatMap(([source, targets]) =>
      targets.map((target) => ({
        type: 'many-to-one',
        source_table: source,
        source_column: `${target}_id`,
        target_table: target,
        target_column: 'id',
      })),
    ),
  };
}

/**
 * Puts the tables of the editor's diagram in a row 900 units apart (every other one 700 lower when
 * `zigzag`), saved through the editor's own route, and reopens the editor.
 */
export async function standInARow(page: Page, names: readonly string[], zigzag: boolean): Promise<void> {
  await placeTables(
    page,
    names.map((name, at) => ({ name, left: 60 + at * 900, top: 60 + (zigzag ? (at % 2) * 700 : 0) })),
  );
}

/** Moves the editor's tables to the given places, saved through the editor's own route, and reopens the editor. */
export async function placeTables(
  page: Page,
  frames: readonly { name: string; left: number; top: number }[],
): Promise<void> {
  const status = await page.evaluate(async (frames) => {
    const root = document.getElementById('editor')!;
    const response = await fetch(`/diagrams/${location.pathname.split('/')[2]}/edits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': root.dataset.csrf ?? '' },
      body: JSON.stringify({
        base_version_uuid: root.dataset.version,
        patch: { strategy: 'merge', tables: frames.map((frame) => ({ ...frame, columns: [] })) },
      }),
    });
    return response.status;
  }, frames);
  if (status >= 300) throw new Error(`the tables' places were not saved: ${status}`);
  // A long row is the router's slowest case (every line runs along the row): the Auto-layout test's 120-table
  // case takes 20–27 s alone on a 2-core machine, and this reload passed the 30 s default when two browser
  // test workers ran beside it.
  await page.reload({ timeout: 75_000 });
  await page.getByRole('button', { name: `Open table ${frames[0]!.name}` }).waitFor();
}

/** Every table's box: in drawing units (its rect's attributes), or on screen (CSS pixels of the page). */
export function tableBoxes(page: Page, measured: 'drawing' | 'screen'): Promise<Record<string, Box>> {
  return page.evaluate((measured) => {
    const out: Record<string, { left: number; top: number; width: number; height: number }> = {};
    for (const rect of Array.from(
      document.querySelectorAll<SVGRectElement>('g.dss-table[data-table] > rect.dss-box'),
    )) {
      const name = (rect.closest('g.dss-table') as SVGGElement).dataset.table!;
      if (measured === 'screen') {
        const { left, top, width, height } = rect.getBoundingClientRect();
        out[name] = { left, top, width, height };
      } else
        out[name] = {
          left: rect.x.baseVal.value,
          top: rect.y.baseVal.value,
          width: rect.width.baseVal.value,
          height: rect.height.baseVal.value,
        };
    }
    return out;
  }, measured);
}
