import { LineMap, splitStatements } from '../src';

const texts = (driver: 'mysql' | 'pgsql' | 'sqlsrv', sql: string) =>
  splitStatements(driver, sql).map((piece) => piece.text.trim());

describe('splitStatements', () => {
  it('pgsql: steps over dollar quoting, E-strings, nested comments; meta-commands stand alone', () => {
    const sql = [
      '\\connect shop',
      'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;',
      "SELECT E'it\\'s; fine', 'a''b;c';",
      '/* outer /* inner; */ still comment; */ CREATE TABLE a (id int);',
    ].join('\n');
    expect(texts('pgsql', sql)).toEqual([
      '\\connect shop',
      'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql',
      "SELECT E'it\\'s; fine', 'a''b;c'",
      'CREATE TABLE a (id int)',
    ]);
  });

  it('pgsql: the data rows of COPY … FROM stdin up to the \\. line are not statements', () => {
    const sql = [
      'COPY public.a (id, note) FROM stdin;',
      '1\tfirst; with a semicolon',
      '2\tCREATE TABLE nope (id int);',
      '\\.',
      'CREATE TABLE b (id int);',
    ].join('\n');
    expect(texts('pgsql', sql)).toEqual(['COPY public.a (id, note) FROM stdin', 'CREATE TABLE b (id int)']);
  });

  it('mysql: DELIMITER, version comments opened, other comments blanked, # comments', () => {
    const sql = [
      '/*!40101 SET NAMES utf8mb4 */;',
      '# a comment; with a semicolon',
      'DELIMITER ;;',
      'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END ;;',
      'DELIMITER ;',
      "CREATE TABLE a (x int COMMENT 'a;b' /* c; */);",
    ].join('\n');
    expect(texts('mysql', sql)).toEqual([
      'SET NAMES utf8mb4',
      'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; END',
      "CREATE TABLE a (x int COMMENT 'a;b'         )",
    ]);
  });

  it('sqlsrv: GO lines (any case, with a count) end batches; brackets and strings are stepped over', () => {
    const sql = "CREATE TABLE [a;GO] (x int)\ngo\nSELECT 'GO\nGO'\nGO 2\nPRINT 'x'";
    expect(texts('sqlsrv', sql)).toEqual(['CREATE TABLE [a;GO] (x int)', "SELECT 'GO\nGO'", "PRINT 'x'"]);
  });

  it('keeps offsets: a piece starts where its text starts in the script', () => {
    const sql = 'SET a = 1;\n-- note\nCREATE TABLE b (id int);';
    for (const piece of splitStatements('pgsql', sql)) {
      const trimmed = piece.text.trimStart();
      const start = piece.offset + piece.text.length - trimmed.length;
      expect(sql.slice(start, start + 6)).toBe(trimmed.slice(0, 6));
    }
    expect(new LineMap(sql).at(sql.indexOf('CREATE'))).toEqual({ line: 3, column: 1 });
  });
});
