// Fuzzed DDL: valid dumps (the fixtures and the wild corpus) truncated at random places, with random
// tokens inserted and random spans deleted. A fixed number of cases from a seeded generator (`FUZZ_SEED`
// to try others), each converted in the product's conversion pool with its time limit. Never a throw,
// never an internal error, never a time-out; and whenever a CREATE TABLE ends before the damage, the
// import succeeds (warnings, not failure) and keeps that table.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConversionPool, type DdlDriver, splitStatements } from '../src';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);
const CASES_PER_FILE = 6;
/** The product's limit is 30 s; a hang is what this catches, not slowness. */
const TIME_LIMIT_MS = 30_000;

const SOURCES: [DdlDriver, string][] = [
  ['pgsql', 'fixtures/pgsql/pg_dump_library.sql'],
  ['pgsql', 'fixtures/pgsql/functions_views.sql'],
  ['pgsql', 'wild/pgsql/guacamole.sql'],
  ['pgsql', 'wild/pgsql/quartz.sql'],
  ['mysql', 'fixtures/mysql/blog_mysqldump.sql'],
  ['mysql', 'fixtures/mysql/routines_and_views.sql'],
  ['mysql', 'wild/mysql/apollo_portaldb.sql'],
  ['mysql', 'wild/mysql/quartz_myisam.sql'],
  ['sqlsrv', 'fixtures/sqlsrv/shop.sql'],
  ['sqlsrv', 'wild/sqlsrv/quartz.sql'],
  ['sqlsrv', 'wild/sqlsrv/seata_server.sql'],
];

const TOKENS = [
  '(',
  ')',
  ',',
  ';',
  "'",
  '"',
  '`',
  '[',
  ']',
  '--',
  '/*',
  '*/',
  '$$',
  '$tag$',
  '\\',
  '\nGO\n',
  '\nDELIMITER //\n',
  'NOPE',
  'PRIMARY KEY',
  'REFERENCES',
  'CREATE TABLE',
  'NOT',
  'DEFAULT',
  'CONSTRAINT x',
  '/*!40101',
  'BEGIN',
  'END',
  'IF NOT EXISTS (',
  "N'",
  '\u00e9\u{1F600}',
  '\0',
];

/** mulberry32: a small seeded generator, so a failing case can be replayed with its seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  label: string;
  driver: DdlDriver;
  sql: string;
  /** Where the damage starts: text before it is the original. */
  at: number;
  /** Tables whose CREATE TABLE ends before the damage (by their name as written in the statement). */
  intact: number;
}

function cases(): Case[] {
  const random = generator(SEED);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T;
  const out: Case[] = [];
  for (const [driver, file] of SOURCES) {
    const original = fs.readFileSync(path.join(__dirname, file), 'utf8');
    // Statements (SQL Server: batches) that create a table, outside routine bodies.
    const tableEnds = splitStatements(driver, original)
      .filter((piece) =>
        driver === 'sqlsrv'
          ? /\bcreate\s+table\b/i.test(piece.text) &&
            !/\bcreate\s+(?:proc|procedure|function|trigger)\b/i.test(piece.text)
          : /^\s*create\s+(?:temporary\s+|unlogged\s+)?table\b/i.test(piece.text),
      )
      .map((piece) => piece.offset + piece.text.length);
    for (let n = 0; n < CASES_PER_FILE; n++) {
      const at = Math.floor(random() * original.length);
      const kind = n % 3;
      let sql: string;
      let label: string;
      if (kind === 0) {
        sql = original.slice(0, at);
        label = `truncated at ${at}`;
      } else if (kind === 1) {
        const token = pick(TOKENS);
        sql = original.slice(0, at) + token + original.slice(at);
        label = `${JSON.stringify(token)} inserted at ${at}`;
      } else {
        const length = 1 + Math.floor(random() * 40);
        sql = original.slice(0, at) + original.slice(at + length);
        label = `${length} characters deleted at ${at}`;
      }
      // A statement ending right at the damage may have lost its terminator; only earlier ones count.
      const intact = tableEnds.filter((end) => end < at - 1).length;
      out.push({ label: `${file}: ${label}`, driver, sql, at, intact });
    }
  }
  return out;
}

describe(`fuzzed DDL (seed ${SEED})`, () => {
  let pool: ConversionPool;
  beforeAll(() => {
    pool = new ConversionPool({
      size: 1,
      timeoutMs: TIME_LIMIT_MS,
      maxOldGenerationSizeMb: 1024,
      warmUp: false,
    });
  });
  afterAll(() => pool.close());

  it.each(cases().map((c) => [c.label, c] as const))(
    '%s',
    async (_, fuzzed) => {
      const outcome = await pool.convert(fuzzed.driver, fuzzed.sql);
      expect(outcome.kind).toBe('converted');
      if (outcome.kind !== 'converted') return;
      const result = outcome.result;
      if (!result.ok) {
        expect(['ddl_syntax_error', 'ddl_no_tables']).toContain(result.code);
        // Failure only when nothing before the damage was a table.
        expect({ code: result.code, intactTables: fuzzed.intact }).toEqual({
          code: result.code,
          intactTables: 0,
        });
        return;
      }
      const document = JSON.parse(result.document_json) as { tables: unknown[] };
      expect(document.tables.length).toBeGreaterThanOrEqual(fuzzed.intact);
      expect(result.warnings.length).toBeLessThanOrEqual(100);
      expect(result.warnings_total).toBeGreaterThanOrEqual(result.warnings.length);
      for (const warning of result.warnings) {
        expect(warning.line).toBeGreaterThanOrEqual(1);
        expect(warning.statement.length).toBeLessThanOrEqual(200);
      }
    },
    120_000,
  );
});
