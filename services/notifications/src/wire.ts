// Rows to the proto's Webhook and Delivery messages. The secret never leaves here: the handlers add it to
// the answers of creation and rotation only.
import type { AttemptRow, DeliveryRow, EndpointRow } from './repository';

export function toWebhook(row: EndpointRow) {
  const overlap =
    row.previous_secret_until && row.previous_secret_until > new Date() ? row.previous_secret_until : null;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    ...(row.status_notice ? { status_notice: row.status_notice } : {}),
    created_at: row.created_at.toISOString(),
    ...(overlap ? { previous_secret_expires_at: overlap.toISOString() } : {}),
  };
}

export function toDelivery(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    created_at: row.created_at.toISOString(),
    ...(row.delivered_at ? { delivered_at: row.delivered_at.toISOString() } : {}),
    ...(row.status === 'pending' ? { next_attempt_at: row.next_attempt_at.toISOString() } : {}),
    attempts: attempts.map((attempt) => ({
      attempted_at: attempt.attempted_at.toISOString(),
      ...(attempt.status_code !== null ? { status_code: attempt.status_code } : {}),
      ...(attempt.error !== null ? { error: attempt.error } : {}),
      latency_ms: attempt.latency_ms,
      response_excerpt: attempt.response_excerpt ?? '',
      manual: attempt.manual,
    })),
  };
}
