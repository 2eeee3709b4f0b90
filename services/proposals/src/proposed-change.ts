// A proposal on the diagram as it is now: the documents of the version it was made on and of the current
// version, read from diagrams, and its patch rebased from one onto the other by entity identity
// (@dss/schema applyPatchOnto). The migration, the review page and ApplyProposal all go through here, so
// they agree on what a proposal means and on why it no longer applies.
import { ServiceError, type ServiceClient } from '@dss/platform';
import { applyPatchOnto, type DiagramDocument, rebaseConflictProblems } from '@dss/schema';
import type { ProposalRow } from './repository';

export interface ProposedChange {
  current: DiagramDocument;
  currentVersionUuid: string;
  after: DiagramDocument;
}

/**
 * The proposal applied to the current document, or a `conflict` naming what changed since its base (with
 * `conflicts`), or saying which rule it now breaks (with `errors`). `userId` is the member asking.
 */
export async function proposedChange(
  diagrams: ServiceClient<'Diagrams'>,
  row: ProposalRow,
  patch: unknown,
  userId: string,
): Promise<ProposedChange> {
  // Diagrams scopes reads by a principal; the proposal's team and the member asking are all it needs.
  const principal = { team_id: row.team_id, user_id: userId } as Parameters<
    typeof diagrams.GetFullDocument
  >[0]['principal'];
  const full = await diagrams.GetFullDocument({ principal, uuid: row.diagram_uuid });
  const current = (JSON.parse(full.body) as { data: DiagramDocument }).data;
  const base = await baseDocument(diagrams, principal, row, full.version_uuid, current);
  const result = applyPatchOnto(patch, base, current);
  // `errors` as an editor save's conflict has them (one per entity), `conflicts` with the entity's fields.
  if (!result.ok)
    throw new ServiceError(
      'conflict',
      result.message,
      result.conflicts.length > 0
        ? { errors: rebaseConflictProblems(result.conflicts), conflicts: result.conflicts }
        : { errors: result.problems },
    );
  return { current, currentVersionUuid: full.version_uuid, after: result.after };
}

/** The document the proposal was made on: the current one when nothing changed since, null if unknown. */
async function baseDocument(
  diagrams: ServiceClient<'Diagrams'>,
  principal: Parameters<ServiceClient<'Diagrams'>['GetVersionChange']>[0]['principal'],
  row: ProposalRow,
  currentVersionUuid: string,
  current: DiagramDocument,
): Promise<DiagramDocument | null> {
  if (row.base_version_uuid === null) return null;
  if (row.base_version_uuid === currentVersionUuid) return current;
  const version = await diagrams.GetVersionChange({
    principal,
    uuid: row.diagram_uuid,
    version_uuid: row.base_version_uuid,
  });
  return JSON.parse(version.after_json) as DiagramDocument;
}
