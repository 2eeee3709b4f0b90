import { convertDdl } from '../src';

describe('errors', () => {
  it('reports a syntax error in a CREATE TABLE with its line and column (pgsql)', async () => {
    const sql = 'SET x = 1;\n\nCREATE TABLE a (\n  id integer,\n  name text nope nope\n);\n';
    const result = await convertDdl('pgsql', sql);
    expect(result).toEqual({
      ok: false,
      code: 'ddl_syntax_error',
      message: expect.stringMatching(/^line 5, column 13: syntax error at or near "nope"/),
      line: 5,
      column: 13,
    });
  });

  it('skips a statement that does not shape the schema and does not parse, with a warning (pgsql)', async () => {
    const result = await convertDdl('pgsql', 'CREATE FUNCTION f( RETURNS;\nCREATE TABLE a (id int);');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.skipped).toBe(1);
      expect(result.warnings[0]).toMatch(/^line 1, column \d+: syntax error .*\(statement skipped\)$/);
      expect(result.document.tables.map((table) => table.name)).toEqual(['a']);
    }
  });

  it('reports a syntax error in a CREATE TABLE with its line and column (mysql)', async () => {
    const sql =
      'SET NAMES utf8mb4;\n/* banner */\nCREATE TABLE `a` (\n  `id` int NOT NULL,\n  `name` varchar(10) NOPE\n);\n';
    const result = await convertDdl('mysql', sql);
    expect(result).toMatchObject({ ok: false, code: 'ddl_syntax_error', line: 5, column: 22 });
    if (!result.ok) expect(result.message).toMatch(/^line 5, column 22: /);
  });

  it('reports a syntax error in a CREATE TABLE with its line and column (sqlsrv)', async () => {
    const sql =
      'SET NOCOUNT ON\nGO\nCREATE TABLE [dbo].[A](\n  [Id] [int] NOT NULL,\n  [Name] [nvarchar](10) NOT NULL PRIMARY KEY KEY\n)\nGO\n';
    const result = await convertDdl('sqlsrv', sql);
    expect(result).toMatchObject({ ok: false, code: 'ddl_syntax_error', line: 5, column: 46 });
    if (!result.ok) expect(result.message).toMatch(/^line 5, column 46: .*'KEY'/);
  });

  it('reports a syntax error in an ALTER TABLE of a later batch at its own line and column (sqlsrv)', async () => {
    const sql =
      'CREATE TABLE [dbo].[A](\n  [Id] [int] NOT NULL\n)\nGO\nCREATE TABLE [B]([Id] int)\nGO\n' +
      'ALTER TABLE [dbo].[A] ADD CONSTRAINT [PK_A] PRIMARY KEY CLUSTERED ([Id] ASC)\nGO\n' +
      'ALTER TABLE [dbo].[A]\n  ADD CONSTRAINT [DF_A] DEFAULT ((0)) FOR FOR [Id]\nGO\n';
    const result = await convertDdl('sqlsrv', sql);
    expect(result).toMatchObject({ ok: false, code: 'ddl_syntax_error', line: 10, column: 43 });
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
