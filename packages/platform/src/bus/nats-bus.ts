// The EventBus on NATS JetStream. Streams come from the stream table (events: limits retention; jobs:
// work-queue retention); fan-out uses ordered consumers, work queues durable pull consumers. The
// connection reconnects forever with backoff; consumers resume on their own after a reconnect.
import { connect, type JetStreamClient, type JetStreamManager, type JsMsg, type NatsConnection } from 'nats';
import { encodeData, resolveConsumeOptions } from './delivery';
import { ensureStreams, WireNames } from './nats-streams';
import { NatsFanOutSubscription } from './nats-subscriber';
import { NatsWorkQueueConsumer } from './nats-work-queue';
import { DEFAULT_STREAMS, type StreamSpec, streamForSubject, streamsForFilter } from './streams';
import { assertValidSubject } from './subjects';
import type { BusLogger, BusMessage, BusSubscription, ConsumeOptions, EventBus } from './types';

export interface NatsEventBusOptions {
  natsUrl: string;
  logger: BusLogger;
  /** Connection name shown by the NATS server (the service name). */
  name?: string;
  /** Prefix of every subject and stream on the server; tests use a random one to stay apart. */
  namespace?: string;
  streams?: readonly StreamSpec[];
  /** How long a publish waits for JetStream's acknowledgement. */
  publishTimeoutMs?: number;
}

const MSG_ID_HEADER = 'Nats-Msg-Id';
const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

export class NatsEventBus implements EventBus {
  private readonly js: JetStreamClient;
  private readonly stops = new Set<() => Promise<void>>();
  private connected = true;
  private closing = false;

  private constructor(
    private readonly connection: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly names: WireNames,
    private readonly streams: readonly StreamSpec[],
    private readonly logger: BusLogger,
    private readonly publishTimeoutMs: number,
    private readonly backoff: ReconnectBackoff,
  ) {
    this.js = connection.jetstream({ timeout: publishTimeoutMs });
    void this.watchConnection();
  }

  static async connect(options: NatsEventBusOptions): Promise<NatsEventBus> {
    const names = new WireNames(options.namespace);
    const streams = options.streams ?? DEFAULT_STREAMS;
    const backoff = new ReconnectBackoff();
    const connection = await connect({
      servers: options.natsUrl,
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectDelayHandler: () => backoff.next(),
      // Notice a dead server within ~20 s even when no TCP reset arrives.
      pingInterval: 10_000,
      maxPingOut: 2,
    });
    const jsm = await connection.jetstreamManager();
    await ensureStreams(jsm, names, streams);
    const publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
    return new NatsEventBus(connection, jsm, names, streams, options.logger, publishTimeoutMs, backoff);
  }

  async publish(subject: string, data: unknown, options: { messageId?: string } = {}): Promise<void> {
    this.assertOpen();
    assertValidSubject(subject, false);
    if (!streamForSubject(this.streams, subject))
      throw new Error(`no stream holds subject "${subject}"; add it to the stream table`);
    // Fail at once while reconnecting rather than after the publish timeout: the caller (the outbox
    // relay, holding row locks) retries later anyway.
    if (!this.connected) throw new Error('event bus is disconnected from NATS');
    const payload = textEncoder.encode(encodeData(data));
    const publishOptions = { msgID: options.messageId, timeout: this.publishTimeoutMs };
    try {
      await this.js.publish(this.names.subject(subject), payload, publishOptions);
    } catch (error) {
      // 503 "no responders": the server answers but holds no such stream (restarted without its
      // storage); recreate the streams and try once more.
      if ((error as { code?: string }).code !== '503') throw error;
      await ensureStreams(this.jsm, this.names, this.streams);
      await this.js.publish(this.names.subject(subject), payload, publishOptions);
    }
  }

  async subscribe(
    subject: string,
    handler: (message: BusMessage) => Promise<void> | void,
  ): Promise<BusSubscription> {
    this.assertOpen();
    assertValidSubject(subject, true);
    // Jobs are for consume() only: a work-queue stream allows no second consumer on its subjects.
    const parts = streamsForFilter(this.streams, subject)
      .filter(({ stream }) => stream.retention === 'limits')
      .map(({ stream, filter }) => ({
        streamName: this.names.stream(stream),
        wireFilter: this.names.subject(filter),
      }));
    const subscription = new NatsFanOutSubscription(this.logger, handler, (msg) => this.toMessage(msg));
    await subscription.start(this.js, this.jsm, parts);
    return this.track(() => subscription.stop());
  }

  async consume(
    queue: string,
    subject: string,
    handler: (message: BusMessage) => Promise<void>,
    options?: ConsumeOptions,
  ): Promise<BusSubscription> {
    this.assertOpen();
    assertValidSubject(subject, true);
    const parts = streamsForFilter(this.streams, subject);
    if (parts.length !== 1)
      throw new Error(
        `a queue must consume subjects of exactly one stream; "${subject}" touches ${parts.length}`,
      );
    const [{ stream, filter }] = parts;
    const consumer = await NatsWorkQueueConsumer.start(
      {
        js: this.js,
        jsm: this.jsm,
        logger: this.logger,
        toMessage: (msg) => this.toMessage(msg),
        repairStreams: () => ensureStreams(this.jsm, this.names, this.streams),
      },
      {
        streamName: this.names.stream(stream),
        retention: stream.retention,
        durable: this.names.durable(queue),
        wireFilter: this.names.subject(filter),
      },
      handler,
      resolveConsumeOptions(options),
    );
    return this.track(() => consumer.stop());
  }

  isHealthy(): boolean {
    return this.connected && !this.closing && !this.connection.isClosed();
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // Stop taking messages and let running handlers finish (and ack) before the connection goes.
    await Promise.all([...this.stops].map((stop) => stop()));
    try {
      await this.connection.drain();
    } catch {
      await this.connection.close();
    }
  }

  private track(stop: () => Promise<void>): BusSubscription {
    this.stops.add(stop);
    return {
      unsubscribe: async () => {
        if (!this.stops.delete(stop)) return;
        await stop();
      },
    };
  }

  private toMessage(msg: JsMsg): BusMessage {
    return {
      subject: this.names.logicalSubject(msg.subject),
      data: JSON.parse(textDecoder.decode(msg.data)),
      id: msg.headers?.get(MSG_ID_HEADER) || null,
      deliveryCount: msg.info.redeliveryCount,
    };
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.logger.warn({ server: status.data }, 'bus disconnected from NATS; reconnecting');
      } else if (status.type === 'reconnect') {
        this.connected = true;
        this.backoff.reset();
        this.logger.info({ server: status.data }, 'bus reconnected to NATS');
        // A server that restarted without its storage has no streams; consumers need them back.
        ensureStreams(this.jsm, this.names, this.streams).catch((error) =>
          this.logger.error({ err: error }, 'bus could not recreate streams after reconnect'),
        );
      }
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('event bus is closed');
  }
}

/** Reconnect delays: exponential with jitter, capped, back to short after each successful reconnect. */
class ReconnectBackoff {
  private attempt = 0;

  next(): number {
    return Math.min(250 * 2 ** this.attempt++, 5_000) + Math.random() * 250;
  }

  reset(): void {
    this.attempt = 0;
  }
}
