/// <reference lib="dom" />
// DBML and Mermaid exports read by the tools they are for: every corpus diagram's DBML is parsed by
// @dbml/core and must hold the diagram's tables, columns (not null, increment), keys and references; every
// Mermaid text is rendered by Mermaid in Chromium and must draw one entity per table and one line per key.
import { Parser } from '@dbml/core';
import { convertDbml } from '@dss/ddl';
import { type Browser, chromium, type Page } from 'playwright-core';
import { dbmlScript, foreignKeys, mermaidScript, tableKeys } from '../src';
import { corpusFiles, importCorpus, importFile, schemaOf } from './corpus';
import { readWithMermaid } from './mermaid-in-browser';

const files = corpusFiles();

describe('export as DBML', () => {
  it.each(files)(
    '$file: @dbml/core reads every table, column, key and reference',
    async (entry) => {
      const document = await importCorpus(entry);
      const database = Parser.parse(dbmlScript(document), 'dbmlv2');
      const tables = database.schemas.flatMap((schema) =>
        schema.tables.map((table) => ({ schema: schema.name, table })),
      );
      const nameOf = (schema: string, table: string) => (schema === 'public' ? table : `${schema}.${table}`);
      expect(tables.map(({ schema, table }) => nameOf(schema, table.name)).sort()).toEqual(
        document.tables.map((table) => table.name).sort(),
      );
      for (const { schema, table } of tables) {
        const expected = document.tables.find((t) => t.name === nameOf(schema, table.name));
        if (!expected) throw new Error(`unexpected table ${table.name}`);
        expect(
          table.fields.map((field) => ({
            name: field.name,
            notNull: Boolean(field.not_null) || Boolean(field.pk),
            increment: Boolean(field.increment),
          })),
        ).toEqual(
          expected.columns.map((column) => ({
            name: column.name,
            notNull: !column.is_nullable,
            increment: column.is_auto_increment,
          })),
        );
        const keys = tableKeys(expected);
        expect(table.indexes.length + table.fields.filter((field) => field.pk).length).toBe(keys.length);
      }
      const refs = database.schemas.flatMap((schema) => schema.refs);
      expect(refs.length).toBe(foreignKeys(document).length);
    },
    60_000,
  );

  it('keeps quotes, backslashes, line breaks and schema names intact', async () => {
    const document = await importFile(
      'pgsql',
      `CREATE SCHEMA s; CREATE TABLE s."odd ""name""" (id int PRIMARY KEY, v text DEFAULT 'it''s \\ here');
       COMMENT ON TABLE s."odd ""name""" IS E'two\\nlines with ''quotes'' and \\\\';`,
    );
    const database = Parser.parse(dbmlScript(document), 'dbmlv2');
    const table = database.schemas.find((schema) => schema.name === 's')?.tables[0];
    expect(table?.name).toBe('odd "name"');
    expect(table?.note).toBe("two\nlines with 'quotes' and \\");
    expect(table?.fields[1]?.dbdefault).toEqual({ type: 'string', value: "it's \\ here" });
  });
});

describe('export as Mermaid', () => {
  let browser: Browser;
  /** One page for every file: Mermaid is loaded into it once. */
  let page: Page;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.DSS_TEST_CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(files)(
    '$file: Mermaid draws an entity per table and a line per foreign key',
    async (entry) => {
      const document = await importCorpus(entry);
      {
        const drawn = await readWithMermaid(page, mermaidScript(document));
        const ends = foreignKeys(document)
          .map((key) => {
            const source = document.tables.find((table) => table.name === key.table);
            const nullable = key.columns.some(
              (name) => source?.columns.find((column) => column.name === name)?.is_nullable !== false,
            );
            const oneToOne = document.relationships.some(
              (r) =>
                r.source_table === key.table && r.source_column === key.columns[0] && r.type === 'one-to-one',
            );
            return `${oneToOne ? 'ZERO_OR_ONE' : 'ZERO_OR_MORE'} ${nullable ? 'ZERO_OR_ONE' : 'ONLY_ONE'}`;
          })
          .sort();
        expect(drawn).toEqual({
          entities: document.tables.length,
          lines: foreignKeys(document).length,
          ends,
        });
      }
    },
    60_000,
  );
});

describe('DBML written by the export, read by the DBML import', () => {
  /** Outer parentheses around a default are the same default (the DDL written from DBML adds them). */
  const bare = (value: string | null) => (value === null ? null : value.replace(/^\((.*)\)$/s, '$1'));
  it.each(files)(
    '$file: the same tables, columns, keys and relationships',
    async (entry) => {
      const document = await importCorpus(entry);
      const result = await convertDbml(entry.driver, dbmlScript(document));
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
      const shape = (doc: typeof document) =>
        schemaOf({
          ...doc,
          // DBML has no collation or character set (they travel in SQL only).
          tables: doc.tables.map(({ charset: _charset, collation: _collation, ...table }) => ({
            ...table,
            // SQL Server comments: the DDL @dbml/core writes for them is not MS_Description (left out).
            comment: entry.driver === 'sqlsrv' ? null : table.comment,
            columns: table.columns.map(({ collation: _, ...column }) => ({
              ...column,
              default: bare(column.default),
              comment: entry.driver === 'sqlsrv' ? null : column.comment,
            })),
            indexes: [],
          })),
        });
      expect(shape(result.document)).toEqual(shape(document));
    },
    120_000,
  );
});
