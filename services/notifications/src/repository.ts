// Data access of the notifications context (schema `notifications`): endpoints, deliveries, attempts.
import type { Pool, PoolClient } from 'pg';

export const SCHEMA = 'notifications';

type Queryable = Pool | PoolClient;

export interface EncryptedSecret {
  ciphertext: string;
  keyId: string;
}

export interface EndpointRow {
  id: string;
  team_id: string;
  url: string;
  events: string[];
  /** Ciphertext (secret-keys.ts), encrypted with the key `secret_key_id`. */
  secret: string;
  secret_key_id: string;
  previous_secret: string | null;
  previous_secret_key_id: string | null;
  previous_secret_until: Date | null;
  status: 'enabled' | 'disabled';
  status_notice: string | null;
  failing_since: Date | null;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  seq: string;
  endpoint_id: string;
  team_id: string;
  event_type: string;
  payload: string;
  occurred_at: Date;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: Date;
  give_up_at: Date;
  created_at: Date;
  delivered_at: Date | null;
  manual_requested: boolean;
  /** The lease the sender holds the row under; null when not leased or requeued since. */
  lease_id: string | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string | null;
  manual: boolean;
}

const ENDPOINT =
  'id, team_id, url, events, secret, secret_key_id, previous_secret, previous_secret_key_id, previous_secret_until, status, status_notice, failing_since, created_at';
const DELIVERY =
  'id, seq, endpoint_id, team_id, event_type, payload, occurred_at, status, attempt_count, next_attempt_at, give_up_at, created_at, delivered_at, manual_requested, lease_id';

export async function insertEndpoint(
  db: Queryable,
  row: {
    id: string;
    team_id: string;
    url: string;
    events: string[];
    secret: EncryptedSecret;
    token_id: string;
  },
): Promise<EndpointRow> {
  const result = await db.query<EndpointRow>(
    `INSERT INTO notifications.endpoints (id, team_id, url, events, secret, secret_key_id, created_by_token_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENDPOINT}`,
    [row.id, row.team_id, row.url, row.events, row.secret.ciphertext, row.secret.keyId, row.token_id],
  );
  return result.rows[0];
}

export async function countEndpoints(db: Queryable, teamId: string): Promise<number> {
  const result = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM notifications.endpoints WHERE team_id = $1 AND deleted_at IS NULL',
    [teamId],
  );
  return Number(result.rows[0].n);
}

export async function listEndpoints(db: Queryable, teamId: string): Promise<EndpointRow[]> {
  const result = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT} FROM notifications.endpoints WHERE team_id = $1 AND deleted_at IS NULL
     ORDER BY created_at, id`,
    [teamId],
  );
  return result.rows;
}

/** The team's live endpoint, or null (another team's, deleted or unknown alike). */
export async function findEndpoint(db: Queryable, teamId: string, id: string): Promise<EndpointRow | null> {
  const result = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT} FROM notifications.endpoints WHERE id = $1 AND team_id = $2 AND deleted_at IS NULL`,
    [id, teamId],
  );
  return result.rows[0] ?? null;
}

export async function endpointsById(db: Queryable, ids: string[]): Promise<Map<string, EndpointRow>> {
  const result = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT} FROM notifications.endpoints WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(result.rows.map((row) => [row.id, row]));
}

/** Deleting keeps nothing pending: the endpoint's undelivered deliveries are given up. */
export async function deleteEndpoint(db: Queryable, teamId: string, id: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE notifications.endpoints SET deleted_at = now() WHERE id = $1 AND team_id = $2 AND deleted_at IS NULL`,
    [id, teamId],
  );
  if (result.rowCount === 0) return false;
  await db.query(
    `UPDATE notifications.deliveries SET status = 'failed' WHERE endpoint_id = $1 AND status = 'pending'`,
    [id],
  );
  return true;
}

export async function rotateSecret(
  db: Queryable,
  id: string,
  secret: EncryptedSecret,
  overlapSeconds: number,
): Promise<EndpointRow> {
  const result = await db.query<EndpointRow>(
    `UPDATE notifications.endpoints
        SET previous_secret = secret, previous_secret_key_id = secret_key_id, secret = $2, secret_key_id = $4,
            previous_secret_until = now() + make_interval(secs => $3)
      WHERE id = $1 RETURNING ${ENDPOINT}`,
    [id, secret.ciphertext, overlapSeconds, secret.keyId],
  );
  return result.rows[0];
}

/** Secrets not encrypted with the current key (or still plain text: key id NULL), locked for re-encryption. */
export async function lockSecretsToSeal(
  db: Queryable,
  currentKeyId: string,
  limit: number,
): Promise<
  Pick<EndpointRow, 'id' | 'secret' | 'secret_key_id' | 'previous_secret' | 'previous_secret_key_id'>[]
> {
  const result = await db.query(
    `SELECT id, secret, secret_key_id, previous_secret, previous_secret_key_id FROM notifications.endpoints
      WHERE secret_key_id IS DISTINCT FROM $1
         OR (previous_secret IS NOT NULL AND previous_secret_key_id IS DISTINCT FROM $1)
      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [currentKeyId, limit],
  );
  return result.rows;
}

