// A patch sent for a diagram (a new proposal, or a revision of one), checked as the spec checks a proposal:
// the diagram visible to the token and ready, the token's user an owner or editor, the patch normalised and
// validated in `propose` mode against the diagram as it is now, not empty, and within the plan's table cap.
import { ensureWithinBytes, isUuid, ServiceError, type ServiceClient } from '@dss/platform';
import {
  apply,
  type DiagramDocument,
  diff,
  type Driver,
  isEmptyDiff,
  MAX_PROBLEMS,
  MAX_SCHEMA_BYTES,
  normalize,
  proposalCounts,
  validate,
} from '@dss/schema';
import { type Caller, canEdit } from './requests';

export interface CheckedPatch {
  diagramUuid: string;
  /** The normalised form (normalising again gives the same); re-validated when applied. */
  patch: unknown;
  counts: ReturnType<typeof proposalCounts>;
  /** The diagram version the patch was checked against (its base); null if diagrams names none. */
  baseVersionUuid: string | null;
  /** The diagram as it is now, and as the patch would make it (what lint judges). */
  before: DiagramDocument;
  proposed: DiagramDocument;
}

async function visibleDiagram(
  diagrams: ServiceClient<'Diagrams'>,
  caller: Caller,
  principal: unknown,
  diagramUuid: string,
) {
  if (!isUuid(diagramUuid))
    throw new ServiceError('not_found', 'no such diagram, or the token cannot see it');
  const wire = principal as Parameters<typeof diagrams.GetDiagram>[0]['principal'];
  const diagram = await diagrams.GetDiagram({ principal: wire, uuid: diagramUuid });
  if (!canEdit(caller.role))
    throw new ServiceError('editor_required', 'the token’s user can view this diagram but not edit it');
  if (diagram.status !== 'ready')
    throw new ServiceError(
      'diagram_not_ready',
      diagram.status === 'importing'
        ? 'the diagram is still importing; poll GET /diagrams/{uuid} until its status is ready'
        : 'the diagram’s import failed, so it has no schema',
    );
  const full = await diagrams.GetFullDocument({ principal: wire, uuid: diagramUuid });
  const document = (JSON.parse(full.body) as { data: DiagramDocument }).data;
  return { uuid: diagram.uuid, driver: diagram.driver as Driver, document, versionUuid: full.version_uuid };
}

export async function checkProposedPatch(
  diagrams: ServiceClient<'Diagrams'>,
  caller: Caller,
  principal: unknown,
  diagramUuid: string,
  schemaJson: string,
): Promise<CheckedPatch> {
  ensureWithinBytes('schema', schemaJson, MAX_SCHEMA_BYTES);
  const diagram = await visibleDiagram(diagrams, caller, principal, diagramUuid);
  const normalized = normalize(schemaJson);
  const result = validate(normalized.patch, diagram.document, diagram.driver, 'propose');
  if (!result.ok)
    throw new ServiceError('invalid_schema', result.message, {
      errors: result.problems.slice(0, MAX_PROBLEMS),
    });
  const proposed = apply(diagram.document, result.patch).document;
  // A patch that only restates the diagram would open a review with nothing to decide.
  if (isEmptyDiff(diff(diagram.document, proposed)))
    throw new ServiceError('invalid_schema', 'The patch changes nothing in the diagram', {
      errors: [
        { path: '', message: 'the patch changes nothing in the diagram: every entry is already there' },
      ],
    });
  const limit = caller.maxTablesPerDiagram;
  if (limit !== null) {
    const before = diagram.document.tables.length;
    const requested = proposed.tables.length;
    if (requested > limit && requested > before)
      throw new ServiceError(
        'plan_limit',
        `the team's plan allows at most ${limit} tables per diagram; with this patch the diagram would have ${requested}`,
        { limit_type: 'tables', limit, requested },
      );
  }
  return {
    diagramUuid: diagram.uuid,
    patch: normalized.patch,
    counts: proposalCounts(result.patch),
    baseVersionUuid: diagram.versionUuid === '' ? null : diagram.versionUuid,
    before: diagram.document,
    proposed,
  };
}
