// The diagram as it would be after a patch: a pasted patch normalised, validated against the current
// document and applied, with the same @dss/schema calls diagrams.ApplyPatch makes, so what the page shows
// is what applying would write. A proposal's change comes from the proposals service, which rebases its
// patch from the version it was made on (the same answer its migration and its apply give).
import { isServiceError } from '@dss/platform';
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
import type { WebClients } from './clients';

export type ProposedChange =
  | { fits: true; before: DiagramDocument; after: DiagramDocument; changes: DocumentDiff }
  | {
      fits: false;
      problems: { path: string; message: string }[];
      message: string;
      /** What changed since the proposal's base version, by entity (a stale proposal). */
      conflicts?: { reason: string }[];
    };

export function proposedChange(before: DiagramDocument, patchJson: string, driver: Driver): ProposedChange {
  const normalized = normalize(JSON.parse(patchJson) as unknown);
  const result = validate(normalized.patch, before, driver, 'propose');
  if (!result.ok)
    return { fits: false, message: result.message, problems: result.problems.slice(0, MAX_PROBLEMS) };
  const after = apply(before, result.patch).document;
  return { fits: true, before, after, changes: diff(before, after) };
}

/** A proposal on the diagram as it is now, for the member `userId`; a conflict is a change that does not fit. */
export async function proposalChange(
  clients: WebClients,
  proposalUuid: string,
  userId: string,
): Promise<ProposedChange> {
  try {
    const change = await clients.proposals.GetProposedChange({ uuid: proposalUuid, user_id: userId });
    const before = JSON.parse(change.current_json) as DiagramDocument;
    const after = JSON.parse(change.proposed_json) as DiagramDocument;
    return { fits: true, before, after, changes: diff(before, after) };
  } catch (error) {
    if (!isServiceError(error) || error.code !== 'conflict') throw error;
    return {
      fits: false,
      message: error.message,
      // A stale proposal's `errors` repeat its conflicts; they are listed once, as conflicts.
      problems: error.extra.conflicts?.length ? [] : (error.extra.errors ?? []),
      conflicts: error.extra.conflicts ?? [],
    };
  }
}
