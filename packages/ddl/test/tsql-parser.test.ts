// The SQL Server reader's T-SQL parser is the build's T-SQL-only copy of @dbml/core's reader
// (scripts/bundle-tsql.js, dist/vendor/tsql-parser.js). These checks hold it to @dbml/core itself: every
// table unit the reader parses in the fixtures and the wild corpus, repairs included, gets the very same
// answer (model or syntax errors), and the copy holds the T-SQL grammar only. They need the build (`npm test`
// runs it; or `npm run build -w @dss/ddl`) and fail with one line when it is missing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl } from '../src';
import { parseTwoStage } from '../src/antlr-prediction';
import { parseSqlsrvUnits, sqlsrvParserSource } from '../src/sqlsrv';

const BUILT = path.resolve(__dirname, '..', 'dist', 'vendor', 'tsql-parser.js');
const SCRIPTS = [path.join(__dirname, 'fixtures', 'sqlsrv'), path.join(__dirname, 'wild', 'sqlsrv')].flatMap(
  (dir) =>
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => path.join(dir, name)),
);

function built(): { parseMssql: (text: string) => unknown } {
  if (!fs.existsSync(BUILT)) throw new Error(`${BUILT} is missing: run npm run build -w @dss/ddl`);
  return require(BUILT) as { parseMssql: (text: string) => unknown };
}

/** A parse's answer as comparable text: the model, or the errors' messages and positions. */
function answer(parse: () => unknown): string {
  try {
    return JSON.stringify({ model: parseTwoStage(parse) });
  } catch (error) {
    const errors = Array.isArray(error) ? error : [error];
    return JSON.stringify({
      errors: errors.map((item: { message?: string; text?: string; location?: unknown }) => ({
        message: item?.message ?? item?.text ?? String(item),
        location: item?.location,
      })),
    });
  }
}

describe('T-SQL parser', () => {
  it('should be the built T-SQL-only copy, not the whole of @dbml/core', () => {
    built();
    expect(sqlsrvParserSource()).toBe('tsql-only');
  });

  it("should hold the T-SQL grammar and none of @dbml/core's other four", () => {
    built();
    const code = fs.readFileSync(BUILT, 'utf8');
    expect(code).toContain('"TSqlParser.g4"');
    for (const grammar of ['MySqlParser', 'PostgreSQLParser', 'OracleSqlParser', 'SnowflakeParser'])
      expect(code).not.toContain(`"${grammar}.g4"`);
  });

  it('should read every table unit of the fixtures and the wild corpus as @dbml/core does', async () => {
    const { parseMssql } = built();
    const { Parser } = require('@dbml/core') as typeof import('@dbml/core');
    const units: string[] = [];
    for (const file of SCRIPTS)
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
      answer(() => parseMssql(text)),
      answer(() => Parser.parseMSSQLToJSONv2(text)),
    ]);
    expect(units.length).toBeGreaterThan(50);
    expect(answers.some(([ours]) => ours?.startsWith('{"errors"'))).toBe(true);
    for (const [ours, theirs] of answers) expect(ours).toBe(theirs);
  });
});
