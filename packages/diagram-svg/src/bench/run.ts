// `npm run bench -w @dss/diagram-svg` (after a build): drawing packages/schema's generated 1,000-table
// diagram as SVG, plain and as a review drawing of a ~500KB patch, each measured alternately with
// JSON.stringify of the same document in the same run, so both see the same machine load.
import { apply, type DiagramDocument, diff, normalize, validate } from '@dss/schema';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { generatePatch } from '@dss/schema/dist/bench/generate-patch';
import { type Measurement, measurePair } from '@dss/schema/dist/bench/measure';
import { renderDiagramSvg } from '../render';
import { reviewDiagram } from '../review';

const RUNS = 41;

function main(): void {
  const document = generateDiagram({ tables: 1000, columnsPerTable: 20 });
  const after = afterPatch(document);
  const changes = diff(document, after);
  const stringify = () => JSON.stringify(document);
  const plain = measurePair(
    'renderDiagramSvg',
    RUNS,
    () => renderDiagramSvg(document),
    'JSON.stringify',
    stringify,
  );
  const review = measurePair(
    'reviewDiagram + renderDiagramSvg (highlighted)',
    RUNS,
    () => {
      const drawing = reviewDiagram(document, after, changes);
      return renderDiagramSvg(drawing.document, { highlight: drawing.highlight });
    },
    'JSON.stringify',
    stringify,
  );
  const svgBytes = Buffer.byteLength(renderDiagramSvg(document));
  const jsonBytes = Buffer.byteLength(stringify());
  console.log(
    `diagram: ${document.tables.length} tables × ${document.tables[0]!.columns.length} columns, ` +
      `${document.relationships.length} relationships, ${document.groups.length} groups; ` +
      `SVG ${kilobytes(svgBytes)} vs JSON ${kilobytes(jsonBytes)}; median (minimum) of ${RUNS} alternating runs`,
  );
  for (const pair of [plain, review]) {
    console.log(row(pair.baseline, pair.baseline));
    console.log(row(pair.work, pair.baseline));
  }
}

/** The diagram after packages/schema's generated ~500KB merge patch (new, changed and deleted records). */
function afterPatch(document: DiagramDocument): DiagramDocument {
  const { json } = generatePatch(document, { targetBytes: 500 * 1024 });
  const result = validate(normalize(JSON.parse(json)).patch, document, document.driver, 'propose');
  if (!result.ok) throw new Error(`generated patch is invalid: ${JSON.stringify(result.problems)}`);
  return apply(document, result.patch).document;
}

function row(measurement: Measurement, baseline: Measurement): string {
  const ratio = measurement.medianMs / baseline.medianMs;
  return (
    `${measurement.label.padEnd(48)} ${measurement.medianMs.toFixed(2).padStart(8)} ms ` +
    `(${measurement.minMs.toFixed(2)})  ${ratio.toFixed(2).padStart(6)} × JSON.stringify`
  );
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)}KB`;
}

main();
