// PATCH /v1/diagrams/{uuid} (name and description) and POST /v1/diagrams/{uuid}/duplicate. Neither touches
// an existing diagram's schema: that stays with proposals, as the spec requires; nor does the API delete a
// diagram (the web app and the operator CLI do). The diagrams service checks the role (owners and editors,
// else 403 editor_required), the team (another team's diagram is 404) and the plan caps.
import { ServiceError, type ServiceClient } from '@dss/platform';
import type { RouteSpec } from './app';
import { objectBody } from './app';
import { diagramItem, uuidOf, wirePrincipal } from './diagram-routes';

type DiagramsClient = ServiceClient<'Diagrams'>;

const PATCHABLE = ['name', 'description'];

export function diagramLifecycleRoutes(diagrams: DiagramsClient): RouteSpec[] {
  return [
    {
      method: 'patch',
      path: '/diagrams/:uuid',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const fields = patchRequest(objectBody(req));
        const diagram = await diagrams.UpdateDiagram({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
          ...fields,
        });
        res.status(200).json({ data: diagramItem(diagram) });
      },
    },
    {
      method: 'post',
      path: '/diagrams/:uuid/duplicate',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const body = req.body === undefined || req.body === null ? {} : objectBody(req);
        const unknown = Object.keys(body).filter((key) => key !== 'name');
        if (unknown.length > 0) throw unsupported(unknown);
        if (body.name !== undefined && body.name !== null && typeof body.name !== 'string')
          throw invalid('name', 'must be a string');
        const copy = await diagrams.DuplicateDiagram({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
          ...(typeof body.name === 'string' ? { name: body.name } : {}),
        });
        res
          .status(201)
          .json({ data: diagramItem(copy.diagram!), counts: JSON.parse(copy.counts_json || '{}') });
      },
    },
  ];
}

/** `{name?, description?}`: strings (description may be null to clear it); anything else is refused. */
function patchRequest(body: Record<string, unknown>): { name?: string; description?: string } {
  const unknown = Object.keys(body).filter((key) => !PATCHABLE.includes(key));
  if (unknown.length > 0) throw unsupported(unknown);
  const { name, description } = body;
  if (name !== undefined && typeof name !== 'string') throw invalid('name', 'must be a string');
  if (description !== undefined && description !== null && typeof description !== 'string')
    throw invalid('description', 'must be a string or null');
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(description === null ? { description: '' } : typeof description === 'string' ? { description } : {}),
  };
}

function invalid(path: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `${path} ${problem}`, { errors: [{ path, message: problem }] });
}

/** A field this endpoint does not change (the schema, say: that is what proposals are for). */
function unsupported(keys: string[]): ServiceError {
  const problem =
    'cannot be changed here: only name and description can (the schema changes through proposals)';
  return new ServiceError('invalid_request', `${keys.join(', ')} ${problem}`, {
    errors: keys.map((path) => ({ path, message: problem })),
  });
}
