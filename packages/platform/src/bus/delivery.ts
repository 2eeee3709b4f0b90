// Rules for running a work-queue handler, shared by both implementations so they fail, time out and
// retry the same way.
import type { BusLogger, BusMessage, ConsumeOptions } from './types';

export const DEFAULT_ACK_WAIT_MS = 30_000;
export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_CONCURRENCY = 1;
/** How long close() and unsubscribe() wait for running handlers before giving up on them. */
export const DRAIN_TIMEOUT_MS = 30_000;

export interface ResolvedConsumeOptions {
  ackWaitMs: number;
  heartbeatMs?: number;
  maxDeliver: number;
  concurrency: number;
  onDeadLetter?: (message: BusMessage) => Promise<void>;
}

export function resolveConsumeOptions(options: ConsumeOptions = {}): ResolvedConsumeOptions {
  const resolved = {
    ackWaitMs: options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
    maxDeliver: options.maxDeliver ?? DEFAULT_MAX_DELIVER,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    heartbeatMs: options.heartbeatMs,
    onDeadLetter: options.onDeadLetter,
  };
  for (const [name, value] of Object.entries(resolved))
    if (typeof value === 'number' && !(Number.isInteger(value) && value >= 1))
      throw new Error(`consume option ${name} must be a positive integer, got ${value}`);
  return resolved;
}

/** The server's ack_wait: the handler's deadline, or with heartbeats, three missed in-progress acks. */
export function serverAckWaitMs(options: ResolvedConsumeOptions): number {
  return options.heartbeatMs === undefined
    ? options.ackWaitMs
    : Math.min(options.ackWaitMs, options.heartbeatMs * 3);
}

/**
 * Delay before a failed (thrown) delivery is offered again: short at first, growing, capped, so a
 * poison message does not spin while a transient failure still retries quickly.
 */
export function retryDelayMs(deliveryCount: number): number {
  return Math.min(100 * 2 ** (deliveryCount - 1), 5_000);
}

export type Outcome = 'acked' | 'failed' | 'timed-out';

/**
 * Runs the handler with the ack deadline. `outcome` settles at the first of: handler resolved, handler
 * threw, deadline passed. `settled` settles when the handler itself finishes (for draining), even after
 * a timeout, since JavaScript cannot cancel it.
 */
export function runWithDeadline(
  run: () => Promise<void>,
  deadlineMs: number,
  onError: (error: unknown) => void,
): { outcome: Promise<Outcome>; settled: Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  const handled: Promise<Outcome> = Promise.resolve()
    .then(run)
    .then(
      () => 'acked' as const,
      (error: unknown) => {
        onError(error);
        return 'failed' as const;
      },
    );
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), deadlineMs);
  });
  const outcome = Promise.race([handled, deadline]).finally(() => clearTimeout(timer));
  return { outcome, settled: handled.then(() => undefined) };
}

/** Calls the dead-letter callback; its own failure is logged, never retried (the message is dropped). */
export async function deadLetter(
  logger: BusLogger,
  options: ResolvedConsumeOptions,
  message: BusMessage,
): Promise<void> {
  logger.warn(
    { subject: message.subject, messageId: message.id, deliveryCount: message.deliveryCount },
    'bus message dead-lettered after max deliveries',
  );
  if (!options.onDeadLetter) return;
  try {
    await options.onDeadLetter(message);
  } catch (error) {
    logger.error({ err: error, subject: message.subject }, 'bus dead-letter callback failed');
  }
}

/** Tracks running handler promises so unsubscribe() and close() can wait for them, with a bound. */
export class InFlight {
  private readonly running = new Set<Promise<void>>();

  get size(): number {
    return this.running.size;
  }

  track(settled: Promise<void>): void {
    this.running.add(settled);
    void settled.then(
      () => this.running.delete(settled),
      () => this.running.delete(settled),
    );
  }

  /** Resolves true when every tracked handler finished, false when `timeoutMs` passed first. */
  async drain(timeoutMs = DRAIN_TIMEOUT_MS): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const drained = (async () => {
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
      return true as const;
    })();
    try {
      return await Promise.race([drained, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** JSON round trip: both buses hand handlers the data as it would cross the wire, never a shared object. */
export function encodeData(data: unknown): string {
  return JSON.stringify(data === undefined ? null : data);
}
