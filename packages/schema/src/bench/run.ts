// `npm run bench` (after a build): the cost of applying a ~500KB patch to a 1,000-table diagram and of
// rendering that diagram as Markdown, next to JSON.parse of the same patch bytes measured in the same run.
import { apply } from '../apply';
import { renderMarkdown } from '../markdown';
import type { Patch } from '../patch-types';
import { generateDiagram } from './generate-diagram';
import { generatePatch } from './generate-patch';
import { formatRow, measure } from './measure';

const RUNS = 25;

function main(): void {
  const document = generateDiagram({ tables: 1000, columnsPerTable: 20 });
  const { json, patch } = generatePatch(document, { targetBytes: 500 * 1024 });
  const placedPatch = withPositions(patch);
  const parse = measure('JSON.parse of the patch (baseline)', RUNS, () => JSON.parse(json));
  const rows = [
    measure('apply (with layout of new tables, and diff)', RUNS, () => apply(document, patch)),
    measure('apply (every table sent with a position)', RUNS, () => apply(document, placedPatch)),
    measure('renderMarkdown detailed', RUNS, () => renderMarkdown(document, 'detailed')),
    measure('renderMarkdown simple', RUNS, () => renderMarkdown(document, 'simple')),
  ];
  const newTables = patch.tables.filter(
    (table) => !document.tables.some((t) => t.name === table.name),
  ).length;
  console.log(
    `diagram: ${document.tables.length} tables, ${document.tables[0]!.columns.length} columns each, ${document.relationships.length} relationships`,
  );
  console.log(
    `patch: ${(json.length / 1024).toFixed(0)} KB, ${patch.tables.length} table entries (${newTables} new), median of ${RUNS} runs`,
  );
  console.log(formatRow(parse, parse));
  for (const row of rows) console.log(formatRow(row, parse));
}

/** The same patch with every table placed far right of the diagram, so no layout is computed. */
function withPositions(patch: Patch): Patch {
  return {
    ...patch,
    groups: patch.groups.map((group) => ({ ...group, left: 200_000, top: 0, width: 100, height: 100 })),
    tables: patch.tables.map((table, i) => ({ ...table, left: 100_000 + 400 * i, top: 0 })),
  };
}

main();
