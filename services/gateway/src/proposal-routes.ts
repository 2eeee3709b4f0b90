// The /v1 proposal routes: propose a patch to a diagram, and read a proposal's state. The gateway checks
// the shape of the request (body field types and sizes) and the proposals service decides everything
// else. Proposal responses carry counts and states only, never names or values from the patch.
import { ensureWithinBytes, ServiceError, type ServiceClient } from '@dss/platform';
import {
  MAX_PROPOSAL_MESSAGE_CHARACTERS,
  MAX_PROPOSAL_TITLE_CHARACTERS,
  MAX_SCHEMA_BYTES,
} from '@dss/schema';
import type { DiagramDocument } from '@dss/schema';
import type { RouteSpec } from './app';
import { objectBody } from './app';
import { uuidOf, wirePrincipal } from './diagram-routes';
import { sendRepresentation } from './representation';
import { restorePatch } from './restore-patch';

/** Spec "Sizes and bounds", in characters (code points). */

type ProposalsClient = ServiceClient<'Proposals'>;
type DiagramsClient = ServiceClient<'Diagrams'>;
type ProposalMessage = Awaited<ReturnType<ProposalsClient['GetProposal']>>;

/** The spec's create response table. */
export function proposalCreated(proposal: ProposalMessage) {
  const counts = proposal.counts;
  return {
    uuid: proposal.uuid,
    status: proposal.state,
    review_url: proposal.review_url,
    expires_at: proposal.expires_at,
    counts: {
      tables: counts?.tables ?? 0,
      columns: counts?.columns ?? 0,
      relationships: counts?.relationships ?? 0,
      groups: counts?.groups ?? 0,
      sticky_notes: counts?.sticky_notes ?? 0,
      deletions: counts?.deletions ?? 0,
    },
  };
}

/**
 * The spec's status table: every field present, null where due, in the proposals service's key order, so
 * that these bytes are the ones the service's `etag` was computed over (one source for the ETag).
 */
export function proposalStatus(proposal: ProposalMessage) {
  return {
    uuid: proposal.uuid,
    state: proposal.state,
    opened_at: proposal.opened_at ?? null,
    applied_at: proposal.applied_at ?? null,
    applied_version_uuid: proposal.applied_version_uuid ?? null,
    declined_at: proposal.declined_at ?? null,
    decline_reason: proposal.decline_reason ?? null,
    expires_at: proposal.expires_at,
    base_version_uuid: proposal.base_version_uuid || null,
  };
}

export function invalidBodyField(path: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `${path} ${problem}`, { errors: [{ path, message: problem }] });
}

const characters = (text: string) => [...text].length;

function requiredText(body: Record<string, unknown>, path: string, max: number): string {
  const value = body[path];
  if (value === undefined || value === null) throw invalidBodyField(path, 'is required');
  if (typeof value !== 'string') throw invalidBodyField(path, 'must be a string');
  if (value.trim() === '') throw invalidBodyField(path, 'must not be empty');
  if (characters(value) > max) throw invalidBodyField(path, `must be at most ${max} characters`);
  return value;
}

/**
 * `restore_version` (instead of `schema`): the version a restore proposal takes the diagram back to;
 * undefined when the body proposes a schema patch.
 */
function restoreVersionOf(body: Record<string, unknown>): number | undefined {
  const value = body.restore_version;
  if (value === undefined) return undefined;
  if (body.schema !== undefined)
    throw invalidBodyField(
      'restore_version',
      'cannot be sent with schema: a proposal carries one or the other',
    );
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 999_999_999)
    throw invalidBodyField('restore_version', 'must be a version number (1 is the oldest)');
  return value;
}

/** The body of POST /diagrams/{uuid}/proposals checked for shape and size. */
function proposeRequest(body: Record<string, unknown>) {
  const { schema } = body;
  if (schema === undefined || schema === null)
    throw invalidBodyField('schema', 'is required (a schema patch object, or a JSON string holding one)');
  let schemaJson: string;
  if (typeof schema === 'string') schemaJson = schema;
  else if (typeof schema === 'object' && !Array.isArray(schema)) schemaJson = JSON.stringify(schema);
  else
    throw invalidBodyField('schema', 'must be a JSON object (a schema patch) or a JSON string holding one');
  ensureWithinBytes('schema', schemaJson, MAX_SCHEMA_BYTES);
  const title = requiredText(body, 'title', MAX_PROPOSAL_TITLE_CHARACTERS);
  const message = requiredText(body, 'message', MAX_PROPOSAL_MESSAGE_CHARACTERS);
  return { schema_json: schemaJson, title, message };
}

export function proposalRoutes(proposals: ProposalsClient, diagrams: DiagramsClient): RouteSpec[] {
  /** A restore proposal's patch: from the diagram as it is now back to version `number`. */
  async function restoreSchema(principal: ReturnType<typeof wirePrincipal>, uuid: string, number: number) {
    const [full, stored] = await Promise.all([
      diagrams.GetFullDocument({ principal, uuid, known_etag: '' }),
      diagrams.GetVersionSchema({ principal, uuid, number, format: 'document', level: '' }),
    ]);
    const current = (JSON.parse(full.body) as { data: DiagramDocument }).data;
    return JSON.stringify(restorePatch(current, JSON.parse(stored.body) as DiagramDocument));
  }

  return [
    {
      method: 'post',
      path: '/diagrams/:uuid/proposals',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const body = objectBody(req);
        const restoreVersion = restoreVersionOf(body);
        const wire = wirePrincipal(principal);
        const uuid = uuidOf(req);
        const request =
          restoreVersion === undefined
            ? proposeRequest(body)
            : proposeRequest({
                ...body,
                restore_version: undefined,
                schema: await restoreSchema(wire, uuid, restoreVersion),
              });
        const created = await proposals.CreateProposal({
          principal: wire,
          diagram_uuid: uuid,
          ...request,
        });
        res.status(201).json({ data: proposalCreated(created) });
      },
    },
    {
      method: 'get',
      path: '/proposals/:uuid',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const proposal = await proposals.GetProposal({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
        });
        sendRepresentation(req, res, {
          body: JSON.stringify({ data: proposalStatus(proposal) }),
          etag: proposal.etag,
          content_type: 'application/json; charset=utf-8',
        });
      },
    },
  ];
}
