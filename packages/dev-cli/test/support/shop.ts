/** The schema the developer CLI's tests load into a live PostgreSQL database. */
export const SHOP_DDL = `
  CREATE TABLE customers (id bigint PRIMARY KEY, email varchar(255) NOT NULL UNIQUE);
  CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id bigint NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    placed_at timestamp NOT NULL
  );
  CREATE INDEX orders_customer ON orders (customer_id);`;
