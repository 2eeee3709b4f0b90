// Collations, character sets, index methods and notes, enum names, MySQL database prefixes and SQL Server
// CHECK constraints from DDL and DBML to the real servers and back: the importer keeps what the source
// says, the export writes it, the real PostgreSQL and MariaDB built from the export hold the same
// collations and index methods in their catalogs as the ones built from the source, and importing the
// export (SQL or DBML) gives the same document back.
import { randomBytes } from 'node:crypto';
import { convertDbml, convertDdl } from '@dss/ddl';
import type { DiagramDocument } from '@dss/schema';
import { createScript, dbmlScript } from '../src';
import { importFile, schemaOf } from './corpus';
import { catalogSettings, scratchMariadb, scratchPostgres } from './real-db';

const PG_SOURCE = `
  CREATE TYPE mood AS ENUM ('happy', 'sad');
  CREATE TABLE person (id integer PRIMARY KEY, name varchar(40) COLLATE "C" NOT NULL, nick text,
    feeling mood, tags text[]);
  CREATE INDEX person_name_hash ON person USING hash (name);
  CREATE INDEX person_tags_gin ON person USING gin (tags);
  CREATE INDEX person_nick_idx ON person (nick);`;

const MYSQL_SOURCE = `
  CREATE TABLE person (id int NOT NULL PRIMARY KEY,
    name varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    bio text, feeling enum('happy','sad'),
    FULLTEXT KEY person_bio_ft (bio), KEY person_name_h (name) USING HASH
  ) ENGINE=InnoDB DEFAULT CHARSET=latin1 COLLATE=latin1_general_ci;`;

function table(document: DiagramDocument, name: string) {
  const found = document.tables.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no table ${name}`);
  return found;
}

describe('collations, index methods and enum names on real servers', () => {
  it('pgsql: keeps COLLATE, USING hash/gin and the enum type name through the export, into the catalog', async () => {
    const document = await importFile('pgsql', PG_SOURCE);
    const person = table(document, 'person');
    expect(person.columns.find((column) => column.name === 'name')?.collation).toBe('C');
    expect(person.columns.find((column) => column.name === 'nick')?.collation).toBeUndefined();
    expect(person.columns.find((column) => column.name === 'feeling')?.enum_name).toBe('mood');
    expect(person.indexes.map((index) => [index.name, index.method])).toEqual([
      ['person_pkey', undefined],
      ['person_name_hash', 'hash'],
      ['person_tags_gin', 'gin'],
      ['person_nick_idx', undefined],
    ]);
    const script = createScript(document).sql;
    expect(script).toContain('CREATE TYPE "mood" AS ENUM');
    expect(script).toContain('USING hash ("name")');
    expect(schemaOf(await importFile('pgsql', script))).toEqual(schemaOf(document));

    const fromSource = await scratchPostgres();
    const fromExport = await scratchPostgres();
    try {
      await fromSource.run(PG_SOURCE);
      await fromExport.run(script);
      const settings = catalogSettings(await fromExport.shape());
      expect(settings.person).toEqual({
        collations: ['name C'],
        collation: undefined,
        methods: ['person_name_hash hash', 'person_tags_gin gin'],
      });
      expect(settings).toEqual(catalogSettings(await fromSource.shape()));
      expect(await fromExport.rows(`SELECT typname FROM pg_type WHERE typname = 'mood'`)).toEqual([
        { typname: 'mood' },
      ]);
    } finally {
      await fromSource.drop();
      await fromExport.drop();
    }
  });

  it('mysql: keeps column collations, the table charset and collation and FULLTEXT, into the catalog', async () => {
    const document = await importFile('mysql', MYSQL_SOURCE);
    const person = table(document, 'person');
    expect({ charset: person.charset, collation: person.collation }).toEqual({
      charset: 'latin1',
      collation: 'latin1_general_ci',
    });
    expect(person.columns.find((column) => column.name === 'name')?.collation).toBe('utf8mb4_bin');
    expect(person.indexes.map((index) => [index.name, index.method])).toEqual([
      ['PRIMARY', undefined],
      ['person_bio_ft', 'fulltext'],
      ['person_name_h', 'hash'],
    ]);
    const script = createScript(document).sql;
    expect(script).toContain('FULLTEXT KEY `person_bio_ft` (`bio`)');
    expect(script).toContain(') DEFAULT CHARSET=latin1 COLLATE=latin1_general_ci');
    expect(schemaOf(await importFile('mysql', script))).toEqual(schemaOf(document));

    const fromSource = await scratchMariadb();
    const fromExport = await scratchMariadb();
    try {
      await fromSource.run(MYSQL_SOURCE);
      await fromExport.run(script);
      const settings = catalogSettings(await fromExport.shape());
      // InnoDB keeps a HASH key as BTREE (the catalog says so); FULLTEXT is its own kind.
      expect(settings.person).toEqual({
        collations: ['name utf8mb4_bin'],
        collation: 'latin1_general_ci',
        methods: ['person_bio_ft fulltext'],
      });
      expect(settings).toEqual(catalogSettings(await fromSource.shape()));
    } finally {
      await fromSource.drop();
      await fromExport.drop();
    }
  });

  it('mysql: keeps the prefix of a table in another database, and the export creates that database', async () => {
    const other = `dss_other_${randomBytes(4).toString('hex')}`;
    const document = await importFile(
      'mysql',
      `USE shop;
       CREATE TABLE ${other}.customer (id int PRIMARY KEY);
       CREATE TABLE shop.invoice (id int PRIMARY KEY, customer_id int,
         FOREIGN KEY (customer_id) REFERENCES ${other}.customer (id));`,
    );
    expect(document.tables.map((entry) => entry.name).sort()).toEqual([`${other}.customer`, 'invoice']);
    // A dump that names every table with one database (and has no USE) is that database's own.
    const sole = await importFile(
      'mysql',
      'CREATE TABLE shop.a (id int PRIMARY KEY); CREATE TABLE shop.b (id int, a_id int, FOREIGN KEY (a_id) REFERENCES shop.a (id));',
    );
    expect(sole.tables.map((entry) => entry.name).sort()).toEqual(['a', 'b']);
    expect(sole.relationships.map((r) => `${r.source_table} -> ${r.target_table}`)).toEqual(['b -> a']);
    expect(document.relationships.map((r) => `${r.source_table} -> ${r.target_table}`)).toEqual([
      `invoice -> ${other}.customer`,
    ]);
    const script = createScript(document).sql;
    expect(script).toContain(`CREATE DATABASE IF NOT EXISTS \`${other}\``);
    expect(script).toContain(`CREATE TABLE \`${other}\`.\`customer\``);
    const database = await scratchMariadb();
    try {
      await database.run(script);
      const rows = await database.rows(
        `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${other}'`,
      );
      expect(rows).toEqual([{ name: 'customer' }]);
      expect(schemaOf(await importFile('mysql', script))).toEqual(schemaOf(document));
    } finally {
      await database.run(
        `SET FOREIGN_KEY_CHECKS = 0; DROP DATABASE IF EXISTS \`${other}\`; SET FOREIGN_KEY_CHECKS = 1`,
      );
      await database.drop();
    }
  });
});

