// The /v1 routes of a team's webhooks (owner tokens): register, list, delete, rotate the secret, enable
// again, read the delivery log and redeliver. The gateway checks the shape of each body; the notifications
// service decides the rest (owner role, URL policy, event types). Another team's webhook answers 404.
import type { ServiceClient } from '@dss/platform';
import type { Request } from 'express';
import type { RouteSpec } from './app';
import { objectBody } from './app';
import { queryLimit, wirePrincipal } from './diagram-routes';
import { invalidBodyField } from './proposal-routes';

type NotificationsClient = ServiceClient<'Notifications'>;
type WebhookMessage = Awaited<ReturnType<NotificationsClient['CreateWebhook']>>;
type DeliveryMessage = Awaited<ReturnType<NotificationsClient['Redeliver']>>;

/** A webhook as the API shows it; `secret` only in the answers of creation and rotation. */
export function webhookResource(webhook: WebhookMessage) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    status: webhook.status,
    status_notice: webhook.status_notice ?? null,
    created_at: webhook.created_at,
    previous_secret_expires_at: webhook.previous_secret_expires_at ?? null,
    ...(webhook.secret ? { secret: webhook.secret } : {}),
  };
}

/** A delivery with its attempts: status, latency and the first 1 KB of each answer. */
export function deliveryResource(delivery: DeliveryMessage) {
  return {
    id: delivery.id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    created_at: delivery.created_at,
    delivered_at: delivery.delivered_at ?? null,
    next_attempt_at: delivery.next_attempt_at ?? null,
    attempts: delivery.attempts.map((attempt) => ({
      attempted_at: attempt.attempted_at,
      status_code: attempt.status_code ?? null,
      error: attempt.error ?? null,
      latency_ms: attempt.latency_ms,
      response_excerpt: attempt.response_excerpt,
      manual: attempt.manual,
    })),
  };
}

function createRequest(body: Record<string, unknown>) {
  const { url, events } = body;
  if (url === undefined || url === null) throw invalidBodyField('url', 'is required');
  if (typeof url !== 'string') throw invalidBodyField('url', 'must be a string');
  if (events === undefined || events === null) throw invalidBodyField('events', 'is required');
  if (!Array.isArray(events) || events.some((event) => typeof event !== 'string'))
    throw invalidBodyField('events', 'must be an array of event type names');
  return { url, events: events as string[] };
}

const idOf = (req: Request) => (typeof req.params.id === 'string' ? req.params.id : '');

export function webhookRoutes(notifications: NotificationsClient): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/webhooks',
      operation: 'read',
      write: false,
      handler: async (_req, res, principal) => {
        const list = await notifications.ListWebhooks({ principal: wirePrincipal(principal) });
        res.json({ data: list.webhooks.map(webhookResource) });
      },
    },
    {
      method: 'post',
      path: '/webhooks',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const created = await notifications.CreateWebhook({
          principal: wirePrincipal(principal),
          ...createRequest(objectBody(req)),
        });
        res.status(201).json({ data: webhookResource(created) });
      },
    },
    {
      method: 'delete',
      path: '/webhooks/:id',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        await notifications.DeleteWebhook({ principal: wirePrincipal(principal), id: idOf(req) });
        res.status(204).end();
      },
    },
    {
      method: 'post',
      path: '/webhooks/:id/rotate-secret',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const rotated = await notifications.RotateWebhookSecret({
          principal: wirePrincipal(principal),
          id: idOf(req),
        });
        res.json({ data: webhookResource(rotated) });
      },
    },
    {
      method: 'post',
      path: '/webhooks/:id/enable',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const enabled = await notifications.EnableWebhook({
          principal: wirePrincipal(principal),
          id: idOf(req),
        });
        res.json({ data: webhookResource(enabled) });
      },
    },
    {
      method: 'get',
      path: '/webhooks/:id/deliveries',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const limit = queryLimit(req) ?? 50;
        const list = await notifications.ListDeliveries({
          principal: wirePrincipal(principal),
          id: idOf(req),
          limit,
        });
        res.json({ data: list.deliveries.map(deliveryResource) });
      },
    },
    {
      method: 'post',
      path: '/webhooks/:id/deliveries/:delivery/redeliver',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const delivery = typeof req.params.delivery === 'string' ? req.params.delivery : '';
        const requeued = await notifications.Redeliver({
          principal: wirePrincipal(principal),
          id: idOf(req),
          delivery_id: delivery,
        });
        res.status(202).json({ data: deliveryResource(requeued) });
      },
    },
  ];
}
