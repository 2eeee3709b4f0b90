import { renderDiagramSvg } from '../src/render';
import { reviewDiagram } from '../src/review';
import { documentFrom, shopPatch, uuidCounter } from './fixtures';
import { classesOf, parseSvg, titleOf, withClass } from './svg-tree';

/** The shop, then a proposal touching every kind of record: returns before, after and the diff. */
function proposal() {
  const before = documentFrom(shopPatch).document;
  const applied = documentFrom(
    {
      strategy: 'merge',
      groups: [{ name: 'Billing', left: 0, top: 480, width: 400, height: 240 }],
      tables: [
        { name: 'clients', old_name: 'customers', columns: [] },
        {
          name: 'orders',
          columns: [
            { name: 'total', type: 'decimal(12,2)', is_nullable: false },
            { name: 'paid_at', type: 'timestamptz' },
          ],
          indexes: [{ name: 'orders_total', type: 'index', columns: ['total'] }],
        },
        {
          name: 'payments',
          parent_name: 'Billing',
          left: 40,
          top: 540,
          width: 300,
          columns: [
            { name: 'id', type: 'bigint', is_primary_key: true },
            { name: 'order_id', type: 'bigint', is_nullable: false },
          ],
        },
      ],
      relationships: [
        {
          source_table: 'payments',
          source_column: 'order_id',
          target_table: 'orders',
          target_column: 'id',
          type: 'many-to-one',
        },
      ],
      sticky_notes: [{ content: 'Refunds next', left: 960, top: 200, width: 200, height: 100 }],
      deletions: {
        tables: ['invoices'],
        columns: { orders: ['tags'] },
        indexes: { orders: ['orders_customer'] },
        relationships: [
          {
            source_table: 'customers',
            source_column: 'referred_by',
            target_table: 'customers',
            target_column: 'id',
          },
        ],
        sticky_notes: [before.sticky_notes[0]!.uuid],
      },
    },
    { base: before, newUuid: uuidCounter('22222222-2222-4222-8222-') },
  );
  return { before, after: applied.document, diff: applied.diff };
}

function uuidOf<T extends { uuid: string }>(records: T[], test: (record: T) => boolean): string {
  return records.find(test)!.uuid;
}

