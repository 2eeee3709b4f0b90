// The wild corpus (test/wild, see its README): real schema scripts of open-source projects, checked against
// ground truth from real servers: each PostgreSQL script is loaded into a fresh database of the machine's
// PostgreSQL and each MySQL script into a fresh MariaDB database (wild-truth.ts), SQL Server scripts against
// a truth written by hand. Tables, columns, nullability and primary keys must match exactly, foreign-key
// column pairs at least 98% (types, in one spelling, match too); the warnings of each file are pinned (`<name>.warnings.json`;
// `UPDATE_WILD=1` rewrites them: review the diff). Per-file scores are printed. Never skipped: a missing
// corpus, client or server fails with one line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl, type DdlDriver } from '../src';
import { compare, importShape, mariadbTruth, postgresTruth, requireClients, type Shape } from './wild-truth';

const WILD = path.join(__dirname, 'wild');

interface Entry {
  file: string;
  driver: DdlDriver;
  project: string;
  repository: string;
  path: string;
  commit: string;
  licence: string;
}

function manifest(): Entry[] {
  const file = path.join(WILD, 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`wild corpus missing: ${file}`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Entry[];
}

const entries = manifest();
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

describe('wild corpus against real servers', () => {
  beforeAll(() => requireClients());

  it('has at least 15 scripts covering the three dialects, each recorded with project, path, commit and licence', () => {
    expect(entries.length).toBeGreaterThanOrEqual(15);
    expect(new Set(entries.map((entry) => entry.driver))).toEqual(new Set(['pgsql', 'mysql', 'sqlsrv']));
    const readme = fs.readFileSync(path.join(WILD, 'README.md'), 'utf8');
    for (const entry of entries) {
      expect(fs.existsSync(path.join(WILD, entry.file))).toBe(true);
      expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(readme).toContain(entry.file);
      expect(readme).toContain(entry.commit);
    }
  });

  it.each(entries.map((entry) => [entry.file, entry] as const))(
    '%s matches the server',
    async (_, entry) => {
      const file = path.join(WILD, entry.file);
      const sql = fs.readFileSync(file, 'utf8');
      const result = await convertDdl(entry.driver, sql);
      if (!result.ok) throw new Error(`${entry.file}: ${result.code}: ${result.message}`);
      let truth: Shape;
      if (entry.driver === 'pgsql') truth = postgresTruth(file);
      else if (entry.driver === 'mysql') truth = mariadbTruth(file, sql);
      else truth = JSON.parse(fs.readFileSync(file.replace(/\.sql$/, '.truth.json'), 'utf8')) as Shape;
      const scores = compare(truth, importShape(result.document));
      console.log(
        `${entry.file}: tables ${percent(scores.tables)}, columns ${percent(scores.columns)}, types ${percent(scores.types)}, ` +
          `nullability ${percent(scores.nullability)}, primary keys ${percent(scores.primaryKeys)}, ` +
          `foreign-key pairs ${percent(scores.foreignKeyPairs)}; ${Object.keys(truth.tables).length} tables, ` +
          `${truth.foreignKeys.length} pairs, ${result.warnings_total} warnings` +
          (scores.differences.length > 0 ? `\n  ${scores.differences.join('\n  ')}` : ''),
      );
      // Types compare in one spelling (wild-truth.ts: display widths, serial → integer, …); all match today.
      expect({
        tables: scores.tables,
        columns: scores.columns,
        types: scores.types,
        nullability: scores.nullability,
        primaryKeys: scores.primaryKeys,
      }).toEqual({ tables: 1, columns: 1, types: 1, nullability: 1, primaryKeys: 1 });
      expect(scores.foreignKeyPairs).toBeGreaterThanOrEqual(0.98);

      const warnings = result.warnings.map((w) => `${w.line}:${w.column} ${w.code} ${w.message}`);
      const pinned = file.replace(/\.sql$/, '.warnings.json');
      if (process.env['UPDATE_WILD'] === '1')
        fs.writeFileSync(pinned, `${JSON.stringify({ total: result.warnings_total, warnings }, null, 2)}\n`);
      expect({ total: result.warnings_total, warnings }).toEqual(JSON.parse(fs.readFileSync(pinned, 'utf8')));
    },
    120_000,
  );
});
