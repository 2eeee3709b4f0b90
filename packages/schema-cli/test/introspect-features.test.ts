// Introspection of what the corpus lacks, on real PostgreSQL: a schema other than public, an enum type, an
// identity column, a composite foreign key with its actions, a comment; views and expression indexes are
// left out with a warning each, and the collector's type fallback is reported, never fatal.
import { introspect } from '../src/introspect';
import { type LiveDatabase, livePostgres } from './support/live-databases';

describe('introspect: PostgreSQL features', () => {
  let database: LiveDatabase;

  beforeAll(async () => {
    database = await livePostgres();
    await database.run(`
      CREATE SCHEMA billing;
      CREATE TYPE mood AS ENUM ('happy', 'it''s ok');
      CREATE TABLE billing.accounts (
        region text NOT NULL, number int NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        feeling mood,
        PRIMARY KEY (region, number));
      COMMENT ON TABLE billing.accounts IS 'Who pays';
      CREATE TABLE invoices (
        id serial PRIMARY KEY, region text NOT NULL, number int NOT NULL,
        CONSTRAINT invoices_account FOREIGN KEY (region, number) REFERENCES billing.accounts (region, number)
          ON DELETE SET NULL ON UPDATE CASCADE);
      CREATE INDEX invoices_lower_region ON invoices (lower(region));
      CREATE VIEW open_invoices AS SELECT * FROM invoices;`);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('should read schemas, enums, identity, serial, composite keys with actions and comments; warn for views', async () => {
    const { document, warnings } = await introspect(database.url);
    expect(document.tables.map((table) => table.name).sort()).toEqual(['billing.accounts', 'invoices']);
    const accounts = document.tables.find((table) => table.name === 'billing.accounts')!;
    expect(accounts.comment).toBe('Who pays');
    const column = (name: string) => accounts.columns.find((c) => c.name === name)!;
    expect(column('id')).toMatchObject({
      driver_data_type_name: 'bigint',
      is_auto_increment: true,
      is_nullable: false,
    });
    expect(column('feeling')).toMatchObject({
      driver_data_type_name: 'enum',
      driver_data_type_params: { values: ['happy', "it's ok"] },
    });
    expect(accounts.columns.filter((c) => c.is_primary_key).map((c) => c.name)).toEqual(['region', 'number']);
    const invoices = document.tables.find((table) => table.name === 'invoices')!;
    expect(invoices.columns[0]).toMatchObject({
      name: 'id',
      driver_data_type_name: 'serial',
      is_auto_increment: true,
    });
    expect(
      document.relationships.map((r) => [
        r.name,
        r.source_column,
        r.target_table,
        r.target_column,
        r.on_delete,
        r.on_update,
      ]),
    ).toEqual([
      ['invoices_account', 'region', 'billing.accounts', 'region', 'set null', 'cascade'],
      ['invoices_account', 'number', 'billing.accounts', 'number', 'set null', 'cascade'],
    ]);
    expect(warnings).toEqual([
      'view open_invoices: views are not part of a diagram; skipped',
      'index invoices_lower_region on invoices: an expression index has no columns to draw; skipped',
    ]);
  });
});
