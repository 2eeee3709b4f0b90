// DBML in keeps what the DDL written from it cannot carry: TableGroups (and their notes) become groups,
// Note blocks sticky notes, CHECK constraints, primary-key names and expression defaults come back as
// written, and warnings point at the DBML line and column of the column or table they are about.
import { convertDbml } from '../src';

const SOURCE = `Table users {
  id int [pk, increment]
  created timestamp [default: \`now()\`]
  price int [check: \`price > 1\`]
  odd frobnicator
  checks {
    \`price < 100\` [name: 'price_small']
  }
}

Table orders {
  id int
  user_id int [ref: > users.id]

  Indexes {
    id [pk, name: 'orders_primary']
  }
}

Table loose {
  id int
}

TableGroup shop [note: 'the shop'] {
  users
  orders
}

Note sticky {
  'remember the milk'
}
`;

describe('DBML in: canvas, checks, key names, defaults and warning places', () => {
  it.each(['pgsql', 'mysql'] as const)(
    '%s: should keep groups, notes, checks and defaults',
    async (driver) => {
      const result = await convertDbml(driver, SOURCE);
      if (!result.ok) throw new Error(result.message);
      const { document } = result;
      const shop = document.groups.find((group) => group.name === 'shop');
      expect(shop).toBeDefined();
      const inShop = document.tables.filter((table) => table.parent_uuid === shop?.uuid).map((t) => t.name);
      expect(inShop.sort()).toEqual(['orders', 'users']);
      expect(document.tables.find((table) => table.name === 'loose')?.parent_uuid).toBeNull();
      expect(
        document.sticky_notes.map((note) => [note.content, note.parent_uuid === shop?.uuid]).sort(),
      ).toEqual([
        ['remember the milk', false],
        ['the shop', true],
      ]);
      const users = document.tables.find((table) => table.name === 'users');
      expect(users?.columns.find((column) => column.name === 'created')?.default).toBe('now()');
      expect(users?.checks?.map((check) => check.name)).toContain('price_small');
      // The group encloses its tables on the canvas.
      for (const table of document.tables.filter((t) => t.parent_uuid === shop?.uuid)) {
        expect(table.left).toBeGreaterThanOrEqual(shop?.left ?? Number.NaN);
        expect(table.left + table.width).toBeLessThanOrEqual((shop?.left ?? 0) + (shop?.width ?? 0));
      }
    },
  );

  it('should keep a PostgreSQL primary key’s name', async () => {
    const result = await convertDbml('pgsql', SOURCE);
    if (!result.ok) throw new Error(result.message);
    const orders = result.document.tables.find((table) => table.name === 'orders');
    expect(orders?.indexes.find((index) => index.type === 'primary')?.name).toBe('orders_primary');
  });

  it.each(['pgsql', 'mysql'] as const)(
    '%s: should point a warning at the DBML column it is about',
    async (driver) => {
      const result = await convertDbml(driver, SOURCE);
      if (!result.ok) throw new Error(result.message);
      const warning = result.warnings.find((entry) => entry.message.includes('frobnicator'));
      expect(warning).toMatchObject({ line: 5, column: 3 });
    },
  );
});
