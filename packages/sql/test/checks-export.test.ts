// CHECK constraints from DDL to the real server and back: the importer reads named and unnamed checks
// (column and table level, CREATE and ALTER TABLE) under the names the server would give them, the export
// writes them, the real PostgreSQL and MariaDB accept the script and list exactly those names, and the
// export imports back to the same checks.
import { createScript } from '../src';
import { importFile } from './corpus';
import { scratchMariadb, scratchPostgres } from './real-db';

const SOURCES = {
  pgsql: `
    CREATE TABLE p (id int PRIMARY KEY, price numeric CHECK (price > 0), a int, b int,
      CONSTRAINT a_lt_b CHECK ((a < b)), CHECK (a > 0 AND b > 0), CHECK (a <> 3), CHECK (b <> 4));
    ALTER TABLE ONLY p ADD CONSTRAINT "odd, name" CHECK (a::text IN ('1', '2', ')'));`,
  mysql: `
    CREATE TABLE p (id int PRIMARY KEY, price int CHECK (price > 0), a int, b int,
      CONSTRAINT \`a_lt_b\` CHECK ((\`a\` < \`b\`)), CHECK (a > 0 AND b > 0), CHECK (a <> 3));
    ALTER TABLE p ADD CONSTRAINT \`odd, name\` CHECK (a IN (1, 2, ')'));`,
};

const NAMES = {
  pgsql: ['p_price_check', 'a_lt_b', 'p_check', 'p_a_check', 'p_b_check', 'odd, name'],
  mysql: ['price', 'a_lt_b', 'CONSTRAINT_1', 'CONSTRAINT_2', 'odd, name'],
};

describe('CHECK constraints exported as SQL', () => {
  it.each(['pgsql', 'mysql'] as const)(
    '%s: should import under the server’s names, load into the real server and import back the same',
    async (driver) => {
      const document = await importFile(driver, SOURCES[driver]);
      const checks = document.tables[0]?.checks ?? [];
      expect(checks.map((check) => check.name)).toEqual(NAMES[driver]);
      const script = createScript(document);
      expect((await importFile(driver, script.sql)).tables[0]?.checks).toEqual(checks);

      // The names the server gives unnamed checks are the importer's: loading the source says so.
      const fromSource = await (driver === 'pgsql' ? scratchPostgres() : scratchMariadb());
      const fromExport = await (driver === 'pgsql' ? scratchPostgres() : scratchMariadb());
      try {
        await fromSource.run(SOURCES[driver]);
        await fromExport.run(script.sql);
        const source = (await fromSource.shape()).tables.p?.checks;
        expect(source).toEqual([...NAMES[driver]].sort());
        expect((await fromExport.shape()).tables.p?.checks).toEqual(source);
        // The constraints hold on the server built from the export.
        await expect(
          fromExport.run('INSERT INTO p (id, price, a, b) VALUES (1, -1, 1, 2)'),
        ).rejects.toThrow();
        await fromExport.run('INSERT INTO p (id, price, a, b) VALUES (1, 5, 1, 2)');
      } finally {
        await fromSource.drop();
        await fromExport.drop();
      }
    },
    60_000,
  );
});
