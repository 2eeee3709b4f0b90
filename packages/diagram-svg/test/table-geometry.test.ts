// Table boxes: a stored width that cuts the table's text is widened (up to 480px), and a table it would
// reach is drawn further right, so widening never makes tables overlap.
import { fitTableBoxes, tableBox } from '../src/table-geometry';
import { documentFrom } from './fixtures';

const LONG_COLUMN = { name: 'shipping_status_code', type: 'character varying(120)' };

function tables(entries: { name: string; left: number; top: number; width: number; long?: boolean }[]) {
  return documentFrom({
    strategy: 'merge',
    tables: entries.map((entry) => ({
      name: entry.name,
      left: entry.left,
      top: entry.top,
      width: entry.width,
      columns: [{ name: 'id', type: 'bigint' }, ...(entry.long ? [LONG_COLUMN] : [])],
    })),
  }).document.tables;
}

describe('fitTableBoxes', () => {
  it('should widen a table whose stored width cuts a column’s name and type, with room to its right', () => {
    const [orders] = tables([{ name: 'orders', left: 0, top: 0, width: 180, long: true }]);
    fitTableBoxes([orders!]);
    const box = tableBox(orders!);
    // badge gutter 34 + padding 10 + gap 12 + 20 × 6.4 (name) + 22 × 6.7 (type) + 6 + 22 ("null")
    expect(box.width).toBe(Math.ceil(34 + 10 + 12 + 20 * 6.4 + 22 * 6.7 + 6 + 22));
    expect(box).toMatchObject({ left: 0, top: 0 });
  });

  it('should draw a table it would reach further right, 48px clear, and the tables after it along the row', () => {
    const [orders, invoices, payments, apart] = tables([
      { name: 'orders', left: 0, top: 0, width: 180, long: true },
      { name: 'invoices', left: 250, top: 20, width: 180 },
      { name: 'payments', left: 440, top: 40, width: 180 },
      { name: 'apart', left: 900, top: 0, width: 180 },
    ]);
    fitTableBoxes([orders!, invoices!, payments!, apart!]);
    const widened = tableBox(orders!).width;
    expect(widened).toBe(360);
    expect(tableBox(invoices!)).toMatchObject({ left: widened + 48, width: 180, top: 20 });
    // payments stood 10px from invoices: it keeps those 10px.
    expect(tableBox(payments!).left).toBe(widened + 48 + 180 + 10);
    expect(tableBox(apart!).left).toBe(900);
  });

  it('should leave tables a person stored overlapping where they are', () => {
    const [orders, over] = tables([
      { name: 'orders', left: 0, top: 0, width: 180, long: true },
      { name: 'over', left: 100, top: 20, width: 180 },
    ]);
    fitTableBoxes([orders!, over!]);
    expect(tableBox(over!).left).toBe(100);
  });

  it('should ignore tables to its right at another height, and never narrow a table', () => {
    const [orders, below, wide] = tables([
      { name: 'orders', left: 0, top: 0, width: 180, long: true },
      { name: 'below', left: 250, top: 400, width: 180 },
      { name: 'wide', left: 0, top: 800, width: 420 },
    ]);
    fitTableBoxes([orders!, below!, wide!]);
    expect(tableBox(orders!).width).toBeGreaterThan(300);
    expect(tableBox(wide!).width).toBe(420);
  });

  it('should keep the stored box of a table no drawing has fitted', () => {
    const [orders] = tables([{ name: 'orders', left: 10, top: 20, width: 180, long: true }]);
    expect(tableBox(orders!)).toEqual({ left: 10, top: 20, width: 180, height: 36 + 24 * 2 + 8 });
  });
});
