// Small, focused cases beside the fixtures.
import { convertDdl } from '../src';

async function columnsOf(driver: 'mysql' | 'pgsql' | 'sqlsrv', sql: string) {
  const result = await convertDdl(driver, sql);
  if (!result.ok) throw new Error(result.message);
  return result.document.tables.flatMap((table) =>
    table.columns.map((column) => [`${table.name}.${column.name}`, column.default, column.is_auto_increment]),
  );
}

describe('defaults', () => {
  it('pgsql: ALTER TABLE with several SET DEFAULT sub-commands sets each column its own expression', async () => {
    const sql =
      "CREATE TABLE a (id int, v text, w numeric);\nALTER TABLE ONLY a ALTER COLUMN v SET DEFAULT 'x'::text, " +
      "ALTER COLUMN id SET DEFAULT nextval('s'::regclass), ALTER COLUMN w SET DEFAULT ((1 + 2)) * 3;";
    expect(await columnsOf('pgsql', sql)).toEqual([
      ['a.id', "nextval('s'::regclass)", true],
      ['a.v', "'x'::text", false],
      ['a.w', '((1 + 2)) * 3', false],
    ]);
  });

  it('pgsql: DEFAULT NULL is no default; a default before NOT NULL stops there', async () => {
    const sql = "CREATE TABLE a (x text DEFAULT NULL, y text DEFAULT 'a b' NOT NULL, z int DEFAULT (1));";
    expect(await columnsOf('pgsql', sql)).toEqual([
      ['a.x', null, false],
      ['a.y', "'a b'", false],
      ['a.z', '(1)', false],
    ]);
  });

  it('mysql: literal, NULL, function and bit defaults', async () => {
    const sql =
      "CREATE TABLE a (x varchar(3) DEFAULT 'it''s', y int DEFAULT NULL, z datetime DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, id int AUTO_INCREMENT PRIMARY KEY);";
    expect(await columnsOf('mysql', sql)).toEqual([
      ['a.x', "'it''s'", false],
      ['a.y', null, false],
      ['a.z', 'CURRENT_TIMESTAMP', false],
      ['a.id', null, true],
    ]);
  });
});

describe('relationships', () => {
  it('mysql: a composite foreign key becomes one relationship per column pair; PK-equal FK columns are one-to-one', async () => {
    const result = await convertDdl(
      'mysql',
      'CREATE TABLE c (id int, k int, PRIMARY KEY (id, k)); CREATE TABLE d (x int, y int, PRIMARY KEY (x, y), CONSTRAINT f FOREIGN KEY (x, y) REFERENCES c (id, k));',
    );
    if (!result.ok) throw new Error(result.message);
    expect(
      result.document.relationships.map((r) => [r.name, r.type, r.source_column, r.target_column]),
    ).toEqual([
      ['f', 'one-to-one', 'x', 'id'],
      ['f', 'one-to-one', 'y', 'k'],
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('pgsql: a foreign key to an undefined table is skipped with a warning', async () => {
    const result = await convertDdl('pgsql', 'CREATE TABLE a (id int REFERENCES missing (id));');
    if (!result.ok) throw new Error(result.message);
    expect(result.document.relationships).toEqual([]);
    expect(result.warnings).toEqual([
      {
        line: 1,
        column: 17,
        code: 'foreign_key_skipped',
        message: 'foreign key (a.id → missing): table missing is not defined; skipped',
        statement: 'CREATE TABLE a (id int REFERENCES missing (id))',
      },
    ]);
    expect(result.warnings_total).toBe(1);
  });
});

describe('mysql pre-cleaning', () => {
  it('reads DOUBLE PRECISION, SIGNED/UNSIGNED ZEROFILL and drops a PARTITION BY clause', async () => {
    const result = await convertDdl(
      'mysql',
      'CREATE TABLE a (x double precision, z tinyint(1) unsigned zerofill, `partition by` bigint signed) ENGINE=InnoDB\n' +
        '/*!50100 PARTITION BY RANGE (x)\n(PARTITION p0 VALUES LESS THAN (10) ENGINE = InnoDB) */;',
    );
    if (!result.ok) throw new Error(result.message);
    expect(
      result.document.tables[0]?.columns.map((c) => [
        c.name,
        c.driver_data_type_name,
        c.driver_data_type_params,
        c.is_unsigned,
      ]),
    ).toEqual([
      ['x', 'double', null, false],
      ['z', 'tinyint', { length: 1 }, true],
      ['partition by', 'bigint', null, false],
    ]);
  });
});

describe('names', () => {
  it('sqlsrv: names that are keywords of the T-SQL grammar ([value], [query]) arrive without their brackets everywhere', async () => {
    const result = await convertDdl(
      'sqlsrv',
      `CREATE TABLE [value] ([id] int NOT NULL PRIMARY KEY, [value] nvarchar(10), [query] int UNIQUE,
         CONSTRAINT [uq] UNIQUE ([value]), CONSTRAINT [ck] CHECK ([query] > 0));
       CREATE INDEX [ix] ON [value] ([query], [value]);
       CREATE TABLE [t2] ([id] int PRIMARY KEY, [query] int,
         CONSTRAINT [fk] FOREIGN KEY ([query]) REFERENCES [value]([query]));
       CREATE TABLE [odd]] name] ([a]]b] int);`,
    );
    if (!result.ok) throw new Error(result.message);
    const tables = result.document.tables;
    expect(tables.map((table) => table.name)).toEqual(['value', 't2', 'odd] name']);
    expect(tables[0]!.columns.map((column) => column.name)).toEqual(['id', 'value', 'query']);
    expect(tables[2]!.columns.map((column) => column.name)).toEqual(['a]b']);
    expect(tables[0]!.indexes.map((index) => [index.name, index.columns])).toEqual(
      expect.arrayContaining([
        ['uq', ['value']],
        ['ix', ['query', 'value']],
      ]),
    );
    expect(
      result.document.relationships.map((r) => [
        r.source_table,
        r.source_column,
        r.target_table,
        r.target_column,
      ]),
    ).toEqual([['t2', 'query', 'value', 'query']]);
  });
});
