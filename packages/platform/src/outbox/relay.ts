// Moves committed outbox rows onto the bus. Delivery is at-least-once: a row is marked published only
// after the bus accepted it, and a crash in between republishes it with the same messageId, which the
// bus deduplicates. Rows go out in `position` order; one relay at a time works a schema's outbox (an
// advisory lock), so running one relay per replica neither duplicates nor reorders.
import type { Pool, PoolClient } from 'pg';
import { logDatabaseError } from '../db/pool';
import type { BusLogger, EventBus } from '../bus/types';
import { NotificationListener } from './listener';
import { outboxChannel, outboxTable } from './table';
import { Wakeup } from './wakeup';

export interface OutboxRelayOptions {
  pool: Pool;
  schema: string;
  bus: EventBus;
  logger: BusLogger;
  /** Fallback poll when no notification arrives; default 500 ms. */
  pollIntervalMs?: number;
  /** Rows per transaction; default 100. */
  batchSize?: number;
  /** Longest wait between retries while the bus (or database) fails; default 30 s. */
  maxBackoffMs?: number;
  /** Published rows older than this are deleted; default 7 days. */
  retentionMs?: number;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  message_id: string;
}

/** First key of the relay's advisory lock; the second is the schema's hash. */
const ADVISORY_LOCK_CLASS = 0x0b0c;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class OutboxRelay {
  private readonly table: string;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly retentionMs: number;
  private readonly wakeup = new Wakeup();
  private readonly listener: NotificationListener;
  private loop: Promise<void> | null = null;
  private running = false;
  private lastPruneAt = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.table = outboxTable(options.schema);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 60 * 60 * 1000;
    this.listener = new NotificationListener(
      options.pool,
      outboxChannel(options.schema),
      () => this.wakeup.notify(),
      options.logger,
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.listener.start();
    this.loop = this.run();
  }

  /** Stops after the batch in progress (which finishes and commits). */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeup.notify();
    await this.loop;
    this.loop = null;
    await this.listener.stop();
  }

  /**
   * Publishes one batch of unpublished rows and marks them. Resolves with how many were published;
   * rejects when the bus refused a row (the rows before it stay marked, it and the rest stay queued).
   */
  async relayOnce(): Promise<number> {
    const client = await this.options.pool.connect();
    // A checked-out client that loses its connection (say, while we wait on the bus) emits 'error';
    // without a listener that would crash the process. The failing query reports it to us anyway.
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const published = await this.publishBatch(client);
      await client.query('COMMIT');
      if (published.error) throw published.error;
      return published.count;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', onError);
      // A broken connection is destroyed instead of going back to the pool.
      client.release(broken);
    }
  }

  private async publishBatch(client: PoolClient): Promise<{ count: number; error?: unknown }> {
    const { rows: lock } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked',
      [ADVISORY_LOCK_CLASS, this.options.schema],
    );
    // Another relay is publishing this outbox right now; it will take these rows too.
    if (!lock[0].locked) return { count: 0 };
    // SKIP LOCKED as well: even a relay without the lock could never take a row another one holds.
    const { rows } = await client.query<OutboxRow>(
      `SELECT id, subject, payload, coalesce(message_id, id::text) AS message_id
         FROM ${this.table}
        WHERE published_at IS NULL
        ORDER BY position
        LIMIT $1
          FOR UPDATE SKIP LOCKED`,
      [this.batchSize],
    );
    const publishedIds: string[] = [];
    let error: unknown;
    for (const row of rows) {
      try {
        await this.options.bus.publish(row.subject, row.payload, { messageId: row.message_id });
        publishedIds.push(row.id);
      } catch (publishError) {
        error = publishError;
        // Stop at the first failure: publishing later rows first would break the order.
        await client.query(`UPDATE ${this.table} SET attempts = attempts + 1 WHERE id = $1`, [row.id]);
        break;
      }
    }
    if (publishedIds.length > 0)
      await client.query(
        `UPDATE ${this.table} SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::uuid[])`,
        [publishedIds],
      );
    return { count: publishedIds.length, error };
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let fullBatch = false;
      try {
        fullBatch = (await this.relayOnce()) === this.batchSize;
        if (failures > 0)
          this.options.logger.info({ schema: this.options.schema }, 'outbox relay publishing again');
        failures = 0;
        await this.pruneOccasionally();
      } catch (error) {
        // One line per outage, not per row or per retry.
        if (failures === 0)
          logDatabaseError(
            this.options.logger,
            error,
            'outbox relay cannot publish; events stay queued and are retried',
            { schema: this.options.schema },
          );
        failures += 1;
      }
      if (!this.running) break;
      if (fullBatch) continue;
      if (failures === 0) {
        await this.wakeup.wait(this.pollIntervalMs);
        continue;
      }
      // Backing off: new commits must not turn the wait into a tight retry loop; only stop() cuts it short.
      const backoff = Math.min(this.pollIntervalMs * 2 ** (failures - 1), this.maxBackoffMs);
      const retryAt = Date.now() + backoff;
      while (this.running && Date.now() < retryAt) await this.wakeup.wait(retryAt - Date.now());
    }
  }

  private async pruneOccasionally(): Promise<void> {
    if (Date.now() - this.lastPruneAt < PRUNE_EVERY_MS) return;
    this.lastPruneAt = Date.now();
    await this.options.pool.query(
      `DELETE FROM ${this.table} WHERE published_at < now() - make_interval(secs => $1)`,
      [this.retentionMs / 1000],
    );
  }
}
