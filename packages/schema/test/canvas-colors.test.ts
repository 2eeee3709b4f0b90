// Colours of tables and groups beside a patch: read from untrusted JSON (hex colours or null only, tables
// and groups only), applied by name without touching anything else, and computed between two documents.
import {
  apply,
  applyCanvasColors,
  canvasColorsBetween,
  type DiagramDocument,
  emptyDocument,
  normalize,
  parseCanvasColors,
  validate,
} from '../src';

function shop(): DiagramDocument {
  const patch = normalize({
    strategy: 'merge',
    groups: [{ name: 'sales' }],
    tables: [
      {
        name: 'orders',
        parent_name: 'sales',
        columns: [{ name: 'id', type: 'bigint', is_primary_key: true }],
      },
      { name: 'customers', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
    ],
  }).patch;
  const checked = validate(patch, emptyDocument('pgsql'), 'pgsql', 'propose');
  if (!checked.ok) throw new Error(checked.message);
  return apply(emptyDocument('pgsql'), checked.patch).document;
}

describe('parseCanvasColors', () => {
  it('should accept hex colours and null, lower-cased', () => {
    expect(
      parseCanvasColors({ tables: { orders: '#3B82F6', customers: null }, groups: { sales: '#abc' } }),
    ).toEqual({
      ok: true,
      value: { tables: { orders: '#3b82f6', customers: null }, groups: { sales: '#abc' } },
    });
  });

  it.each([
    [{ tables: { orders: 'red' } }, 'colors.tables.orders'],
    [{ tables: { orders: '#12345g' } }, 'colors.tables.orders'],
    [{ tables: { orders: 'url(javascript:x)' } }, 'colors.tables.orders'],
    [{ tables: { orders: 3 } }, 'colors.tables.orders'],
    [{ notes: {} }, 'colors.notes'],
    [{ tables: ['#fff'] }, 'colors.tables'],
    [[], 'colors'],
    ['#fff', 'colors'],
  ])('should refuse %j at %s', (value, path) => {
    const parsed = parseCanvasColors(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.path).toBe(path);
  });
});

describe('applyCanvasColors', () => {
  it('should colour the named table and group and leave every other record as it was', () => {
    const document = shop();
    const result = applyCanvasColors(document, {
      tables: { orders: '#ff0000' },
      groups: { sales: '#00ff00' },
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.value.tables.map((table) => [table.name, table.color])).toEqual([
      ['orders', '#ff0000'],
      ['customers', null],
    ]);
    expect(result.value.groups[0]?.color).toBe('#00ff00');
    expect(result.value.tables[1]).toBe(document.tables[1]);
    expect(document.tables[0]?.color).toBeNull();
  });

  it('should refuse a name the document lacks and change nothing', () => {
    const document = shop();
    const result = applyCanvasColors(document, { tables: { orders: '#ff0000', nowhere: '#fff' } });
    expect(result).toEqual({
      ok: false,
      path: 'colors.tables.nowhere',
      message: 'the diagram has no table nowhere',
    });
    expect(document.tables[0]?.color).toBeNull();
  });
});

describe('canvasColorsBetween', () => {
  it('should name the records whose colour changed, by their names in the later document, and nothing when none did', () => {
    const before = shop();
    const after = applyCanvasColors(before, {
      tables: { customers: '#123456' },
      groups: { sales: '#abcdef' },
    });
    if (!after.ok) throw new Error(after.message);
    expect(canvasColorsBetween(before, after.value)).toEqual({
      tables: { customers: '#123456' },
      groups: { sales: '#abcdef' },
    });
    expect(canvasColorsBetween(after.value, before)).toEqual({
      tables: { customers: null },
      groups: { sales: null },
    });
    expect(canvasColorsBetween(before, before)).toBeUndefined();
  });
});
