// JetStream streams of the bus: names and subjects on the wire (with the optional namespace that keeps
// tests on one shared server apart), idempotent creation at connect, and removal for tests.
import {
  connect,
  DiscardPolicy,
  type JetStreamManager,
  nanos,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from 'nats';
import { DEDUPE_WINDOW_MS, type StreamSpec } from './streams';

const NAMESPACE = /^[A-Za-z0-9_-]+$/;

/** Maps the logical subjects and stream names services use to the ones on the NATS server. */
export class WireNames {
  constructor(readonly namespace: string | undefined) {
    if (namespace !== undefined && !NAMESPACE.test(namespace))
      throw new Error(`bus namespace must match ${NAMESPACE}, got "${namespace}"`);
  }

  stream(spec: StreamSpec): string {
    return `${this.namespace ?? 'DSS'}_${spec.name}`;
  }

  subject(subject: string): string {
    return this.namespace ? `${this.namespace}.${subject}` : subject;
  }

  /** The logical subject of a message received from the wire. */
  logicalSubject(wireSubject: string): string {
    return this.namespace ? wireSubject.slice(this.namespace.length + 1) : wireSubject;
  }

  /** The queue name is the durable consumer's name, which may not contain dots, spaces or wildcards. */
  durable(queue: string): string {
    if (!NAMESPACE.test(queue)) throw new Error(`queue name must match ${NAMESPACE}, got "${queue}"`);
    return queue;
  }
}

function streamConfig(names: WireNames, spec: StreamSpec): Partial<StreamConfig> & { name: string } {
  return {
    name: names.stream(spec),
    subjects: spec.subjects.map((subject) => names.subject(subject)),
    retention: spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(spec.maxAgeMs),
    duplicate_window: nanos(DEDUPE_WINDOW_MS),
    num_replicas: 1,
  };
}

/** Creates each stream, or updates it to this config; safe to run from every replica at once. */
export async function ensureStreams(
  jsm: JetStreamManager,
  names: WireNames,
  streams: readonly StreamSpec[],
): Promise<void> {
  for (const spec of streams) {
    const config = streamConfig(names, spec);
    try {
      await jsm.streams.add(config);
    } catch (error) {
      // "stream name already in use": it exists with another config (an older release, or limits
      // changed) — bring it to this one. Retention cannot change in place; that error surfaces.
      if (!String((error as Error).message).includes('already in use')) throw error;
      await jsm.streams.update(config.name, config);
    }
  }
}

/** Deletes every stream of a namespace: tests call it after closing their bus. */
export async function deleteNatsNamespace(natsUrl: string, namespace: string): Promise<void> {
  const names = new WireNames(namespace);
  const connection = await connect({ servers: natsUrl });
  try {
    const jsm = await connection.jetstreamManager();
    const prefix = `${names.namespace}_`;
    for await (const stream of jsm.streams.list())
      if (stream.config.name.startsWith(prefix)) await jsm.streams.delete(stream.config.name);
  } finally {
    await connection.close();
  }
}
