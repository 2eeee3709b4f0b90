// PostgreSQL in the export: UNIQUE constraints stay constraints (not unique indexes), and sequences typed as their column (`AS integer`, as a dump has it, not the
// default bigint) and owned by it (`OWNED BY`), so dropping the table drops its sequence. Loaded into the
// real PostgreSQL and read back from its catalog.
import { createScript } from '../src';
import { importFile } from './corpus';
import { scratchPostgres } from './real-db';

const DUMP = `
  CREATE SCHEMA billing;
  CREATE TABLE account (id integer NOT NULL DEFAULT nextval('account_id_seq'::regclass), name text);
  CREATE TABLE billing.invoice (id bigint NOT NULL DEFAULT nextval('billing.invoice_id_seq'::regclass),
    line smallint DEFAULT nextval('billing.invoice_line_seq'::regclass));
  CREATE TABLE copy (id integer DEFAULT nextval('account_id_seq'::regclass));`;

describe('PostgreSQL UNIQUE constraints in the SQL export', () => {
  it('should keep a UNIQUE constraint a constraint and a unique index an index, on the real server', async () => {
    const document = await importFile(
      'pgsql',
      `CREATE TABLE account (id integer PRIMARY KEY, email text UNIQUE, login text, code text,
         CONSTRAINT account_login_key UNIQUE (login));
       CREATE UNIQUE INDEX account_code_idx ON account (code);`,
    );
    const database = await scratchPostgres();
    try {
      await database.run(createScript(document).sql);
      const constraints = await database.rows(
        `SELECT conname FROM pg_constraint WHERE contype = 'u' AND conrelid = 'account'::regclass ORDER BY 1`,
      );
      expect(constraints.map((row) => row.conname)).toEqual(['account_email_key', 'account_login_key']);
      // What frameworks do: drop the constraint by name; the index is dropped as an index.
      await database.run('ALTER TABLE account DROP CONSTRAINT account_login_key');
      await database.run('DROP INDEX account_code_idx');
    } finally {
      await database.drop();
    }
  });
});

describe('PostgreSQL sequences in the SQL export', () => {
  it('should create each sequence with its column’s type, owned by the first column that uses it', async () => {
    const script = createScript(await importFile('pgsql', DUMP));
    const database = await scratchPostgres();
    try {
      await database.run(script.sql);
      const sequences = await database.rows(
        `SELECT n.nspname || '.' || c.relname AS sequence, format_type(s.seqtypid, NULL) AS type,
                (SELECT t.relname || '.' || a.attname FROM pg_depend d
                   JOIN pg_class t ON t.oid = d.refobjid
                   JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                  WHERE d.objid = c.oid AND d.deptype = 'a' AND d.refclassid = 'pg_class'::regclass) AS owner
           FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          ORDER BY 1`,
      );
      expect(sequences).toEqual([
        { sequence: 'billing.invoice_id_seq', type: 'bigint', owner: 'invoice.id' },
        { sequence: 'billing.invoice_line_seq', type: 'smallint', owner: 'invoice.line' },
        { sequence: 'public.account_id_seq', type: 'integer', owner: 'account.id' },
      ]);
      // Dropping the owning table drops its sequence (the other user's default goes with it).
      await database.run('DROP TABLE account CASCADE');
      const left = await database.rows(`SELECT relname FROM pg_class WHERE relkind = 'S' ORDER BY 1`);
      expect(left.map((row) => row.relname)).toEqual(['invoice_id_seq', 'invoice_line_seq']);
    } finally {
      await database.drop();
    }
  });
});
