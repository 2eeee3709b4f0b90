// DBML in: DBML is imported as the DDL of the driver it is written as, through the same readers and
// catalog; a DBML error is ddl_syntax_error at its DBML line and column.
import { convertDbml } from '../src';

const SHOP = `
Enum order_status {
  new
  paid [note: 'money received']
}

Table customers [note: 'People who buy'] {
  id bigint [pk, increment]
  email varchar(200) [not null, unique, note: 'login']
  created timestamp [default: \`now()\`]
}

Table orders {
  id bigint [pk]
  customer_id bigint [not null]
  status order_status [default: 'new']
  total decimal(12,2) [default: 0]

  Indexes {
    (customer_id, status) [name: 'orders_customer_status']
  }
}

Ref orders_customer_fk: orders.customer_id > customers.id [delete: cascade]
`;

describe('DBML import', () => {
  it.each(['pgsql', 'mysql', 'sqlsrv'] as const)(
    '%s: tables, columns with their settings, keys, indexes and references come through',
    async (driver) => {
      const result = await convertDbml(driver, SHOP);
      if (!result.ok) throw new Error(result.message);
      const { document } = result;
      expect(document.tables.map((table) => table.name).sort()).toEqual(['customers', 'orders']);
      const customers = document.tables.find((table) => table.name === 'customers')!;
      const id = customers.columns.find((column) => column.name === 'id')!;
      expect({ pk: id.is_primary_key, auto: id.is_auto_increment, nullable: id.is_nullable }).toEqual({
        pk: true,
        auto: true,
        nullable: false,
      });
      const email = customers.columns.find((column) => column.name === 'email')!;
      expect(email).toMatchObject({
        driver_data_type_name: driver === 'pgsql' ? 'character varying' : 'varchar',
        driver_data_type_params: { length: 200 },
        is_nullable: false,
        is_unique_key: true,
      });
      const orders = document.tables.find((table) => table.name === 'orders')!;
      expect(orders.indexes.find((index) => index.name === 'orders_customer_status')?.columns).toEqual([
        'customer_id',
        'status',
      ]);
      if (driver !== 'sqlsrv') {
        const status = orders.columns.find((column) => column.name === 'status')!;
        expect(status.driver_data_type_name).toBe('enum');
        expect(status.driver_data_type_params?.values).toEqual(['new', 'paid']);
      }
      expect(document.relationships).toEqual([
        expect.objectContaining({
          source_table: 'orders',
          source_column: 'customer_id',
          target_table: 'customers',
          target_column: 'id',
          on_delete: 'cascade',
        }),
      ]);
    },
  );

  it('fails a DBML syntax error with ddl_syntax_error at its DBML line and column', async () => {
    const result = await convertDbml('pgsql', 'Table a {\n  id int [pk\n}\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('ddl_syntax_error');
    expect(result.message).toMatch(/^DBML: /);
    expect(result.line).toBeGreaterThanOrEqual(2);
  });

  it('fails DBML without a table with ddl_no_tables', async () => {
    const result = await convertDbml('mysql', 'Enum e {\n  a\n}\n');
    expect(result).toMatchObject({ ok: false, code: 'ddl_no_tables' });
  });
});
