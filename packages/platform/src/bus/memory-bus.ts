// The in-process EventBus of embedded mode: the semantics of the JetStream bus (same stream table, fan-out,
// durable work queues with ack deadline, redelivery, dead letters, messageId dedupe) without a server.
// Nothing survives a restart of the process, which is what embedded mode accepts.
import { DRAIN_TIMEOUT_MS, encodeData, InFlight, resolveConsumeOptions } from './delivery';
import { handlerFailureLog } from './handler-failures';
import { MemoryWorkQueue, type QueuedMessage } from './memory-queue';
import {
  DEDUPE_WINDOW_MS,
  DEFAULT_STREAMS,
  type StreamSpec,
  streamForSubject,
  streamsForFilter,
} from './streams';
import { assertValidSubject, intersectFilters, subjectMatches } from './subjects';
import type { BusLogger, BusMessage, BusSubscription, ConsumeOptions, EventBus } from './types';

export interface MemoryEventBusOptions {
  logger: BusLogger;
  streams?: readonly StreamSpec[];
  dedupeWindowMs?: number;
}

interface Subscriber {
  filter: string;
  handler: (message: BusMessage) => Promise<void> | void;
  backlog: BusMessage[];
  active: boolean;
  inFlight: InFlight;
  running: boolean;
}

export class MemoryEventBus implements EventBus {
  private readonly logger: BusLogger;
  private readonly streams: readonly StreamSpec[];
  private readonly dedupeWindowMs: number;
  private readonly subscribers = new Set<Subscriber>();
  private readonly queues = new Map<string, MemoryWorkQueue>();
  private readonly queueStops = new Set<() => Promise<void>>();
  /** Work-queue messages no queue wanted yet, waiting (up to the stream's max age) for one to appear. */
  private unclaimed: (QueuedMessage & { storedAt: number })[] = [];
  private readonly recentIds = new Map<string, number>();
  private closed = false;
  private readonly subscriberFailed: ReturnType<typeof handlerFailureLog>;

  constructor(options: MemoryEventBusOptions) {
    this.logger = options.logger;
    this.subscriberFailed = handlerFailureLog(options.logger, 'bus subscriber failed', 'error');
    this.streams = options.streams ?? DEFAULT_STREAMS;
    this.dedupeWindowMs = options.dedupeWindowMs ?? DEDUPE_WINDOW_MS;
  }

  async publish(subject: string, data: unknown, options: { messageId?: string } = {}): Promise<void> {
    this.assertOpen();
    assertValidSubject(subject, false);
    const stream = streamForSubject(this.streams, subject);
    if (!stream) throw new Error(`no stream holds subject "${subject}"; add it to the stream table`);
    const id = options.messageId ?? null;
    if (id !== null && this.isDuplicate(id)) {
      this.logger.debug({ subject, messageId: id }, 'bus dropped duplicate publish');
      return;
    }
    const encoded = encodeData(data);
    if (stream.retention === 'limits')
      for (const subscriber of this.subscribers)
        if (subjectMatches(subscriber.filter, subject))
          this.offer(subscriber, { subject, data: JSON.parse(encoded), id, deliveryCount: 1 });
    let claimed = false;
    for (const queue of this.queues.values())
      if (subjectMatches(queue.filter, subject)) {
        queue.enqueue({ subject, encoded, id, deliveries: 0 });
        claimed = true;
      }
    if (!claimed && stream.retention === 'workqueue') {
      this.dropExpiredUnclaimed();
      this.unclaimed.push({ subject, encoded, id, deliveries: 0, storedAt: Date.now() });
    }
  }

  async subscribe(
    subject: string,
    handler: (message: BusMessage) => Promise<void> | void,
  ): Promise<BusSubscription> {
    this.assertOpen();
    assertValidSubject(subject, true);
    const subscriber: Subscriber = {
      filter: subject,
      handler,
      backlog: [],
      active: true,
      inFlight: new InFlight(),
      running: false,
    };
    this.subscribers.add(subscriber);
    return {
      unsubscribe: async () => {
        subscriber.active = false;
        this.subscribers.delete(subscriber);
        await subscriber.inFlight.drain();
      },
    };
  }

