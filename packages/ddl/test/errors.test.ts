// Tolerant by statement: what the parser cannot read is skipped (or, inside a CREATE/ALTER TABLE, the clause
// is dropped) and listed as a warning with its line and column; the import fails only when no table is left.
import { convertDdl, type DdlWarning } from '../src';

function ok(result: Awaited<ReturnType<typeof convertDdl>>) {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result;
}

function columnsOf(result: ReturnType<typeof ok>, table: string) {
  return result.document.tables
    .find((t) => t.name === table)
    ?.columns.map((c) => [c.name, c.driver_data_type_name, c.is_nullable, c.is_primary_key]);
}

describe('errors', () => {
  it('drops an attribute the parser cannot read, not the column (pgsql)', async () => {
    const sql =
      'SET x = 1;\n\nCREATE TABLE a (\n  id integer PRIMARY KEY,\n  name text nope,\n  b int NOT NULL\n);\n';
    const result = ok(await convertDdl('pgsql', sql));
    expect(columnsOf(result, 'a')).toEqual([
      ['id', 'integer', false, true],
      ['name', 'text', true, false],
      ['b', 'integer', false, false],
    ]);
    expect(result.warnings).toEqual<DdlWarning[]>([
      {
        line: 5,
        column: 13,
        code: 'clause_dropped',
        message: 'table a: column name: "nope" could not be read; dropped',
        statement: 'CREATE TABLE a ( id integer PRIMARY KEY, name text nope, b int NOT NULL )',
      },
    ]);
  });

  it('skips a statement that does not parse with a warning naming its line and column, and keeps the rest (pgsql)', async () => {
    const result = ok(
      await convertDdl('pgsql', 'CREATE TABLE a (id int);\nCREATE TABLE (broken;\nCREATE TABLE b (id int);'),
    );
    expect(result.document.tables.map((table) => table.name)).toEqual(['a', 'b']);
    expect(result.skipped).toBe(1);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        line: 2,
        column: 14,
        code: 'statement_skipped',
        statement: 'CREATE TABLE (broken',
      }),
    ]);
    expect(result.warnings[0]?.message).toMatch(/^statement skipped: syntax error at or near "\("/);
  });

  it('skips a non-schema statement the parser lacks syntax for quietly (pgsql function, mysql SET NAMES)', async () => {
    const pg = ok(await convertDdl('pgsql', 'CREATE FUNCTION f( RETURNS;\nCREATE TABLE a (id int);'));
    expect(pg.skipped).toBe(1);
    expect(pg.warnings).toEqual([]);
    const my = ok(await convertDdl('mysql', 'SET NAMES utf8mb4;\nCREATE TABLE a (id int);'));
    expect(my.skipped).toBe(1);
    expect(my.warnings).toEqual([]);
  });

  it('drops an unknown column attribute and unreadable table options (mysql)', async () => {
    const sql =
      'SET NAMES utf8mb4;\n/* banner */\nCREATE TABLE `a` (\n  `id` int NOT NULL,\n  `name` varchar(10) NOPE,\n  b int NOT NULL, PRIMARY KEY (id)\n) ENGINE=InnoDB FOO=BAR;\n';
    const result = ok(await convertDdl('mysql', sql));
    expect(columnsOf(result, 'a')).toEqual([
      ['id', 'int', false, true],
      ['name', 'varchar', true, false],
      ['b', 'int', false, false],
    ]);
    expect(result.warnings.map((w) => [w.line, w.column, w.code])).toEqual([
      [5, 22, 'clause_dropped'],
      [7, 17, 'table_options_dropped'],
    ]);
  });

  it('keeps a column whose type the parser rejects, as text, with a warning naming the type (mysql)', async () => {
    const result = ok(await convertDdl('mysql', 'CREATE TABLE t (id int PRIMARY KEY, ip inet6 NOT NULL);'));
    expect(columnsOf(result, 't')).toEqual([
      ['id', 'int', false, true],
      ['ip', 'text', false, false],
    ]);
    expect(result.warnings[0]).toMatchObject({ code: 'clause_dropped', line: 1, column: 40 });
    expect(result.warnings[0]?.message).toContain('type "inet6"');
  });

  it('drops a doubled keyword in a column definition (sqlsrv)', async () => {
    const sql =
      'SET NOCOUNT ON\nGO\nCREATE TABLE [dbo].[A](\n  [Id] [int] NOT NULL,\n  [Name] [nvarchar](10) NOT NULL PRIMARY KEY KEY\n)\nGO\n';
    const result = ok(await convertDdl('sqlsrv', sql));
    expect(columnsOf(result, 'A')).toEqual([
      ['Id', 'int', false, false],
      ['Name', 'nvarchar', false, true],
    ]);
    expect(result.warnings).toEqual([
      expect.objectContaining({ line: 5, column: 46, code: 'clause_dropped' }),
    ]);
  });

  it('repairs an ALTER TABLE of a later batch at its own line and column, keeping the earlier ones (sqlsrv)', async () => {
    const sql =
      'CREATE TABLE [dbo].[A](\n  [Id] [int] NOT NULL\n)\nGO\nCREATE TABLE [B]([Id] int)\nGO\n' +
      'ALTER TABLE [dbo].[A] ADD CONSTRAINT [PK_A] PRIMARY KEY CLUSTERED ([Id] ASC)\nGO\n' +
      'ALTER TABLE [dbo].[A]\n  ADD CONSTRAINT [DF_A] DEFAULT ((0)) FOR FOR [Id]\nGO\n';
    const result = ok(await convertDdl('sqlsrv', sql));
    expect(columnsOf(result, 'A')).toEqual([['Id', 'int', false, true]]);
    expect(result.warnings).toEqual([
      expect.objectContaining({ line: 10, column: 43, code: 'clause_dropped' }),
    ]);
  });

  it('skips an unreadable table statement of SQL Server and keeps the other tables', async () => {
    const sql =
      'CREATE TABLE [A]([Id] int)\nGO\nCREATE TABLE ([B] int)\nGO\nCREATE TABLE [C]([Id] int)\nGO\n';
    const result = ok(await convertDdl('sqlsrv', sql));
    expect(result.document.tables.map((t) => t.name).sort()).toEqual(['A', 'C']);
    expect(result.warnings).toEqual([expect.objectContaining({ line: 3, code: 'statement_skipped' })]);
  });

  it.each([
    ['pgsql', 'CREATE TABLE a (\n  id integer,\n  name text nope nope\n', 3, 13],
    ['mysql', 'this is not sql', 1, 6],
    ['sqlsrv', 'CREATE TABLE (x int)\nGO\n', 1, 14],
  ] as const)(
    '%s: nothing readable → ddl_syntax_error with the first line and column',
    async (driver, sql, line, column) => {
      const result = await convertDdl(driver, sql);
      expect(result).toMatchObject({ ok: false, code: 'ddl_syntax_error', line, column });
      if (!result.ok)
        expect(result.message).toMatch(
          new RegExp(`^line ${line}, column ${column}: .*no table could be read`),
        );
    },
  );

  it.each(['pgsql', 'mysql'] as const)(
    '%s: drops a doubled or trailing comma in a column list',
    async (driver) => {
      const result = ok(await convertDdl(driver, 'CREATE TABLE b (id int,, name text,\n);'));
      expect(columnsOf(result, 'b')?.map((c) => c[0])).toEqual(['id', 'name']);
      expect(result.warnings.map((w) => [w.line, w.code])).toEqual([
        [1, 'clause_dropped'],
        [1, 'clause_dropped'],
      ]);
    },
  );

  it.each(['pgsql', 'mysql'] as const)(
    '%s: drops the unreadable sub-command of an ALTER TABLE, keeps the others',
    async (driver) => {
      const sql =
        'CREATE TABLE u (id int PRIMARY KEY);\nCREATE TABLE t (id int PRIMARY KEY, a int, b int);\n' +
        'ALTER TABLE t ADD COLUMN c int, ADD FOO BAR BAZ, ADD CONSTRAINT fk FOREIGN KEY (b) REFERENCES u (id);';
      const result = ok(await convertDdl(driver, sql));
      expect(columnsOf(result, 't')?.map((c) => c[0])).toEqual(['id', 'a', 'b', 'c']);
      expect(result.document.relationships.map((r) => [r.source_column, r.target_table])).toEqual([
        ['b', 'u'],
      ]);
      expect(result.warnings).toEqual([
        expect.objectContaining({
          line: 3,
          column: 32,
          code: 'element_dropped',
          message: 'ALTER TABLE t: "ADD FOO BAR BAZ" could not be read; dropped',
        }),
      ]);
    },
  );

  it.each(['pgsql', 'mysql'] as const)(
    '%s: says so when an ALTER TABLE drops or renames what the diagram keeps',
    async (driver) => {
      const sql =
        'ALTER TABLE t DROP COLUMN x;\nCREATE TABLE t (id int PRIMARY KEY, a int, b int);\n' +
        'ALTER TABLE t DROP COLUMN a;\nALTER TABLE t RENAME COLUMN b TO c;';
      const result = ok(await convertDdl(driver, sql));
      expect(columnsOf(result, 't')?.map((c) => c[0])).toEqual(['id', 'a', 'b']);
      // The first ALTER comes before the table (a --clean preamble): nothing to say about it.
      expect(result.warnings.map((w) => [w.line, w.code])).toEqual([
        [3, 'not_imported'],
        [4, 'not_imported'],
      ]);
    },
  );

  it('keeps at most 100 warnings and counts them all', async () => {
    const columns = Array.from({ length: 130 }, (_, i) => `c${i} citext`).join(', ');
    const result = ok(await convertDdl('pgsql', `CREATE TABLE t (${columns});`));
    expect(result.warnings).toHaveLength(100);
    expect(result.warnings_total).toBe(130);
    expect(result.warnings[0]).toMatchObject({ code: 'type_substituted', line: 1, column: 17 });
    expect(result.warnings[0]?.statement.length).toBeLessThanOrEqual(200);
  });

  it.each([
    ['sqlsrv', 'USE [x]\nGO\nCREATE PROCEDURE p AS BEGIN CREATE TABLE #t (id int) END\nGO\n'],
    ['mysql', 'SET NAMES utf8mb4;\nDROP TABLE IF EXISTS `a`;\nINSERT INTO `a` VALUES (1);'],
    ['pgsql', 'SET client_encoding = 1; CREATE VIEW v AS SELECT 1;'],
    ['pgsql', '-- nothing but a comment\n'],
  ] as const)('%s: no tables → ddl_no_tables', async (driver, sql) => {
    const result = await convertDdl(driver, sql);
    expect(result).toMatchObject({ ok: false, code: 'ddl_no_tables' });
  });
});
