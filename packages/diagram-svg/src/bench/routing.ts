// `npm run bench -w @dss/diagram-svg` (after a build), second part: relationship routing. Draws the
// 71-table pagila of the public corpus (imported as the importer does) and packages/schema's generated
// 300-table diagram, each measured alternately with the same drawing without its relationships (the
// baseline: everything but the routing), and prints what the drawing looks like: lines through tables,
// shared runs, line length, bends and the area's aspect ratio.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convertDdl } from '@dss/ddl';
import type { DiagramDocument } from '@dss/schema';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { type Measurement, measurePair } from '@dss/schema/dist/bench/measure';
import { drawingMetrics, measureSvg } from '../geometry-check';
import { renderDiagramSvg } from '../render';

const RUNS = 15;
const CORPUS = path.resolve(__dirname, '../../../../../shared/corpus');

async function main(): Promise<void> {
  const pagilaFile = path.join(CORPUS, 'pgsql/pagila.sql');
  if (!fs.existsSync(pagilaFile)) throw new Error(`the public corpus is missing: expected ${pagilaFile}`);
  const pagila = await convertDdl('pgsql', fs.readFileSync(pagilaFile, 'utf8'));
  if (!pagila.ok) throw new Error(`pagila does not import: ${pagila.message}`);
  const cases: [string, DiagramDocument][] = [
    ['pagila (public corpus)', pagila.document],
    ['generated 300 tables', generateDiagram({ tables: 300, columnsPerTable: 12 })],
  ];
  console.log(`routing: median (minimum) of ${RUNS} alternating runs`);
  for (const [label, document] of cases) {
    const bare = { ...document, relationships: [] };
    const pair = measurePair(
      `${label}: renderDiagramSvg, routed`,
      RUNS,
      () => renderDiagramSvg(document),
      `${label}: the same without relationships`,
      () => renderDiagramSvg(bare),
    );
    console.log(row(pair.baseline, pair.baseline));
    console.log(row(pair.work, pair.baseline));
    console.log(
      `  routing alone ≈ ${(pair.work.medianMs - pair.baseline.medianMs).toFixed(1)} ms; ` +
        `drawing: ${JSON.stringify(drawingMetrics(measureSvg(renderDiagramSvg(document))))}`,
    );
  }
}

function row(measurement: Measurement, baseline: Measurement): string {
  const ratio = measurement.medianMs / baseline.medianMs;
  return (
    `${measurement.label.padEnd(58)} ${measurement.medianMs.toFixed(2).padStart(8)} ms ` +
    `(${measurement.minMs.toFixed(2)})  ${ratio.toFixed(2).padStart(6)} × without relationships`
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
