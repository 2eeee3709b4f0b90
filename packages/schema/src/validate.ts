// Validates a normalised patch against the contract, the driver's type catalog and the diagram it will be
// applied to, and returns either the fully typed Patch or the API error it deserves.
//
// When several error codes apply, the first of these wins (each is checked only if the ones before pass):
//   1. unsupported_field (create only): canvas positions or sizes anywhere the contract allows them;
//      `paths` lists every one, so a client can strip them all in one go, and `problems` lists them with
//      every other problem of the patch (no_tables included), so one answer shows everything to fix.
//   2. no_tables (create only): the patch defines no table.
//   3. invalid_schema: everything else, with up to MAX_PROBLEMS problems.
// Never throws, and runs in time linear in the size of the patch plus the document.
import { checkCheckExpressions, checkCollations, checkWrittenNames } from './validation/check-expressions';
import { type ContractNode, patchContract } from './contract/contract';
import type { DiagramDocument, Driver } from './model';
import {
  isPlainObject,
  type NormalizedPatch,
  type NormalizedPatchObject,
  RejectedPatchInput,
} from './normalize';
import { MAX_PROBLEMS, type Patch, type PatchProblem, type ValidationMode } from './patch-types';
import { buildPatch } from './validation/build-patch';
import { planDeletions } from './validation/deletion-plan';
import { DocumentIndex } from './validation/document-index';
import { FinalSchema } from './validation/final-schema';
import { ProblemList, pathOf } from './validation/problem-list';
import { readShapedPatch } from './validation/read-shaped-patch';
import { checkGroups, checkIndexColumns, checkRelationships } from './validation/reference-checks';
import { checkRelationshipIntegrity } from './validation/relationship-integrity';
import { planTables } from './validation/table-plan';

export type ValidationErrorCode = 'invalid_schema' | 'no_tables' | 'unsupported_field';

export type ValidationResult =
  | { ok: true; patch: Patch }
  | {
      ok: false;
      code: ValidationErrorCode;
      message: string;
      /** At most MAX_PROBLEMS entries. */
      problems: PatchProblem[];
      /** For `unsupported_field`: every path carrying a canvas position or size. */
      paths?: string[];
    };

function invalid(problems: ProblemList): ValidationResult {
  const [first] = problems.items;
  // A summary only: each problem is stated once, in `errors` (path and message).
  const message =
    problems.total === 1
      ? first!.path === ''
        ? `The patch is invalid: ${first!.message}`
        : `The patch has 1 problem, at ${first!.path}`
      : `The patch has ${problems.total} problems${problems.total > MAX_PROBLEMS ? `; the first ${MAX_PROBLEMS} are listed` : ''}`;
  return { ok: false, code: 'invalid_schema', message, problems: problems.items };
}

/** Every path where the value carries a field the contract forbids on create. */
function forbiddenOnCreate(node: ContractNode, value: unknown, path: string, found: string[]): void {
  if (Array.isArray(value) && node.items !== null) {
    for (const [index, item] of value.entries())
      forbiddenOnCreate(node.items, item, `${path}[${index}]`, found);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const { key, node: child } of node.propertyList) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
    if (child.spec.create === 'forbidden') found.push(pathOf(path, key));
    else forbiddenOnCreate(child, value[key], pathOf(path, key), found);
  }
}

/**
 * Canvas positions on create. The answer lists every other problem of the patch too (`errors` beside
 * `paths`), so a client fixes everything in one round instead of discovering the next code on retry.
 */
function unsupportedFields(
  patch: NormalizedPatchObject,
  driver: Driver,
): Extract<ValidationResult, { ok: false }> | null {
  const paths: string[] = [];
  forbiddenOnCreate(patchContract, patch, '', paths);
  if (paths.length === 0) return null;
  const problems = new ProblemList();
  for (const path of paths.slice(0, MAX_PROBLEMS)) {
    problems.add(path, 'canvas positions and sizes are computed when a diagram is created; remove it');
  }
  if (definesNoTables(patch)) problems.add('tables', NO_TABLES);
  else checkPatch(patch, null, driver, problems);
  const message = `The patch carries canvas positions or sizes (${paths.length}), which are computed on create`;
  return { ok: false, code: 'unsupported_field', message, problems: problems.items, paths };
}

const NO_TABLES = 'The patch defines no tables; a new diagram needs at least one';

function definesNoTables(patch: NormalizedPatchObject): boolean {
  return patch.tables === undefined || (Array.isArray(patch.tables) && patch.tables.length === 0);
}

function checkPatch(
  patch: NormalizedPatchObject,
  document: DiagramDocument | null,
  driver: Driver,
  problems: ProblemList,
): Patch | null {
  const shaped = readShapedPatch(patch, problems);
  const index = new DocumentIndex(document);
  const deletions = planDeletions(shaped, index, problems);
  if (deletions.entryCount > 0 && shaped.strategy === 'additive')
    problems.add('deletions', 'deletions need strategy merge (additive only adds)');
  const plans = planTables(shaped.tables, driver, shaped.strategy, index, deletions, problems);
  const final = new FinalSchema(index, plans, deletions);
  checkIndexColumns(plans, final, problems);
  checkCheckExpressions(shaped.tables, problems);
  checkWrittenNames(shaped.tables, driver, problems);
  checkCollations(plans, driver, problems);
  checkRelationships(shaped, final, deletions, problems);
  checkGroups(shaped, index, deletions, problems);
  if (!problems.isEmpty || shaped.strategy === null) return null;
  const built = buildPatch(shaped, shaped.strategy, plans);
  checkRelationshipIntegrity(document, built, driver, problems);
  return problems.isEmpty ? built : null;
}

/**
 * Validates a patch from `normalize` for `driver`. `document` is the diagram the patch will be applied to
 * (null on create, which validates against an empty diagram).
 */
export function validate(
  normalized: NormalizedPatch,
  document: DiagramDocument | null,
  driver: Driver,
  mode: ValidationMode,
): ValidationResult {
  const problems = new ProblemList();
  if (normalized instanceof RejectedPatchInput || !isPlainObject(normalized)) {
    const reason = normalized instanceof RejectedPatchInput ? `: ${normalized.reason}` : '';
    problems.add('', `patch must be a JSON object${reason}`);
    return invalid(problems);
  }
  if (mode === 'create') {
    const unsupported = unsupportedFields(normalized, driver);
    if (unsupported !== null) return unsupported;
    if (definesNoTables(normalized)) {
      return {
        ok: false,
        code: 'no_tables',
        message: NO_TABLES,
        problems: [{ path: 'tables', message: NO_TABLES }],
      };
    }
  }
  const patch = checkPatch(normalized, document, driver, problems);
  return patch === null ? invalid(problems) : { ok: true, patch };
}