  async consume(
    queueName: string,
    subject: string,
    handler: (message: BusMessage) => Promise<void>,
    options?: ConsumeOptions,
  ): Promise<BusSubscription> {
    this.assertOpen();
    assertValidSubject(subject, true);
    const resolved = resolveConsumeOptions(options);
    const queue = this.queueFor(queueName, subject);
    const consumer = queue.addConsumer(handler, resolved);
    this.queueStops.add(consumer.stop);
    return {
      unsubscribe: async () => {
        this.queueStops.delete(consumer.stop);
        await consumer.stop();
      },
    };
  }

  isHealthy(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of subscribers) subscriber.active = false;
    const drained = await Promise.all([
      ...subscribers.map((subscriber) => subscriber.inFlight.drain(DRAIN_TIMEOUT_MS)),
      ...[...this.queueStops].map(async (stop) => {
        await stop();
        return true;
      }),
    ]);
    for (const queue of this.queues.values()) queue.close();
    if (drained.includes(false)) this.logger.warn({}, 'bus closed before every handler finished');
  }

  /** A queue is durable: it is created on first use and keeps collecting messages between consumers. */
  private queueFor(name: string, filter: string): MemoryWorkQueue {
    const existing = this.queues.get(name);
    if (existing) {
      if (existing.filter !== filter)
        throw new Error(`queue "${name}" already consumes "${existing.filter}", not "${filter}"`);
      return existing;
    }
    // As on JetStream: a job subject belongs to one queue, so two queues never both run a job.
    const jobFilters = streamsForFilter(this.streams, filter).filter(
      ({ stream }) => stream.retention === 'workqueue',
    );
    for (const other of this.queues.values())
      if (jobFilters.some((part) => intersectFilters(part.filter, other.filter)))
        throw new Error(`queue "${other.name}" already consumes jobs matching "${filter}"`);
    const queue = new MemoryWorkQueue(name, filter, this.logger);
    this.queues.set(name, queue);
    this.dropExpiredUnclaimed();
    const waiting = this.unclaimed;
    this.unclaimed = waiting.filter((message) => !subjectMatches(filter, message.subject));
    for (const message of waiting)
      if (subjectMatches(filter, message.subject))
        queue.enqueue({ subject: message.subject, encoded: message.encoded, id: message.id, deliveries: 0 });
    return queue;
  }

  /** Unclaimed jobs expire after their stream's max age, as JetStream's limits would drop them. */
  private dropExpiredUnclaimed(): void {
    const now = Date.now();
    this.unclaimed = this.unclaimed.filter((message) => {
      const stream = streamForSubject(this.streams, message.subject);
      return stream !== undefined && now - message.storedAt <= stream.maxAgeMs;
    });
  }

  /** Each subscriber gets its messages one at a time, in publish order, like an ordered consumer. */
  private offer(subscriber: Subscriber, message: BusMessage): void {
    subscriber.backlog.push(message);
    if (!subscriber.running) subscriber.inFlight.track(this.runSubscriber(subscriber));
  }

  private async runSubscriber(subscriber: Subscriber): Promise<void> {
    subscriber.running = true;
    try {
      // Yield first so publish() returns before any handler runs, as it does over the network.
      await Promise.resolve();
      while (subscriber.active && subscriber.backlog.length > 0) {
        const message = subscriber.backlog.shift()!;
        try {
          await subscriber.handler(message);
        } catch (error) {
          // Fan-out has no redelivery: a subscriber that must not miss work uses consume().
          this.subscriberFailed(error, { subject: message.subject });
        }
      }
    } finally {
      subscriber.running = false;
    }
  }

  private isDuplicate(id: string): boolean {
    const now = Date.now();
    for (const [seenId, expiresAt] of this.recentIds) {
      if (expiresAt > now) break; // insertion order is expiry order
      this.recentIds.delete(seenId);
    }
    if (this.recentIds.has(id)) return true;
    this.recentIds.set(id, now + this.dedupeWindowMs);
    return false;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event bus is closed');
  }
}
