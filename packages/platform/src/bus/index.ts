import { MemoryEventBus } from './memory-bus';
import { NatsEventBus } from './nats-bus';
import type { StreamSpec } from './streams';
import type { BusLogger, EventBus } from './types';

export { MemoryEventBus, type MemoryEventBusOptions } from './memory-bus';
export { NatsEventBus, type NatsEventBusOptions } from './nats-bus';
export { deleteNatsNamespace } from './nats-streams';
export { DEDUPE_WINDOW_MS, DEFAULT_STREAMS, type StreamSpec } from './streams';
export type { BusLogger, BusMessage, BusSubscription, ConsumeOptions, EventBus } from './types';

export interface CreateEventBusOptions {
  /** NATS JetStream when set; the in-process bus otherwise (embedded mode). */
  natsUrl?: string;
  logger: BusLogger;
  /** Connection name shown by the NATS server, normally the service name. */
  name?: string;
  /** NATS only: prefix of subjects and stream names, so tests sharing one server stay apart. */
  namespace?: string;
  streams?: readonly StreamSpec[];
}

export async function createEventBus(options: CreateEventBusOptions): Promise<EventBus> {
  if (options.natsUrl) return NatsEventBus.connect({ ...options, natsUrl: options.natsUrl });
  return new MemoryEventBus({ logger: options.logger, streams: options.streams });
}