export async function storeSealedSecrets(
  db: Queryable,
  id: string,
  secret: EncryptedSecret,
  previous: EncryptedSecret | null,
): Promise<void> {
  await db.query(
    `UPDATE notifications.endpoints
        SET secret = $2, secret_key_id = $3, previous_secret = $4, previous_secret_key_id = $5 WHERE id = $1`,
    [id, secret.ciphertext, secret.keyId, previous?.ciphertext ?? null, previous?.keyId ?? null],
  );
}

export async function setEnabled(db: Queryable, id: string): Promise<EndpointRow> {
  const result = await db.query<EndpointRow>(
    `UPDATE notifications.endpoints SET status = 'enabled', status_notice = NULL, failing_since = NULL
      WHERE id = $1 RETURNING ${ENDPOINT}`,
    [id],
  );
  return result.rows[0];
}

/** The team's enabled endpoints that subscribed to `type`. */
export async function subscribers(db: Queryable, teamId: string, type: string): Promise<EndpointRow[]> {
  const result = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT} FROM notifications.endpoints
      WHERE team_id = $1 AND deleted_at IS NULL AND status = 'enabled' AND $2 = ANY(events)`,
    [teamId, type],
  );
  return result.rows;
}

/** Stores one delivery; a repeat of the same event for the same endpoint is ignored. */
export async function insertDelivery(
  db: Queryable,
  row: {
    id: string;
    endpoint_id: string;
    team_id: string;
    event_key: string;
    event_type: string;
    ordering_key: string;
    payload: string;
    occurred_at: string;
    retry_window_seconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO notifications.deliveries
       (id, endpoint_id, team_id, event_key, event_type, ordering_key, payload, occurred_at, give_up_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))
     ON CONFLICT (endpoint_id, event_key) DO NOTHING`,
    [
      row.id,
      row.endpoint_id,
      row.team_id,
      row.event_key,
      row.event_type,
      row.ordering_key,
      row.payload,
      row.occurred_at,
      row.retry_window_seconds,
    ],
  );
}

/**
 * Leases up to `limit` due deliveries of enabled endpoints, each the oldest pending one of its endpoint and
 * diagram (so they leave in order of occurrence). A lease that runs out (the sender died) makes the
 * delivery due again: at-least-once, with the same webhook-id. The rows are leased under `leaseId`, which
 * the sender passes back with the outcome.
 */
export async function leaseDue(
  db: Queryable,
  limit: number,
  leaseSeconds: number,
  leaseId: string,
): Promise<DeliveryRow[]> {
  const result = await db.query<DeliveryRow>(
    `WITH heads AS (
       SELECT DISTINCT ON (d.endpoint_id, d.ordering_key) d.id, d.next_attempt_at, d.leased_until
         FROM notifications.deliveries d
         JOIN notifications.endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND e.status = 'enabled' AND e.deleted_at IS NULL
        ORDER BY d.endpoint_id, d.ordering_key, d.seq
     ), due AS (
       SELECT d.id FROM notifications.deliveries d JOIN heads h ON h.id = d.id
        WHERE h.next_attempt_at <= now() AND (h.leased_until IS NULL OR h.leased_until < now())
        ORDER BY d.seq LIMIT $1
        FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE notifications.deliveries d SET leased_until = now() + make_interval(secs => $2), lease_id = $3
       FROM due WHERE d.id = due.id
     RETURNING ${DELIVERY.split(', ')
       .map((column) => `d.${column}`)
       .join(', ')}`,
    [limit, leaseSeconds, leaseId],
  );
  return result.rows.sort((a, b) => Number(a.seq) - Number(b.seq));
}

