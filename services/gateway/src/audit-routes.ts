// GET /v1/audit-events: a team's audit log for its owners' tokens, newest first, paged like the diagram
// list (limit, cursor, meta.next_cursor / has_more), filtered by actor, action, target and time. Accounts
// stores the log and checks each filter, naming the bad query parameter (422 invalid_request).
import { auditEventResource, ServiceError, type ServiceClient } from '@dss/platform';
import type { RouteSpec } from './app';
import { queryLimit } from './diagram-routes';
import { invalidQuery, optionalQueryString } from './query';

type AccountsClient = ServiceClient<'Accounts'>;

export function auditRoutes(accounts: AccountsClient): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/audit-events',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        if (principal.role !== 'owner')
          throw new ServiceError('forbidden', "only an owner of the team can read the team's audit log");
        const limit = queryLimit(req);
        const cursor = optionalQueryString(req, 'cursor');
        if (cursor === '') throw invalidQuery('cursor', 'must be the meta.next_cursor of the previous page');
        const page = await accounts.ListAuditEvents({
          team_id: principal.team_id,
          actor: optionalQueryString(req, 'actor') ?? '',
          action: optionalQueryString(req, 'action') ?? '',
          target: optionalQueryString(req, 'target') ?? '',
          since: optionalQueryString(req, 'since') ?? '',
          until: optionalQueryString(req, 'until') ?? '',
          cursor: cursor ?? '',
          limit,
        });
        res.json({
          data: page.events.map(auditEventResource),
          meta: { next_cursor: page.has_more ? page.next_cursor || null : null, has_more: page.has_more },
        });
      },
    },
  ];
}
