// GET /v1/audit-events: a team's audit log for its owners' tokens, newest first, paged like the diagram
// list (limit, cursor, meta.next_cursor / has_more), filtered by actor, action, target and time. Accounts
// stores the log and checks each filter, naming the bad query parameter (422 invalid_request).
import { ServiceError, type ServiceClient } from '@dss/platform';
import type { RouteSpec } from './app';
import { queryLimit } from './diagram-routes';
import { invalidQuery, optionalQueryString } from './query';

type AccountsClient = ServiceClient<'Accounts'>;
type AuditEventMessage = Awaited<ReturnType<AccountsClient['ListAuditEvents']>>['events'][number];

const orNull = (value: string | undefined) => (value ? value : null);

/** An audit entry as the API shows it. */
export function auditEventResource(event: AuditEventMessage) {
  const actor = event.actor;
  const target = event.target;
  return {
    id: event.id,
    action: event.action,
    actor: {
      kind: actor?.kind ?? 'system',
      id: orNull(actor?.id),
      user: actor?.user_id
        ? { id: actor.user_id, email: orNull(actor.user_email), name: orNull(actor.user_name) }
        : null,
    },
    target: { kind: target?.kind ?? '', id: orNull(target?.id), name: orNull(target?.name) },
    team: event.team_id ? { id: event.team_id, slug: event.team_slug, name: event.team_name } : null,
    created_at: event.created_at,
    request_id: orNull(event.request_id),
    ip: orNull(event.ip),
    details: JSON.parse(event.details_json || '{}') as Record<string, unknown>,
  };
}

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
