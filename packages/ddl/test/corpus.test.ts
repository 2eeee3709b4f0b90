// The public real-world corpus (../shared/corpus, read in place, never copied): every file converts without
// failure and yields exactly the table and foreign-key counts of its manifest.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl, type DdlDriver } from '../src';

// The corpus sits beside the clone (`<repository root>/../shared/corpus`), as in CI; never skipped.
const CORPUS = path.resolve(__dirname, '../../../../shared/corpus');
if (!fs.existsSync(path.join(CORPUS, 'manifest.json')))
  throw new Error(`the public DDL corpus is missing: expected ${CORPUS}/manifest.json beside the repository`);

interface ManifestEntry {
  file: string;
  driver: DdlDriver;
  tables: number;
  relationships: number;
}

const entries: ManifestEntry[] = (
  JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { files: ManifestEntry[] }
).files;
const SUPPORTED: DdlDriver[] = (process.env['DDL_CORPUS_DRIVERS'] ?? 'pgsql,mysql,sqlsrv').split(
  ',',
) as DdlDriver[];

describe('public DDL corpus', () => {
  it.each(entries.filter((entry) => SUPPORTED.includes(entry.driver)))(
    '$file: $tables tables, $relationships relationships',
    async (entry) => {
      const result = await convertDdl(entry.driver, fs.readFileSync(path.join(CORPUS, entry.file), 'utf8'));
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
      // The manifest counts foreign-key constraints; a composite key becomes one relationship per column
      // pair, all with the constraint's name, so constraints are counted by table and name.
      const constraints = new Set(
        result.document.relationships.map((r) => `${r.source_table}\u0000${r.name ?? r.uuid}`),
      );
      expect({ tables: result.document.tables.length, relationships: constraints.size }).toEqual({
        tables: entry.tables,
        relationships: entry.relationships,
      });
    },
    // Not a timing assertion: SQL Server's ANTLR parser needs ~15 s for AdventureWorks under Jest.
    120_000,
  );
});
