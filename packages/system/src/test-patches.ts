// Schema patches several services' tests send: one definition, so a test of the gateway, the proposals
// service and the web app speak of the same small shop.

/** Two tables, customers (id, email) and orders (id), no relationship; `extra` adds or replaces members. */
export function twoTableShopPatch(extra: Record<string, unknown> = {}) {
  return {
    strategy: 'merge',
    tables: [
      {
        name: 'customers',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'email', type: 'varchar(255)' },
        ],
      },
      { name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
    ],
    ...extra,
  };
}
