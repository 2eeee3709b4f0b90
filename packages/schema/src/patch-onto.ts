// A stored patch made on one version of a diagram (its base), applied to the diagram as it is now: validated
// against its base, rebased by entity identity (src/rebase.ts), validated against the current document and
// applied there. One function, so the proposal's migration, its review page and its apply agree on what it
// means and on why it no longer applies.
import { apply } from './apply';
import type { DiagramDocument } from './model';
import { normalize } from './normalize';
import { MAX_PROBLEMS, type Patch, type PatchProblem } from './patch-types';
import { type RebaseConflict, rebaseConflictMessage, rebasePatch } from './rebase';
import { validate } from './validate';

export type PatchOntoResult =
  | { ok: true; patch: Patch; current: DiagramDocument; after: DiagramDocument }
  | {
      ok: false;
      /** Names the entities in conflict, or says which rule the change breaks now. */
      message: string;
      /** Entities changed since the base that the patch uses (empty when validation refused it). */
      conflicts: RebaseConflict[];
      /** Validation problems (empty for a rebase conflict); at most MAX_PROBLEMS. */
      problems: PatchProblem[];
    };

/**
 * `patchInput` (a stored, normalised patch) made on `base`, applied to `current`. A null `base` (a patch
 * whose base was not recorded) is judged against `current` alone.
 */
export function applyPatchOnto(
  patchInput: unknown,
  base: DiagramDocument | null,
  current: DiagramDocument,
): PatchOntoResult {
  const normalized = normalize(patchInput).patch;
  if (base !== null && base !== current) {
    const atBase = validate(normalized, base, current.driver, 'propose');
    if (!atBase.ok) return refused(`The change does not pass validation: ${atBase.message}`, atBase.problems);
    const rebased = rebasePatch(atBase.patch, base, current);
    if (!rebased.ok)
      return {
        ok: false,
        message: rebaseConflictMessage(rebased.conflicts),
        conflicts: rebased.conflicts,
        problems: [],
      };
  }
  const result = validate(normalized, current, current.driver, 'propose');
  if (!result.ok)
    return refused(`The change no longer fits the diagram as it is now: ${result.message}`, result.problems);
  return { ok: true, patch: result.patch, current, after: apply(current, result.patch).document };
}

function refused(message: string, problems: PatchProblem[]): PatchOntoResult {
  return { ok: false, message, conflicts: [], problems: problems.slice(0, MAX_PROBLEMS) };
}
