// The diagram as it would be after a proposal: the stored patch normalised, validated against the
// current document and applied, with the same @dss/schema calls diagrams.ApplyPatch makes, so what the
// review page shows is what "Apply changes" would write.
import {
  apply,
  type DiagramDocument,
  type DocumentDiff,
  type Driver,
  diff,
  MAX_PROBLEMS,
  normalize,
  validate,
} from '@dss/schema';

export type ProposedChange =
  | { fits: true; before: DiagramDocument; after: DiagramDocument; changes: DocumentDiff }
  | { fits: false; problems: { path: string; message: string }[]; message: string };

export function proposedChange(before: DiagramDocument, patchJson: string, driver: Driver): ProposedChange {
  const normalized = normalize(JSON.parse(patchJson) as unknown);
  const result = validate(normalized.patch, before, driver, 'propose');
  if (!result.ok)
    return { fits: false, message: result.message, problems: result.problems.slice(0, MAX_PROBLEMS) };
  const after = apply(before, result.patch).document;
  return { fits: true, before, after, changes: diff(before, after) };
}
