// Every file of the public corpus, imported as the importer does (DDL → document with its computed
// layout) and drawn as the server-side SVG, measured through the markup contract: no relationship line
// runs through a table it does not connect, and no two relationships share a run of more than 40 px
// outside 30 px of their own tables. A routing regression fails here, fast, without a browser.
import {
  crossings,
  drawingMetrics,
  measureSvg,
  readabilityMetrics,
  renderDiagramSvg,
  sharedRuns,
} from '../src';
import { corpusFiles, importCorpus } from './corpus';

const entries = corpusFiles();

describe('server-side drawings of the public corpus', () => {
  it.each(entries)(
    '$file: no line through a table it does not connect, no shared runs, no two line ends on one point',
    async ({ file, driver }) => {
      const document = await importCorpus({ file, driver });
      const drawing = measureSvg(renderDiagramSvg(document));
      expect(drawing.tables).toHaveLength(document.tables.length);
      expect(drawing.relationships).toHaveLength(document.relationships.length);
      expect(crossings(drawing)).toEqual([]);
      expect(sharedRuns(drawing)).toEqual([]);
      // Each relationship has its own port: no two line ends meet at one point of a table's edge.
      const ends = new Map<string, string>();
      const stacked: string[] = [];
      for (const line of drawing.relationships)
        for (const point of [line.points[0]!, line.points.at(-1)!]) {
          const key = point.join(',');
          if (ends.has(key)) stacked.push(`${line.id} on ${ends.get(key)} at ${key}`);
          ends.set(key, line.id);
        }
      expect(stacked).toEqual([]);
      process.stdout.write(
        `${file}: ${JSON.stringify({ ...drawingMetrics(drawing), ...readabilityMetrics(drawing) })}\n`,
      );
    },
    120_000,
  );
});
