// Helpers for the bus and outbox tests: a quiet logger that remembers what it was told, bounded
// polling instead of fixed sleeps, and bus factories that keep tests apart on the shared NATS server.
import { randomBytes } from 'node:crypto';
import { createEventBus, deleteNatsNamespace, type EventBus } from '../src/bus';
import type { BusLogger } from '../src/bus/types';
import { testNatsUrl } from '../src/testing';

export interface RecordingLogger extends BusLogger {
  lines: { level: string; message?: string }[];
}

export function recordingLogger(): RecordingLogger {
  const lines: { level: string; message?: string }[] = [];
  const record = (level: string) => (_obj: object, message?: string) => {
    lines.push({ level, message });
  };
  return {
    lines,
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    debug: record('debug'),
  };
}

/** Polls until `check` returns true; fails with `what` when `timeoutMs` (10 s by default) passes first. */
export { waitFor as waitUntil } from '../src/testing';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface BusFactory {
  kind: 'memory' | 'nats';
  /** A new bus; buses from one factory share a namespace (so they see each other's messages). */
  create(logger?: BusLogger): Promise<EventBus>;
  /** Closes every bus it created and deletes the namespace's streams. */
  cleanUp(): Promise<void>;
}

export function busFactory(kind: 'memory' | 'nats'): BusFactory {
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const buses: EventBus[] = [];
  return {
    kind,
    async create(logger = recordingLogger()) {
      const natsUrl = kind === 'nats' ? testNatsUrl() : undefined;
      const bus = await createEventBus({ natsUrl, logger, namespace, name: `test-${namespace}` });
      buses.push(bus);
      return bus;
    },
    async cleanUp() {
      try {
        await Promise.all(buses.splice(0).map((bus) => bus.close()));
      } finally {
        if (kind === 'nats') await deleteNatsNamespace(testNatsUrl(), namespace);
      }
    },
  };
}