describe('index methods, index notes and enum names in DBML', () => {
  const DBML = `
enum mood {
  happy
  sad
}
Table person {
  id int [pk]
  name varchar(40)
  feeling mood
  Indexes {
    name [name: 'person_name_h', type: hash, note: 'lookups by name']
  }
}`;

  it.each(['pgsql', 'mysql'] as const)(
    '%s: reads type, note and the enum name, and writes them back the same',
    async (driver) => {
      const result = await convertDbml(driver, DBML);
      if (!result.ok) throw new Error(result.message);
      const person = table(result.document, 'person');
      expect(person.indexes.find((index) => index.name === 'person_name_h')).toMatchObject({
        method: 'hash',
        note: 'lookups by name',
      });
      expect(person.columns.find((column) => column.name === 'feeling')?.enum_name).toBe('mood');
      const written = dbmlScript(result.document);
      expect(written).toContain(`[name: 'person_name_h', type: hash, note: 'lookups by name']`);
      expect(written).toContain('Enum "mood"');
      const back = await convertDbml(driver, written);
      if (!back.ok) throw new Error(back.message);
      expect(schemaOf(back.document)).toEqual(schemaOf(result.document));
    },
  );

  it('mysql: a FULLTEXT index goes through DBML and loads into MariaDB', async () => {
    const document = await importFile('mysql', MYSQL_SOURCE);
    const result = await convertDbml('mysql', dbmlScript(document));
    if (!result.ok) throw new Error(result.message);
    expect(
      table(result.document, 'person').indexes.find((index) => index.name === 'person_bio_ft')?.method,
    ).toBe('fulltext');
    const database = await scratchMariadb();
    try {
      await database.run(createScript(result.document).sql);
      expect(catalogSettings(await database.shape()).person?.methods).toEqual(['person_bio_ft fulltext']);
    } finally {
      await database.drop();
    }
  });
});

describe('SQL Server CHECK constraints from DDL', () => {
  it('reads named and unnamed column and table checks, and the export writes them back', async () => {
    const result = await convertDdl(
      'sqlsrv',
      `CREATE TABLE [dbo].[item] ([id] int NOT NULL PRIMARY KEY, [qty] int CONSTRAINT [CK_item_qty] CHECK ([qty] >= (0)),
         [low] int CHECK (low > 0), [high] int, CONSTRAINT [CK_range] CHECK ([low] < [high]), CHECK ([high] < 100));
       GO
       ALTER TABLE [dbo].[item] WITH CHECK ADD CONSTRAINT [CK_item_high] CHECK (([high]<>(13)));
       GO`,
    );
    if (!result.ok) throw new Error(result.message);
    const checks = table(result.document, 'item').checks;
    expect(checks).toEqual([
      { name: 'CK_item_qty', expression: '[qty] >= (0)' },
      { name: 'CK_item_low', expression: 'low > 0' },
      { name: 'CK_range', expression: '[low] < [high]' },
      { name: 'CK_item_1', expression: '[high] < 100' },
      { name: 'CK_item_high', expression: '([high]<>(13))' },
    ]);
    const script = createScript(result.document).sql;
    expect(script).toContain('CONSTRAINT [CK_range] CHECK ([low] < [high])');
    const back = await convertDdl('sqlsrv', script);
    if (!back.ok) throw new Error(back.message);
    expect(table(back.document, 'item').checks).toEqual(checks);
  });
});
