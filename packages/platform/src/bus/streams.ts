// Which subjects are events and which are jobs. Both implementations read this table, so a subject
// behaves the same in embedded mode and on JetStream.
import { intersectFilters, subjectMatches } from './subjects';

export interface StreamSpec {
  /** Stream name on JetStream (prefixed by the bus namespace, if any). */
  name: string;
  subjects: string[];
  /**
   * `limits`: events kept for maxAgeMs whatever is consumed; new queues start at the next message.
   * `workqueue`: jobs kept until a queue acks them; a queue created later still gets the waiting ones.
   */
  retention: 'limits' | 'workqueue';
  maxAgeMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Publishes deduplicate on messageId within this window (JetStream's duplicate_window). */
export const DEDUPE_WINDOW_MS = 2 * 60 * 1000;

export const DEFAULT_STREAMS: readonly StreamSpec[] = [
  {
    name: 'EVENTS',
    subjects: ['accounts.>', 'diagrams.>', 'proposals.>'],
    retention: 'limits',
    maxAgeMs: DAY_MS,
  },
  { name: 'JOBS', subjects: ['importer.>'], retention: 'workqueue', maxAgeMs: 7 * DAY_MS },
  // Audit entries on their way from the service that recorded them (its outbox) to the accounts service
  // that stores them: kept until stored, like jobs.
  { name: 'AUDIT', subjects: ['audit.>'], retention: 'workqueue', maxAgeMs: 7 * DAY_MS },
  // Who has a diagram open in the web app, shared between its replicas: worthless after seconds, kept
  // only as long as JetStream allows (max age may not be shorter than the duplicate window).
  { name: 'PRESENCE', subjects: ['web.>'], retention: 'limits', maxAgeMs: DEDUPE_WINDOW_MS },
];

export function streamForSubject(streams: readonly StreamSpec[], subject: string): StreamSpec | undefined {
  return streams.find((stream) => stream.subjects.some((filter) => subjectMatches(filter, subject)));
}

/** Each stream that holds part of `filter`, with `filter` narrowed to that part. */
export function streamsForFilter(
  streams: readonly StreamSpec[],
  filter: string,
): { stream: StreamSpec; filter: string }[] {
  const parts: { stream: StreamSpec; filter: string }[] = [];
  for (const stream of streams)
    for (const streamSubject of stream.subjects) {
      const narrowed = intersectFilters(filter, streamSubject);
      if (narrowed) parts.push({ stream, filter: narrowed });
    }
  return parts;
}
