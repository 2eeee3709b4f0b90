// Hand-written schemas in the styles real tools produce (pg_dump, mysqldump, SSMS scripts), each checked
// exactly against its expected-result JSON (tables, columns with types and flags, indexes, relationships,
// skipped statements and warnings). `UPDATE_FIXTURES=1` rewrites the JSON files; review the diff.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl, type DdlDriver } from '../src';
import { shapeOf } from './shape';

const FIXTURES = path.join(__dirname, 'fixtures');
const DIALECTS: DdlDriver[] = ['pgsql', 'mysql', 'sqlsrv'];

const cases = DIALECTS.flatMap((driver) => {
  const dir = path.join(FIXTURES, driver);
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.sql'))
        .map((name) => ({ driver, file: path.join(dir, name), label: `${driver}/${name}` }))
    : [];
});

describe('fixtures', () => {
  it.each(cases)('$label converts to its expected schema', async ({ driver, file }) => {
    const result = await convertDdl(driver, fs.readFileSync(file, 'utf8'));
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    const actual = { ...shapeOf(result.document), skipped: result.skipped, warnings: result.warnings };
    const expectedFile = file.replace(/\.sql$/, '.expected.json');
    if (process.env['UPDATE_FIXTURES'] === '1')
      fs.writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(fs.readFileSync(expectedFile, 'utf8')));
    // Every table got a position from the layout.
    for (const table of result.document.tables) {
      expect(Number.isFinite(table.left) && Number.isFinite(table.top)).toBe(true);
    }
  });
});
