// The JSON body of a delivery, Standard Webhooks style: `type`, `timestamp` (when it happened) and `data`.
// `id` repeats the webhook-id header so a receiver that stores bodies can deduplicate them too.
import type { NotificationEvent } from './events';

export function webhookPayload(deliveryId: string, event: NotificationEvent): string {
  return JSON.stringify({ id: deliveryId, type: event.type, timestamp: event.occurredAt, data: event.data });
}
