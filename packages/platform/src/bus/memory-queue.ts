// One named durable work queue of the in-process bus: holds its messages until a consumer acks them,
// offers each message to one consumer at a time, and redelivers on failure or ack timeout.
import { deadLetter, InFlight, type ResolvedConsumeOptions, retryDelayMs, runWithDeadline } from './delivery';
import { handlerFailureLog } from './handler-failures';
import type { BusLogger, BusMessage } from './types';

export interface QueuedMessage {
  subject: string;
  encoded: string;
  id: string | null;
  deliveries: number;
}

interface QueueConsumer {
  handler: (message: BusMessage) => Promise<void>;
  options: ResolvedConsumeOptions;
  running: number;
  stopped: boolean;
  inFlight: InFlight;
}

export class MemoryWorkQueue {
  private readonly pending: QueuedMessage[] = [];
  private readonly consumers: QueueConsumer[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private nextConsumer = 0;
  private readonly handlerFailed: ReturnType<typeof handlerFailureLog>;

  constructor(
    readonly name: string,
    readonly filter: string,
    private readonly logger: BusLogger,
  ) {
    this.handlerFailed = handlerFailureLog(logger, 'bus handler failed', 'warn');
  }

  enqueue(message: QueuedMessage): void {
    this.pending.push(message);
    this.dispatch();
  }

  addConsumer(
    handler: (message: BusMessage) => Promise<void>,
    options: ResolvedConsumeOptions,
  ): { stop: () => Promise<void> } {
    const consumer: QueueConsumer = {
      handler,
      options,
      running: 0,
      stopped: false,
      inFlight: new InFlight(),
    };
    this.consumers.push(consumer);
    queueMicrotask(() => this.dispatch());
    return {
      stop: async () => {
        consumer.stopped = true;
        this.consumers.splice(this.consumers.indexOf(consumer), 1);
        await consumer.inFlight.drain();
      },
    };
  }

  /** Stops retry timers; messages stay pending as they would in a durable queue. */
  close(): void {
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
  }

  /** Hands pending messages to consumers with a free slot, round-robin so consumers share the work. */
  private dispatch(): void {
    while (this.pending.length > 0) {
      const consumer = this.takeFreeConsumer();
      if (!consumer) return;
      this.deliver(consumer, this.pending.shift()!);
    }
  }

  private takeFreeConsumer(): QueueConsumer | undefined {
    for (let tried = 0; tried < this.consumers.length; tried++) {
      const consumer = this.consumers[this.nextConsumer++ % this.consumers.length];
      if (!consumer.stopped && consumer.running < consumer.options.concurrency) return consumer;
    }
    return undefined;
  }

  private deliver(consumer: QueueConsumer, queued: QueuedMessage): void {
    queued.deliveries += 1;
    consumer.running += 1;
    const message: BusMessage = {
      subject: queued.subject,
      data: JSON.parse(queued.encoded),
      id: queued.id,
      deliveryCount: queued.deliveries,
    };
    const { outcome, settled } = runWithDeadline(
      () => consumer.handler(message),
      consumer.options.ackWaitMs,
      (error) => this.handlerFailed(error, { queue: this.name, subject: message.subject }),
    );
    consumer.inFlight.track(settled);
    const finished = outcome.then(async (result) => {
      // A timed-out handler no longer holds its slot: the message is someone else's now.
      consumer.running -= 1;
      if (result !== 'acked') await this.afterFailure(consumer, queued, message, result === 'failed');
      this.dispatch();
    });
    // Draining also waits for the dead-letter callback.
    consumer.inFlight.track(finished);
  }

  private async afterFailure(
    consumer: QueueConsumer,
    queued: QueuedMessage,
    message: BusMessage,
    threw: boolean,
  ): Promise<void> {
    if (queued.deliveries >= consumer.options.maxDeliver) {
      await deadLetter(this.logger, consumer.options, message);
      return;
    }
    // A timed-out message already waited ackWaitMs; a thrown one waits the retry backoff.
    const delay = threw ? retryDelayMs(queued.deliveries) : 0;
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.pending.unshift(queued);
      this.dispatch();
    }, delay);
    this.retryTimers.add(timer);
  }
}
