// LISTEN on the outbox channel over a connection of its own (a pooled client would be held forever and
// could be handed back with LISTEN still active). If the connection drops it is reopened with backoff;
// meanwhile the relay's polling still moves events, only later.
import { Client, type Pool } from 'pg';
import { logDatabaseError } from '../db/pool';
import type { BusLogger } from '../bus/types';

const MAX_RECONNECT_DELAY_MS = 10_000;

export class NotificationListener {
  private client: Client | null = null;
  private stopped = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly channel: string,
    private readonly onNotification: () => void,
    private readonly logger: BusLogger,
  ) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client(this.pool.options);
    client.on('notification', () => this.onNotification());
    client.on('error', (error) => this.reconnectLater(client, error));
    try {
      await client.connect();
      // The channel name is built from a validated schema name (see outboxChannel).
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      this.reconnectLater(client, error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) this.logger.info({ channel: this.channel }, 'outbox listener reconnected');
    this.failures = 0;
    // Rows committed while nobody listened would otherwise wait for the next poll.
    this.onNotification();
  }

  private reconnectLater(client: Client, error: unknown): void {
    if (this.client === client) this.client = null;
    void client.end().catch(() => undefined);
    if (this.stopped || this.retryTimer) return;
    if (this.failures === 0)
      logDatabaseError(this.logger, error, 'outbox listener lost its connection; polling only', {
        channel: this.channel,
      });
    this.failures += 1;
    const delay = Math.min(200 * 2 ** this.failures, MAX_RECONNECT_DELAY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
  }
}