describe('reviewDiagram', () => {
  describe('highlight', () => {
    it('marks tables added, changed and removed', () => {
      const { before, after, diff } = proposal();
      const { highlight } = reviewDiagram(before, after, diff);
      expect(highlight.tables).toEqual(
        new Map([
          [uuidOf(after.tables, (table) => table.name === 'payments'), 'added'],
          [uuidOf(after.tables, (table) => table.name === 'clients'), 'changed'],
          [uuidOf(before.tables, (table) => table.name === 'invoices'), 'removed'],
        ]),
      );
    });

    it('marks columns and indexes added, changed and removed', () => {
      const { before, after, diff } = proposal();
      const { highlight } = reviewDiagram(before, after, diff);
      const orders = before.tables.find((table) => table.name === 'orders')!;
      const ordersAfter = after.tables.find((table) => table.name === 'orders')!;
      expect(highlight.columns).toEqual(
        new Map([
          [uuidOf(ordersAfter.columns, (column) => column.name === 'paid_at'), 'added'],
          [uuidOf(orders.columns, (column) => column.name === 'total'), 'changed'],
          [uuidOf(orders.columns, (column) => column.name === 'tags'), 'removed'],
        ]),
      );
      expect(highlight.indexes).toEqual(
        new Map([
          [uuidOf(ordersAfter.indexes, (index) => index.name === 'orders_total'), 'added'],
          [orders.indexes[0]!.uuid, 'removed'],
        ]),
      );
    });

    it('marks relationships added, changed (renamed endpoint) and removed', () => {
      const { before, after, diff } = proposal();
      const { highlight } = reviewDiagram(before, after, diff);
      const marks = [...highlight.relationships].map(([uuid, mark]) => {
        const record = [...after.relationships, ...before.relationships].find((r) => r.uuid === uuid)!;
        return `${record.source_table}.${record.source_column} ${mark}`;
      });
      expect(marks.sort()).toEqual([
        'customers.referred_by removed',
        'invoices.order_id removed',
        'orders.customer_id changed',
        'payments.order_id added',
      ]);
    });

    it('marks groups and sticky notes', () => {
      const { before, after, diff } = proposal();
      const { highlight } = reviewDiagram(before, after, diff);
      expect([...highlight.groups.values()]).toEqual(['added']);
      expect(highlight.sticky_notes).toEqual(
        new Map([
          [uuidOf(after.sticky_notes, (note) => note.content === 'Refunds next'), 'added'],
          [before.sticky_notes[0]!.uuid, 'removed'],
        ]),
      );
    });
  });

  describe('document', () => {
    it('holds the removed table from before, ahead of the current ones', () => {
      const { before, after, diff } = proposal();
      const { document } = reviewDiagram(before, after, diff);
      expect(document.tables.map((table) => table.name)).toEqual([
        'invoices',
        'clients',
        'orders',
        'payments',
      ]);
      expect(document.tables[0]).toBe(before.tables.find((table) => table.name === 'invoices'));
    });

    it('puts removed columns and indexes back where they were in their table', () => {
      const { before, after, diff } = proposal();
      const { document } = reviewDiagram(before, after, diff);
      const orders = document.tables.find((table) => table.name === 'orders')!;
      expect(orders.columns.map((column) => column.name)).toEqual([
        'id',
        'customer_id',
        'total',
        'tags',
        'paid_at',
      ]);
      expect(orders.columns.find((column) => column.name === 'total')!.driver_data_type_params).toEqual({
        precision: 12,
        scale: 2,
      });
      expect(orders.indexes.map((index) => index.name)).toEqual(['orders_customer', 'orders_total']);
    });

    it('names the endpoints of a removed relationship as the renamed tables are now called', () => {
      const { before, after, diff } = proposal();
      const { document } = reviewDiagram(before, after, diff);
      const selfLink = document.relationships.find((r) => r.source_column === 'referred_by')!;
      expect([selfLink.source_table, selfLink.target_table]).toEqual(['clients', 'clients']);
    });

    it('leaves the before and after documents untouched', () => {
      const { before, after, diff } = proposal();
      const snapshot = JSON.stringify({ before, after });
      reviewDiagram(before, after, diff);
      expect(JSON.stringify({ before, after })).toBe(snapshot);
    });

    it('is the after document itself, unmarked, when nothing changed', () => {
      const { before } = proposal();
      const { document: after, diff } = documentFrom({ strategy: 'merge' }, { base: before });
      const drawing = reviewDiagram(before, after, diff);
      expect(drawing.document.tables).toEqual(after.tables);
      expect(Object.values(drawing.highlight).every((marks: Map<string, string>) => marks.size === 0)).toBe(
        true,
      );
    });
  });

  describe('drawn', () => {
    function drawn() {
      const { before, after, diff } = proposal();
      const { document, highlight } = reviewDiagram(before, after, diff);
      return parseSvg(renderDiagramSvg(document, { highlight }));
    }
    const tableNamed = (root: ReturnType<typeof drawn>, name: string) =>
      withClass(root, 'dss-table').find((node) => withClass(node, 'dss-table-name')[0]!.text === name)!;

    it('gives each marked table its class, and strikes out and dashes the removed one', () => {
      const root = drawn();
      expect(classesOf(tableNamed(root, 'payments'))).toContain('dss-added');
      expect(classesOf(tableNamed(root, 'clients'))).toContain('dss-changed');
      expect(classesOf(tableNamed(root, 'orders'))).toEqual(['dss-table']);
      const invoices = tableNamed(root, 'invoices');
      expect(classesOf(invoices)).toContain('dss-removed');
      expect(withClass(invoices, 'dss-box')[0]!.attributes['stroke-dasharray']).toBe('6 4');
      expect(withClass(invoices, 'dss-strike')).toHaveLength(1);
    });

    it('marks added, changed and removed column rows and the rows of marked indexes, striking out removed rows', () => {
      const orders = tableNamed(drawn(), 'orders');
      const rows = withClass(orders, 'dss-column').map((row) => ({
        name: withClass(row, 'dss-column-name')[0]!.text,
        classes: classesOf(row).slice(1),
        struck: withClass(row, 'dss-strike').length === 1,
      }));
      expect(rows).toEqual([
        { name: 'id', classes: [], struck: false },
        { name: 'customer_id', classes: ['dss-index-removed'], struck: false },
        { name: 'total', classes: ['dss-changed', 'dss-index-added'], struck: false },
        { name: 'tags', classes: ['dss-removed'], struck: true },
        { name: 'paid_at', classes: ['dss-added'], struck: false },
      ]);
    });

    it('draws removed relationships dashed between the rows they linked', () => {
      const root = drawn();
      const relationships = withClass(root, 'dss-relationship').map((node) => ({
        title: titleOf(node),
        mark: classesOf(node)[1],
        dashed: withClass(node, 'dss-line')[0]!.attributes['stroke-dasharray'] === '6 4',
      }));
      expect(relationships).toEqual([
        { title: 'clients.referred_by → clients.id (many-to-one)', mark: 'dss-removed', dashed: true },
        { title: 'invoices.order_id → orders.id (one-to-one)', mark: 'dss-removed', dashed: true },
        { title: 'orders.customer_id → clients.id (many-to-one)', mark: 'dss-changed', dashed: false },
        { title: 'payments.order_id → orders.id (many-to-one)', mark: 'dss-added', dashed: false },
      ]);
    });

    it('marks groups and notes', () => {
      const root = drawn();
      expect(withClass(root, 'dss-group').map((node) => classesOf(node)[1])).toEqual([
        undefined,
        'dss-added',
      ]);
      expect(withClass(root, 'dss-note').map((node) => classesOf(node)[1])).toEqual([
        'dss-removed',
        'dss-added',
      ]);
    });
  });
});
