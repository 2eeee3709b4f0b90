// The one bus interface of the system. Services code against EventBus only; createEventBus picks NATS
// JetStream (cluster) or the in-process implementation (embedded mode) behind it.

export interface BusMessage<T = unknown> {
  subject: string;
  data: T;
  /** The publisher's messageId, or null when none was given. */
  id: string | null;
  /** 1 on the first delivery; grows with each redelivery of a work-queue message. */
  deliveryCount: number;
}

export interface BusSubscription {
  /** Stops delivery and waits for the handler calls already running. */
  unsubscribe(): Promise<void>;
}

export interface ConsumeOptions {
  /** How long a handler may run before its message is given up and redelivered. */
  ackWaitMs?: number;
  /**
   * In-progress acknowledgements: while a handler runs, the consumer tells the server every heartbeatMs that
   * it is still working, and the server redelivers a message whose consumer stopped telling (a dead worker)
   * after 3 x heartbeatMs instead of ackWaitMs. A slow handler keeps its message up to ackWaitMs.
   */
  heartbeatMs?: number;
  maxDeliver?: number;
  concurrency?: number;
  /** called once when a message has been delivered maxDeliver times without ack; then it is terminated */
  onDeadLetter?: (message: BusMessage) => Promise<void>;
}

export interface EventBus {
  /** Durable publish. `messageId` deduplicates repeats (the outbox relay passes the outbox row id). */
  publish(subject: string, data: unknown, options?: { messageId?: string }): Promise<void>;
  /** Fan-out: every subscriber receives every message published on matching subjects after it subscribed. Wildcards `*` and `>` as in NATS. */
  subscribe(
    subject: string,
    handler: (message: BusMessage) => Promise<void> | void,
  ): Promise<BusSubscription>;
  /** Work queue: each message goes to exactly one consumer of the named durable queue; acked when the handler resolves; redelivered (deliveryCount+1) when it throws or does not finish within ackWaitMs; after maxDeliver deliveries onDeadLetter is called and the message is dropped. Messages published while no consumer runs wait for one. */
  consume(
    queue: string,
    subject: string,
    handler: (message: BusMessage) => Promise<void>,
    options?: ConsumeOptions,
  ): Promise<BusSubscription>;
  /** True while connected (readiness). */
  isHealthy(): boolean;
  /** Drains in-flight handlers and closes. */
  close(): Promise<void>;
}

type LogMethod = (obj: object, msg?: string) => void;

/** The part of a pino logger the bus uses; any pino logger (or child) satisfies it. */
export interface BusLogger {
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  debug: LogMethod;
}
