// gRPC handlers of the Notifications service: owners of a team register, list, delete, rotate and enable
// webhook endpoints and read and replay their deliveries. Another team's endpoint, like an unknown one,
// is not_found.
import { randomUUID } from 'node:crypto';
import {
  invalidField,
  isUuid,
  recordAudit,
  ServiceError,
  type ServiceHandlers,
  withTransaction,
} from '@dss/platform';
import type { Pool, PoolClient } from 'pg';
import { WEBHOOK_EVENT_TYPES } from './events';
import { type AllowList, checkTarget, parseTargetUrl, TargetRefused } from './outbound-guard';
import * as repo from './repository';
import type { SecretKeys } from './secret-keys';
import { newSecret } from './signing';
import { toDelivery, toWebhook } from './wire';

export const MAX_ENDPOINTS_PER_TEAM = 20;
export const MAX_URL_CHARACTERS = 2048;

export interface NotificationsHandlerDeps {
  pool: Pool;
  allowList: AllowList;
  retryWindowSeconds: number;
  secretOverlapSeconds: number;
  /** Encrypts each new secret before it is stored. */
  secretKeys: SecretKeys;
  /** A delivery was requeued or an endpoint enabled: the sender should look now. */
  wake: () => void;
}

interface PrincipalLike {
  team_id: string;
  role: string;
  token_id: string;
  user_id?: string;
}

/** One webhook change, recorded in the audit log in the transaction that makes it. */
function auditWebhook(
  client: PoolClient,
  principal: PrincipalLike | null | undefined,
  action: string,
  endpoint: { id: string; team_id: string; url: string },
  details: Record<string, unknown> = {},
) {
  const userId = principal?.user_id || null;
  return recordAudit(client, repo.SCHEMA, {
    action,
    team_id: endpoint.team_id,
    // The URL without its query, which may carry a receiver's own secret.
    target: { kind: 'webhook', id: endpoint.id, name: urlWithoutQuery(endpoint.url) },
    user_id: userId,
    ...(principal?.token_id
      ? { actor: { kind: 'token' as const, id: principal.token_id, user_id: userId } }
      : {}),
    details,
  });
}

function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

function ownerTeam(principal: PrincipalLike | null | undefined): string {
  if (!principal?.team_id) throw new ServiceError('unauthenticated', 'no principal');
  if (principal.role !== 'owner')
    throw new ServiceError('forbidden', "only an owner of the team can manage the team's webhooks");
  return principal.team_id.toLowerCase();
}

const webhookNotFound = () => new ServiceError('not_found', 'no webhook with this id');

function checkEvents(events: string[]): string[] {
  if (events.length === 0) throw invalidField('events', 'must name at least one event type');
  const unknown = events.find((event) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event));
  if (unknown !== undefined)
    throw invalidField('events', `holds an unknown event type; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return [...new Set(events)];
}

async function checkUrl(url: string, allowList: AllowList): Promise<string> {
  if (url === '') throw invalidField('url', 'is required');
  if (url.length > MAX_URL_CHARACTERS)
    throw invalidField('url', `must be at most ${MAX_URL_CHARACTERS} characters`);
  try {
    parseTargetUrl(url);
    await checkTarget(url, allowList);
  } catch (error) {
    if (error instanceof TargetRefused) throw invalidField('url', error.message);
    throw error;
  }
  return new URL(url).toString();
}

export function createNotificationsHandlers(
  deps: NotificationsHandlerDeps,
): ServiceHandlers<'Notifications'> {
  const { pool } = deps;

  async function owned(principal: PrincipalLike | null | undefined, id: string) {
    const teamId = ownerTeam(principal);
    if (!isUuid(id)) throw webhookNotFound();
    const endpoint = await repo.findEndpoint(pool, teamId, id.toLowerCase());
    if (!endpoint) throw webhookNotFound();
    return endpoint;
  }

  return {
    async CreateWebhook(request) {
      const teamId = ownerTeam(request.principal);
      const events = checkEvents(request.events);
      const url = await checkUrl(request.url, deps.allowList);
      if ((await repo.countEndpoints(pool, teamId)) >= MAX_ENDPOINTS_PER_TEAM)
        throw new ServiceError(
          'conflict',
          `a team has at most ${MAX_ENDPOINTS_PER_TEAM} webhooks; delete one first`,
        );
      const secret = newSecret();
      const row = await withTransaction(pool, async (client) => {
        const inserted = await repo.insertEndpoint(client, {
          id: randomUUID(),
          team_id: teamId,
          url,
          events,
          secret: deps.secretKeys.encrypt(secret),
          token_id: request.principal?.token_id ?? '',
        });
        await auditWebhook(client, request.principal, 'webhook.created', inserted, { events });
        return inserted;
      });
      return { ...toWebhook(row), secret };
    },

    async ListWebhooks(request) {
      const rows = await repo.listEndpoints(pool, ownerTeam(request.principal));
      return { webhooks: rows.map(toWebhook) };
    },

    async DeleteWebhook(request) {
      const endpoint = await owned(request.principal, request.id);
      await withTransaction(pool, async (client) => {
        if (await repo.deleteEndpoint(client, endpoint.team_id, endpoint.id))
          await auditWebhook(client, request.principal, 'webhook.deleted', endpoint);
      });
      return toWebhook(endpoint);
    },

    async RotateWebhookSecret(request) {
      const endpoint = await owned(request.principal, request.id);
      const secret = newSecret();
      const row = await withTransaction(pool, async (client) => {
        const rotated = await repo.rotateSecret(
          client,
          endpoint.id,
          deps.secretKeys.encrypt(secret),
          deps.secretOverlapSeconds,
        );
        await auditWebhook(client, request.principal, 'webhook.secret_rotated', endpoint, {
          overlap_seconds: deps.secretOverlapSeconds,
        });
        return rotated;
      });
      return { ...toWebhook(row), secret };
    },

    async EnableWebhook(request) {
      const endpoint = await owned(request.principal, request.id);
      const row =
        endpoint.status === 'enabled'
          ? endpoint
          : await withTransaction(pool, async (client) => {
              const enabled = await repo.setEnabled(client, endpoint.id);
              await auditWebhook(client, request.principal, 'webhook.changed', endpoint, {
                status: { from: endpoint.status, to: 'enabled' },
              });
              return enabled;
            });
      deps.wake();
      return toWebhook(row);
    },

    async ListDeliveries(request) {
      const endpoint = await owned(request.principal, request.id);
      if (request.limit < 0 || request.limit > 100) throw invalidField('limit', 'must be from 1 to 100');
      const rows = await repo.listDeliveries(pool, endpoint.id, request.limit || 50);
      const attempts = await repo.attemptsOf(
        pool,
        rows.map((row) => row.id),
      );
      return { deliveries: rows.map((row) => toDelivery(row, attempts.get(row.id) ?? [])) };
    },

    async Redeliver(request) {
      const endpoint = await owned(request.principal, request.id);
      const deliveryId = request.delivery_id;
      if (!isUuid(deliveryId)) throw new ServiceError('not_found', 'no delivery with this id');
      const delivery = await repo.findDelivery(pool, endpoint.id, deliveryId.toLowerCase());
      if (!delivery) throw new ServiceError('not_found', 'no delivery with this id');
      // The answer is the row as requeued: the sender, woken now, may already be sending it.
      const requeued = await repo.requeueDelivery(pool, delivery.id, deps.retryWindowSeconds);
      const attempts = await repo.attemptsOf(pool, [delivery.id]);
      deps.wake();
      return toDelivery(requeued, attempts.get(delivery.id) ?? []);
    },
  };
}
