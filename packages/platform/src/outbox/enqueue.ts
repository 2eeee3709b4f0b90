// Writing an event into the outbox inside the caller's transaction: the event exists exactly when the
// business change it describes commits.
import type { Client, PoolClient } from 'pg';
import { assertValidSubject } from '../bus/subjects';
import { outboxChannel, outboxTable } from './table';

/**
 * Inserts the event and notifies the relay; Postgres delivers the notification only at commit, and
 * drops both on rollback. Returns the outbox row id (the bus messageId unless `messageId` is given).
 */
export async function enqueueEvent(
  client: PoolClient | Client,
  schema: string,
  subject: string,
  payload: unknown,
  options: { messageId?: string } = {},
): Promise<string> {
  assertValidSubject(subject, false);
  const { rows } = await client.query<{ id: string }>(
    `WITH inserted AS (
       INSERT INTO ${outboxTable(schema)} (subject, payload, message_id) VALUES ($1, $2::jsonb, $3) RETURNING id
     )
     SELECT id, pg_notify($4, '') FROM inserted`,
    [subject, JSON.stringify(payload ?? null), options.messageId ?? null, outboxChannel(schema)],
  );
  return rows[0].id;
}