export async function insertAttempt(db: Queryable, attempt: AttemptRow): Promise<void> {
  await db.query(
    `INSERT INTO notifications.attempts
       (delivery_id, status_code, error, latency_ms, response_excerpt, manual, attempted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      attempt.delivery_id,
      attempt.status_code,
      attempt.error,
      attempt.latency_ms,
      attempt.response_excerpt,
      attempt.manual,
      attempt.attempted_at,
    ],
  );
}

/**
 * After a successful attempt under `leaseId`. Where the row was requeued (or leased again) since, the attempt
 * only counts: the delivery stays as the redelivery left it.
 */
export async function markSucceeded(db: Queryable, id: string, leaseId: string): Promise<void> {
  await db.query(
    `UPDATE notifications.deliveries
        SET attempt_count = attempt_count + 1,
            status = CASE WHEN lease_id = $2 THEN 'succeeded' ELSE status END,
            delivered_at = CASE WHEN lease_id = $2 THEN now() ELSE delivered_at END,
            leased_until = CASE WHEN lease_id = $2 THEN NULL ELSE leased_until END,
            manual_requested = CASE WHEN lease_id = $2 THEN false ELSE manual_requested END,
            lease_id = CASE WHEN lease_id = $2 THEN NULL ELSE lease_id END
      WHERE id = $1`,
    [id, leaseId],
  );
}

/**
 * After a failed attempt under `leaseId`: retry after `delayMs`, or give up when that is past `give_up_at`.
 * Answers true when the delivery was given up. Where the row was requeued (or leased again) since, the
 * attempt only counts, as in markSucceeded.
 */
export async function markFailedAttempt(
  db: Queryable,
  id: string,
  leaseId: string,
  delayMs: number,
): Promise<boolean> {
  const result = await db.query<{ status: string; held: boolean }>(
    `WITH old AS (
       SELECT coalesce(lease_id = $2, false) AS held FROM notifications.deliveries WHERE id = $1 FOR UPDATE
     )
     UPDATE notifications.deliveries d
        SET attempt_count = attempt_count + 1,
            leased_until = CASE WHEN old.held THEN NULL ELSE leased_until END,
            manual_requested = CASE WHEN old.held THEN false ELSE manual_requested END,
            lease_id = CASE WHEN old.held THEN NULL ELSE lease_id END,
            next_attempt_at = CASE WHEN old.held THEN now() + make_interval(secs => $3::float8 / 1000)
                                   ELSE next_attempt_at END,
            status = CASE WHEN NOT old.held THEN status
                          WHEN now() + make_interval(secs => $3::float8 / 1000) > give_up_at THEN 'failed'
                          ELSE 'pending' END
       FROM old
      WHERE d.id = $1 RETURNING d.status, old.held`,
    [id, leaseId, delayMs],
  );
  const row = result.rows[0];
  return row?.held === true && row.status === 'failed';
}

export async function endpointSucceeded(db: Queryable, id: string): Promise<void> {
  await db.query(
    'UPDATE notifications.endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
    [id],
  );
}

/**
 * Records a failure of the endpoint; disables it when it has failed every attempt for `windowSeconds`, or
 * when `givenUpDelivery` was just given up and the endpoint has not succeeded since that delivery's first
 * attempt (its whole retry window failed). Answers true when this call disabled it.
 */
export async function endpointFailed(
  db: Queryable,
  id: string,
  failure: { attemptedAt: Date; windowSeconds: number; givenUpDelivery: string | null },
): Promise<boolean> {
  // The failing streak starts at the attempt itself, so it compares exactly with the attempts' times.
  await db.query(
    'UPDATE notifications.endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL',
    [id, failure.attemptedAt],
  );
  const result = await db.query(
    `UPDATE notifications.endpoints
        SET status = 'disabled',
            status_notice = 'disabled at ' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') ||
              ': every delivery attempt failed since ' ||
              to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') ||
              '; fix the receiver, then enable the endpoint again'
      WHERE id = $1 AND status = 'enabled'
        AND (failing_since <= now() - make_interval(secs => $2)
             OR failing_since <= (SELECT min(attempted_at) FROM notifications.attempts WHERE delivery_id = $3))`,
    [id, failure.windowSeconds, failure.givenUpDelivery],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function listDeliveries(
  db: Queryable,
  endpointId: string,
  limit: number,
): Promise<DeliveryRow[]> {
  const result = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY} FROM notifications.deliveries WHERE endpoint_id = $1 ORDER BY seq DESC LIMIT $2`,
    [endpointId, limit],
  );
  return result.rows;
}

export async function attemptsOf(db: Queryable, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
  const result = await db.query<AttemptRow>(
    `SELECT delivery_id, attempted_at, status_code, error, latency_ms, response_excerpt, manual
       FROM notifications.attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY id`,
    [deliveryIds],
  );
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const row of result.rows)
    byDelivery.set(row.delivery_id, [...(byDelivery.get(row.delivery_id) ?? []), row]);
  return byDelivery;
}

export async function findDelivery(
  db: Queryable,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | null> {
  const result = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY} FROM notifications.deliveries WHERE id = $1 AND endpoint_id = $2`,
    [id, endpointId],
  );
  return result.rows[0] ?? null;
}

/** A manual redelivery: due now, retried again for a new window. Answers the requeued row. */
export async function requeueDelivery(
  db: Queryable,
  id: string,
  windowSeconds: number,
): Promise<DeliveryRow> {
  const result = await db.query<DeliveryRow>(
    `UPDATE notifications.deliveries
        SET status = 'pending', next_attempt_at = now(), leased_until = NULL, lease_id = NULL,
            manual_requested = true, give_up_at = now() + make_interval(secs => $2)
      WHERE id = $1 RETURNING ${DELIVERY}`,
    [id, windowSeconds],
  );
  return result.rows[0];
}

/** Seconds the oldest due delivery has waited (the sender's lag), 0 when none is due. */
export async function oldestDueAgeSeconds(db: Queryable): Promise<number> {
  const result = await db.query<{ age: number | null }>(
    `SELECT EXTRACT(EPOCH FROM now() - min(d.next_attempt_at))::float8 AS age
       FROM notifications.deliveries d JOIN notifications.endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND e.status = 'enabled' AND d.next_attempt_at <= now()`,
  );
  return Math.max(0, result.rows[0]?.age ?? 0);
}
