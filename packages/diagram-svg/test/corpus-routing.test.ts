// Every file of the public corpus, imported as the importer does (DDL → document with its computed
// layout) and drawn as the server-side SVG, measured through the markup contract: no relationship line
// runs through a table it does not connect, and no two relationships share a run of more than 40 px
// outside 30 px of their own tables. A routing regression fails here, fast, without a browser.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl, type DdlDriver } from '@dss/ddl';
import { crossings, drawingMetrics, measureSvg, renderDiagramSvg, sharedRuns } from '../src';

const CORPUS = path.resolve(__dirname, '../../../../shared/corpus');
if (!fs.existsSync(path.join(CORPUS, 'manifest.json')))
  throw new Error(`the public corpus is missing: expected ${CORPUS}/manifest.json beside the repository`);

const entries = (
  JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as {
    files: { file: string; driver: DdlDriver }[];
  }
).files;

describe('server-side drawings of the public corpus', () => {
  it.each(entries)(
    '$file: no line through a table it does not connect, no shared runs',
    async ({ file, driver }) => {
      const result = await convertDdl(driver, fs.readFileSync(path.join(CORPUS, file), 'utf8'));
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
      const drawing = measureSvg(renderDiagramSvg(result.document));
      expect(drawing.tables).toHaveLength(result.document.tables.length);
      expect(drawing.relationships).toHaveLength(result.document.relationships.length);
      expect(crossings(drawing)).toEqual([]);
      expect(sharedRuns(drawing)).toEqual([]);
      process.stdout.write(`${file}: ${JSON.stringify(drawingMetrics(drawing))}\n`);
    },
    120_000,
  );
});
