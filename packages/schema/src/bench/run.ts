// `npm run bench` (after a build): the cost of normalising, validating and applying a ~500KB patch to a
// 1,000-table diagram, and of rendering that diagram as Markdown, next to JSON.parse of the same patch
// bytes measured in the same run. The last line checks the target: normalize + validate + apply under
// 10 × JSON.parse, both measured alternately in one loop so they see the same machine load.
import { apply } from '../apply';
import { diff } from '../diff';
import { lintSchema } from '../lint';
import { renderMarkdown } from '../markdown';
import type { DiagramDocument } from '../model';
import { normalize } from '../normalize';
import type { Patch } from '../patch-types';
import { validate } from '../validate';
import { generateDiagram } from '../generated/generate-diagram';
import { generatePatch } from './generate-patch';
import { formatRow, measure, measurePair } from './measure';

const RUNS = 41;
const TARGET_RUNS = 101;
const TARGET_RATIO = 10;

function main(): void {
  const document = generateDiagram({ tables: 1000, columnsPerTable: 20 });
  const { json, patch } = generatePatch(document, { targetBytes: 500 * 1024 });
  const parsed = JSON.parse(json);
  const validated = validatePatch(parsed, document);
  const placed = withPositions(validated);
  const parseOnce = () => JSON.parse(json);
  const pipeline = () => apply(document, validatePatch(parsed, document));
  const parse = measure('JSON.parse of the patch (baseline)', RUNS, parseOnce);
  const rows = [
    measure('normalize + validate', RUNS, () => validatePatch(parsed, document)),
    measure('apply, every table sent with a position', RUNS, () => apply(document, placed)),
    measure('apply, new tables laid out by dagre', RUNS, () => apply(document, validated)),
    measure('normalize + validate + apply (laid out)', RUNS, pipeline),
    measure('apply (laid out) + diff', RUNS, () => diff(document, apply(document, validated).document)),
    measure('lintSchema (every rule on)', RUNS, () => lintSchema(document)),
    measure('apply (laid out) + lintSchema of the change', RUNS, () =>
      lintSchema(apply(document, validated).document, { before: document }),
    ),
    measure('renderMarkdown detailed', RUNS, () => renderMarkdown(document, 'detailed')),
    measure('renderMarkdown simple', RUNS, () => renderMarkdown(document, 'simple')),
  ];
  const target = measurePair(
    'normalize + validate + apply (laid out)',
    TARGET_RUNS,
    pipeline,
    'JSON.parse of the patch',
    parseOnce,
  );
  const names = new Set(document.tables.map((table) => table.name));
  const newTables = patch.tables.filter((table) => !names.has(table.name)).length;
  console.log(
    `diagram: ${document.tables.length} tables × ${document.tables[0]!.columns.length} columns, ` +
      `${document.relationships.length} relationships`,
  );
  console.log(
    `patch: ${(json.length / 1024).toFixed(0)} KB, ${patch.tables.length} table entries (${newTables} new); ` +
      `median (and minimum) of ${RUNS} runs after warm-up`,
  );
  console.log(formatRow(parse, parse));
  for (const row of rows) console.log(formatRow(row, parse));
  console.log('');
  console.log(
    `target: normalize + validate + apply < ${TARGET_RATIO} × JSON.parse (${TARGET_RUNS} alternating runs)`,
  );
  console.log(formatRow(target.baseline, target.baseline));
  console.log(formatRow(target.work, target.baseline));
  const ratio = target.work.medianMs / target.baseline.medianMs;
  const minRatio = target.work.minMs / target.baseline.minMs;
  const cpuRatio = target.workCpuMs / target.baselineCpuMs;
  console.log(
    `CPU time per run (median, all threads): ${target.workCpuMs.toFixed(2)} ms vs ` +
      `${target.baselineCpuMs.toFixed(2)} ms, ${cpuRatio.toFixed(2)} ×`,
  );
  console.log(
    `ratio of medians ${ratio.toFixed(2)} × (of minimums ${minRatio.toFixed(2)} ×): ` +
      (ratio < TARGET_RATIO ? `target met` : `target NOT met`),
  );
}

function validatePatch(parsed: unknown, document: DiagramDocument): Patch {
  const result = validate(normalize(parsed).patch, document, document.driver, 'propose');
  if (!result.ok) throw new Error(`generated patch is invalid: ${JSON.stringify(result.problems)}`);
  return result.patch;
}

/** The same patch with every table and group placed far right of the diagram, so no layout is computed. */
function withPositions(patch: Patch): Patch {
  return {
    ...patch,
    groups: patch.groups.map((group) => ({ ...group, left: 200_000, top: 0, width: 100, height: 100 })),
    tables: patch.tables.map((table, i) => ({ ...table, left: 100_000 + 400 * i, top: 0 })),
  };
}

main();
