// `npm run bench -w @dss/editor` (after a build): the work behind one keystroke of the editor on
// packages/schema's generated 300-table diagram, without the browser: committing an added column (the
// engine's normalize → validate → apply, and the inverse for undo) and drawing the whole diagram again
// with the server's renderer (lines re-routed), and moving a table (the same). Each is measured
// alternately with JSON.stringify of the document in the same run, so both see the same machine load.
// The 100 ms (column) and 200 ms (move) budgets of the issue are for the whole path in the browser; this
// is the part that grows with the diagram.
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { type Measurement, measurePair } from '@dss/schema/dist/bench/measure';
import { renderDiagramSvg } from '@dss/diagram-svg';
import { EditorStore } from '../store';
import { runBrowserBench, runTypingBench } from './browser';

const RUNS = Number(process.env.DSS_BENCH_RUNS ?? 5);

function main(): void {
  const document = generateDiagram({ tables: 300, columnsPerTable: 12 });
  const target = document.tables[150]!;
  const stringify = () => JSON.stringify(document);
  let added = 0;
  const addColumn = measurePair(
    'add a column: edit + undo step + redraw',
    RUNS,
    () => {
      const store = new EditorStore(document, document.driver);
      const column = { name: `added_${added++}`, type: 'varchar(40)', is_nullable: true };
      const result = store.edit('Add column', {
        strategy: 'merge',
        tables: [{ name: target.name, columns: [column] }],
      });
      if (!result.ok) throw new Error(result.message);
      return renderDiagramSvg(store.document);
    },
    'JSON.stringify',
    stringify,
  );
  let step = 0;
  const move = measurePair(
    'move a table: edit + undo step + redraw',
    RUNS,
    () => {
      const store = new EditorStore(document, document.driver);
      step++;
      const entry = { name: target.name, left: target.left + step, top: target.top, columns: [] };
      const result = store.edit('Move table', { strategy: 'merge', tables: [entry] });
      if (!result.ok) throw new Error(result.message);
      return renderDiagramSvg(store.document);
    },
    'JSON.stringify',
    stringify,
  );
  console.log(
    `diagram: ${document.tables.length} tables × ${document.tables[0]!.columns.length} columns, ` +
      `${document.relationships.length} relationships; median (minimum) of ${RUNS} alternating runs`,
  );
  for (const pair of [addColumn, move]) {
    console.log(row(pair.baseline, pair.baseline));
    console.log(row(pair.work, pair.baseline));
  }
}

function row(measurement: Measurement, baseline: Measurement): string {
  const ratio = measurement.medianMs / baseline.medianMs;
  return (
    `${measurement.label.padEnd(44)} ${measurement.medianMs.toFixed(2).padStart(8)} ms ` +
    `(${measurement.minMs.toFixed(2)})  ${ratio.toFixed(2).padStart(6)} × JSON.stringify`
  );
}

// DSS_BENCH_PART=dbml runs only the DBML pane's part (typing in a 100-table diagram).
if (process.env.DSS_BENCH_PART === 'dbml')
  runTypingBench().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
else {
  main();
  runBrowserBench().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
