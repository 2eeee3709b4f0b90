// The intake: durable bus consumers that turn each event into one delivery row per subscribed endpoint.
// The bus message is acknowledged only once the rows are committed, so a crash before that redelivers it
// (JetStream in cluster mode; the in-process queue in one-process mode, like the importer's jobs), and a
// redelivered message adds nothing (one row per endpoint and event).
import { randomUUID } from 'node:crypto';
import {
  type BusMessage,
  type BusSubscription,
  type EventBus,
  type Logger,
  withTransaction,
} from '@dss/platform';
import type { Pool } from 'pg';
import { CONSUMED_SUBJECTS, toNotificationEvent } from './events';
import { webhookPayload } from './payload';
import * as repo from './repository';

export const INTAKE_QUEUES = {
  diagrams: 'notifications-diagrams',
  proposals: 'notifications-proposals',
} as const;

export interface IntakeDeps {
  bus: EventBus;
  pool: Pool;
  logger: Logger;
  appUrl: string;
  retryWindowSeconds: number;
  /** Called after rows were stored, so the sender looks at once. */
  stored: () => void;
}

export async function startIntake(deps: IntakeDeps): Promise<{ stop(): Promise<void> }> {
  const handle = async (message: BusMessage) => {
    const event = toNotificationEvent(message, deps.appUrl);
    if (!event) return;
    const count = await withTransaction(deps.pool, async (client) => {
      const endpoints = await repo.subscribers(client, event.teamId, event.type);
      for (const endpoint of endpoints) {
        const id = randomUUID();
        await repo.insertDelivery(client, {
          id,
          endpoint_id: endpoint.id,
          team_id: event.teamId,
          event_key: event.key,
          event_type: event.type,
          ordering_key: event.orderingKey,
          payload: webhookPayload(id, event),
          occurred_at: event.occurredAt,
          retry_window_seconds: deps.retryWindowSeconds,
        });
      }
      return endpoints.length;
    });
    if (count > 0) deps.stored();
  };
  const subscriptions: BusSubscription[] = [];
  for (const [name, subject] of Object.entries(CONSUMED_SUBJECTS))
    subscriptions.push(
      await deps.bus.consume(INTAKE_QUEUES[name as keyof typeof INTAKE_QUEUES], subject, handle, {
        ackWaitMs: 30_000,
        maxDeliver: 50,
        onDeadLetter: async (message) =>
          deps.logger.error(
            { subject: message.subject, id: message.id },
            'webhook intake gave up on an event',
          ),
      }),
    );
  return {
    async stop() {
      await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe()));
    },
  };
}
