// Documents for the tests, built the way the service builds them: a patch normalised, validated and
// applied by @dss/schema, with predictable uuids.
import { apply, type DiagramDocument, type Driver, emptyDocument, normalize, validate } from '@dss/schema';

export function uuidCounter(prefix = '00000000-0000-4000-8000-'): () => string {
  let next = 0;
  return () => `${prefix}${String(++next).padStart(12, '0')}`;
}

/** The document a patch makes of `base` (an empty diagram of `driver` by default). */
export function documentFrom(
  patch: object,
  options: { driver?: Driver; base?: DiagramDocument; newUuid?: () => string } = {},
) {
  const driver = options.driver ?? options.base?.driver ?? 'pgsql';
  const base = options.base ?? emptyDocument(driver);
  const result = validate(normalize(patch).patch, base, driver, 'propose');
  if (!result.ok) throw new Error(`fixture patch is invalid: ${JSON.stringify(result.problems)}`);
  return apply(base, result.patch, { newUuid: options.newUuid ?? uuidCounter() });
}

/** A shop: three tables at fixed places, keys of every kind, a self-reference, a group and a note. */
export const shopPatch = {
  strategy: 'merge',
  groups: [{ name: 'Sales', left: 0, top: 0, width: 900, height: 420, color: '#2563eb' }],
  tables: [
    {
      name: 'customers',
      comment: 'People who buy',
      left: 40,
      top: 60,
      width: 300,
      parent_name: 'Sales',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'email', type: 'varchar(255)', is_unique_key: true, is_nullable: false },
        { name: 'referred_by', type: 'bigint' },
      ],
    },
    {
      name: 'orders',
      left: 420,
      top: 60,
      width: 300,
      parent_name: 'Sales',
      color: '#0f766e',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'customer_id', type: 'bigint', is_index: true, is_nullable: false },
        { name: 'total', type: 'decimal(10,2)', default: '0', is_nullable: false },
        { name: 'tags', type: 'text[]', comment: 'Free labels' },
      ],
      indexes: [{ name: 'orders_customer', type: 'index', columns: ['customer_id'] }],
    },
    {
      name: 'invoices',
      left: 420,
      top: 300,
      width: 300,
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'order_id', type: 'bigint', is_unique_key: true, is_nullable: false },
      ],
    },
  ],
  relationships: [
    {
      source_table: 'orders',
      source_column: 'customer_id',
      target_table: 'customers',
      target_column: 'id',
      type: 'many-to-one',
    },
    {
      source_table: 'customers',
      source_column: 'referred_by',
      target_table: 'customers',
      target_column: 'id',
      type: 'many-to-one',
    },
    {
      source_table: 'invoices',
      source_column: 'order_id',
      target_table: 'orders',
      target_column: 'id',
      type: 'one-to-one',
    },
  ],
  sticky_notes: [{ content: 'Totals include tax', left: 960, top: 40, width: 200, height: 100 }],
};
