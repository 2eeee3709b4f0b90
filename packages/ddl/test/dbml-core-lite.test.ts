// This package uses @dbml/core through the build's lighter copy of it (scripts/bundle-dbml-core.js,
// dist/vendor/dbml-core-lite.js: without the MySQL, PostgreSQL, Oracle and Snowflake grammars). These checks
// hold the copy to @dbml/core itself: every table unit the SQL Server reader parses in the fixtures and the
// wild corpus, and broken ones, gets the very same answer (model or syntax errors), and DBML is written as
// the same DDL (or the same errors) in the three dialects. They need the build (`npm test` runs it; or
// `npm run build -w @dss/ddl`) and fail with one line when it is missing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Dbml from '@dbml/core';
import { convertDdl, type DdlDriver } from '../src';
import { parseTwoStage } from '../src/antlr-prediction';
import { type DbmlCoreLite, dbmlCoreSource } from '../src/dbml-core-lite';
import { parseSqlsrvUnits } from '../src/sqlsrv';

const BUILT = path.resolve(__dirname, '..', 'dist', 'vendor', 'dbml-core-lite.js');
const DIALECTS: DdlDriver[] = ['pgsql', 'mysql', 'sqlsrv'];
const FORMATS = { pgsql: 'postgres', mysql: 'mysql', sqlsrv: 'mssql' } as const;

function scripts(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => path.join(dir, name));
}

function built(): DbmlCoreLite {
  if (!fs.existsSync(BUILT)) throw new Error(`${BUILT} is missing: run npm run build -w @dss/ddl`);
  return require(BUILT) as DbmlCoreLite;
}

const full = () => require('@dbml/core') as typeof Dbml;

/** An answer as comparable text: the value, or the errors' messages and positions. */
function answer(run: () => unknown): string {
  try {
    return JSON.stringify({ value: run() });
  } catch (error) {
    const diags = (error as { diags?: unknown[] } | null)?.diags;
    const errors = Array.isArray(error) ? error : Array.isArray(diags) ? diags : [error];
    return JSON.stringify({
      errors: errors.map((item: { message?: string; text?: string; location?: unknown }) => ({
        message: item?.message ?? item?.text ?? String(item),
        location: item?.location,
      })),
    });
  }
}

describe('the lighter copy of @dbml/core', () => {
  it('should be what the readers load, not the whole of @dbml/core', () => {
    built();
    expect(dbmlCoreSource()).toBe('lite');
  });

  it("should hold the T-SQL grammar and none of @dbml/core's other four", () => {
    built();
    const code = fs.readFileSync(BUILT, 'utf8');
    expect(code).toContain('"TSqlParser.g4"');
    for (const grammar of ['MySqlParser', 'PostgreSQLParser', 'OracleSqlParser', 'SnowflakeParser'])
      expect(code).not.toContain(`"${grammar}.g4"`);
  });

  it('should read every table unit of the SQL Server fixtures and wild corpus as @dbml/core does', async () => {
    const { parseMssql } = built();
    const { Parser } = full();
    const units: string[] = [];
    for (const file of [
      ...scripts(path.join(__dirname, 'fixtures', 'sqlsrv')),
      ...scripts(path.join(__dirname, 'wild', 'sqlsrv')),
    ])
      await convertDdl('sqlsrv', fs.readFileSync(file, 'utf8'), {
        parseSqlsrvUnits: (texts) => {
          units.push(...texts);
          return parseSqlsrvUnits(texts);
        },
      });
    // Units that do not parse, so the syntax errors (messages and positions) are compared too.
    units.push(
      'CREATE TABLE [t] ([a] int NOT NULL,, [b] int)',
      'CREATE TABLE [t] ([a] int) WITH (UNKNOWN_OPTION = ON);\nALTER TABLE [t] ADD CONSTRAINT',
      'CREATE TABLE [t] ([a] varchar(10) COLLATE)',
    );
    const answers = units.map((text) => [
      answer(() => parseTwoStage(() => parseMssql(text))),
      answer(() => parseTwoStage(() => Parser.parseMSSQLToJSONv2(text))),
    ]);
    expect(units.length).toBeGreaterThan(50);
    expect(answers.some(([ours]) => ours?.startsWith('{"errors"'))).toBe(true);
    for (const [ours, theirs] of answers) expect(ours).toBe(theirs);
  });

  it('should write DDL from DBML as @dbml/core does, in the three dialects', () => {
    const { exporter } = built();
    const dbml = full();
    // DBML written by @dbml/core from the fixtures of each dialect, and broken DBML.
    const sources = DIALECTS.flatMap((driver) =>
      scripts(path.join(__dirname, 'fixtures', driver)).flatMap((file) => {
        try {
          return [dbml.importer.import(fs.readFileSync(file, 'utf8'), FORMATS[driver])];
        } catch {
          return [];
        }
      }),
    );
    expect(sources.length).toBeGreaterThanOrEqual(15);
    sources.push(
      'Table t {\n  id int [pk\n}\n',
      'Ref: a.b > c.d\n',
      'Table t { id int [pk] }\nTable t { id int }\n',
    );
    for (const source of sources)
      for (const format of Object.values(FORMATS))
        expect(answer(() => exporter.export(source, format))).toBe(
          answer(() => dbml.exporter.export(source, format)),
        );
  });
});
