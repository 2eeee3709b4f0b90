// A work-queue consumer on JetStream: a durable pull consumer with explicit ack, fetched only as fast as
// handler slots free up (so no message waits in a client buffer while its ack deadline runs out).
import {
  AckPolicy,
  type ConsumerConfig,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  nanos,
} from 'nats';
import {
  deadLetter,
  InFlight,
  type ResolvedConsumeOptions,
  retryDelayMs,
  runWithDeadline,
  serverAckWaitMs,
} from './delivery';
import type { StreamSpec } from './streams';
import { handlerFailureLog } from './handler-failures';
import type { BusLogger, BusMessage } from './types';

const FETCH_EXPIRES_MS = 5_000;
/**
 * A fetch still open this long after its expiry is closed and the loop fetches again. The client (nats.js)
 * stops watching a fetch's heartbeats while disconnected and watches again only if its check after the
 * reconnect succeeds; if that check fails (JetStream still starting after a server restart, say), nothing
 * ends a fetch whose pull request the restart lost, and the queue receives nothing more. That is the likely
 * cause of a CI failure: after a NATS restart the queue had no job 15 s after the subscriber had its event.
 * Messages a closed fetch held unacknowledged are redelivered after ack_wait.
 */
const FETCH_GRACE_MS = 3_000;
const MAX_RETRY_PAUSE_MS = 5_000;

export interface WorkQueueTarget {
  streamName: string;
  retention: StreamSpec['retention'];
  durable: string;
  wireFilter: string;
}

export interface WorkQueueContext {
  js: JetStreamClient;
  jsm: JetStreamManager;
  logger: BusLogger;
  toMessage: (msg: JsMsg) => BusMessage;
  /** Recreates the streams (the server may have lost them); called when the consumer cannot be set up. */
  repairStreams: () => Promise<void>;
}

export class NatsWorkQueueConsumer {
  private stopped = false;
  private running = 0;
  private slotFreed: (() => void) | null = null;
  private currentFetch: { close(): Promise<unknown> } | null = null;
  private readonly inFlight = new InFlight();
  private readonly loop: Promise<void>;
  private readonly handlerFailed: ReturnType<typeof handlerFailureLog>;

  private constructor(
    private readonly context: WorkQueueContext,
    private readonly target: WorkQueueTarget,
    private readonly handler: (message: BusMessage) => Promise<void>,
    private readonly options: ResolvedConsumeOptions,
  ) {
    this.handlerFailed = handlerFailureLog(context.logger, 'bus handler failed', 'warn');
    this.loop = this.fetchLoop();
  }

  /** Resolves once the durable consumer exists, so messages published after this wait for it. */
  static async start(
    context: WorkQueueContext,
    target: WorkQueueTarget,
    handler: (message: BusMessage) => Promise<void>,
    options: ResolvedConsumeOptions,
  ): Promise<NatsWorkQueueConsumer> {
    await ensureDurable(context.jsm, target, options);
    return new NatsWorkQueueConsumer(context, target, handler, options);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.slotFreed?.();
    await this.currentFetch?.close().catch(() => undefined);
    await this.loop;
    const drained = await this.inFlight.drain();
    if (!drained)
      this.context.logger.warn({ queue: this.target.durable }, 'bus queue stopped before handlers finished');
  }

  private async fetchLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.fetchBatch();
        failures = 0;
      } catch (error) {
        if (this.stopped) return;
        // Typically the connection is down or the server lost the consumer; set it up again and retry.
        if (failures === 0)
          this.context.logger.warn({ err: error, queue: this.target.durable }, 'bus fetch failed; retrying');
        failures += 1;
        await sleep(Math.min(100 * 2 ** failures, MAX_RETRY_PAUSE_MS));
        await this.repair().catch(() => undefined);
      }
    }
  }

  private async fetchBatch(): Promise<void> {
    await this.waitForFreeSlot();
    if (this.stopped) return;
    const consumer = await this.context.js.consumers.get(this.target.streamName, this.target.durable);
    const batch = await consumer.fetch({
      max_messages: this.options.concurrency - this.running,
      expires: FETCH_EXPIRES_MS,
    });
    this.currentFetch = batch;
    const overdue = setTimeout(
      () => void batch.close().catch(() => undefined),
      FETCH_EXPIRES_MS + FETCH_GRACE_MS,
    );
    try {
      for await (const msg of batch) this.handle(msg);
    } finally {
      clearTimeout(overdue);
      this.currentFetch = null;
    }
  }

  private async repair(): Promise<void> {
    await this.context.repairStreams();
    await ensureDurable(this.context.jsm, this.target, this.options);
  }

  private waitForFreeSlot(): Promise<void> {
    if (this.running < this.options.concurrency || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.slotFreed = resolve;
    });
  }

  private releaseSlot(): void {
    this.running -= 1;
    const wake = this.slotFreed;
    this.slotFreed = null;
    wake?.();
  }

  private handle(msg: JsMsg): void {
    this.running += 1;
    const message = this.context.toMessage(msg);
    const { outcome, settled } = runWithDeadline(
      () => this.handler(message),
      this.options.ackWaitMs,
      (error) => this.handlerFailed(error, { queue: this.target.durable, subject: message.subject }),
    );
    this.inFlight.track(settled);
    // In-progress acknowledgements while the handler runs: the server keeps the message for a live worker
    // and redelivers it soon after a dead one stops sending them (serverAckWaitMs).
    const heartbeat =
      this.options.heartbeatMs === undefined
        ? undefined
        : setInterval(() => {
            try {
              msg.working();
            } catch {
              // the connection is down; the server redelivers after its ack_wait, as for a dead worker
            }
          }, this.options.heartbeatMs);
    const finished = outcome.then(async (result) => {
      clearInterval(heartbeat);
      // A timed-out handler gives up its slot: the server redelivers the message to whoever is free.
      this.releaseSlot();
      if (result === 'acked') return msg.ack();
      if (message.deliveryCount >= this.options.maxDeliver) {
        await deadLetter(this.context.logger, this.options, message);
        return msg.term();
      }
      // After a timeout the server redelivers on its own ack_wait; after a throw, ask for it after a backoff.
      if (result === 'failed') msg.nak(retryDelayMs(message.deliveryCount));
    });
    this.inFlight.track(finished);
  }
}

async function ensureDurable(
  jsm: JetStreamManager,
  target: WorkQueueTarget,
  options: ResolvedConsumeOptions,
): Promise<void> {
  const config: Partial<ConsumerConfig> = {
    durable_name: target.durable,
    filter_subject: target.wireFilter,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(serverAckWaitMs(options)),
    max_deliver: options.maxDeliver,
    // Jobs left in a work-queue stream are for this queue; on an event stream a new queue starts now.
    deliver_policy: target.retention === 'workqueue' ? DeliverPolicy.All : DeliverPolicy.New,
    max_ack_pending: -1,
  };
  try {
    await jsm.consumers.add(target.streamName, config);
  } catch (error) {
    // The durable exists with other settings (another replica or release); adopt this call's settings.
    if (!/already (in use|exists)/.test(String((error as Error).message))) throw error;
    const { durable_name: _name, deliver_policy: _policy, ...updatable } = config;
    await jsm.consumers.update(target.streamName, target.durable, updatable);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
