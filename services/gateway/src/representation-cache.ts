// Copies of the large representations (schema JSON and Markdown, full documents) the gateway has already
// served, kept as the bytes written to the socket, and the proof that a copy is current.
//
// A 200 is never served on the cache's word: every request that needs a body asks the diagrams service for
// the current ETag (which also checks the team may read the diagram) and only the body is taken from the
// cache. Requests for the same copy that arrive while such a check is under way share the next check, one
// that starts after they arrived, so the service sees one call per round trip per copy, not one per request.
//
// A 304 may be answered without asking, when the service confirmed this ETag to this team (the key holds the
// team) less than `proofMs` ago and no event about the diagram arrived since: every change of a diagram
// publishes an event through the diagrams outbox, and `diagramChanged` drops the proof when it arrives.
// A check that was under way when the event arrived proves nothing. While the bus is down, or after a gap in
// its delivery (`forgetProofs`), nothing is proven until the service confirms again. So a conditional request
// is told "not modified" for at most the event's latency after a change, and for at most `proofMs` if events
// are delayed or lost.
import { ifNoneMatchMatches } from '@dss/platform';
import type { Representation } from './representation';

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** What an entry costs besides its body (key, tag, bookkeeping), so ETag-only entries are bounded too. */
const ENTRY_OVERHEAD_BYTES = 256;
const NO_BODY = Buffer.alloc(0);

/** What the service answers when offered a known ETag: the body only when the ETag differs. */
export interface ServiceAnswer {
  body: string;
  etag: string;
  content_type: string;
  unchanged: boolean;
}

export interface CachedRepresentation extends Representation {
  body: Buffer;
}

interface Entry {
  etag: string;
  content_type: string;
  /** The bytes, or null when only the ETag is known (a client's own copy was confirmed current). */
  body: Buffer | null;
  diagramUuid: string;
  /** When the service last confirmed `etag` for this key; NaN: never. */
  provenAtMs: number;
  /** The proof epoch at confirmation: forgetProofs() starts a new one. */
  epoch: number;
}

/** A check with the service that is under way; an event about its diagram makes it prove nothing. */
interface PendingCheck {
  voided: boolean;
}

export interface RepresentationCacheOptions {
  maxBytes?: number;
  /** How long a confirmation proves an ETag current for 304s without asking again; 0 never. */
  proofMs?: number;
  /** Whether diagram events are being delivered (the bus is connected); no proof is used otherwise. */
  eventsFlowing?: () => boolean;
  now?: () => number;
  /** Called for each 304 answered from a proof, without asking the service (a metric). */
  onProvenAnswer?: () => void;
}

export class RepresentationCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysByDiagram = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Set<PendingCheck>>();
  /** Checks running, and the one queued behind each (joined by requests that arrive meanwhile). */
  private readonly running = new Map<string, Promise<ServiceAnswer>>();
  private readonly queued = new Map<string, Promise<ServiceAnswer>>();
  private readonly maxBytes: number;
  private readonly proofMs: number;
  private readonly eventsFlowing: () => boolean;
  private readonly now: () => number;
  private bytes = 0;
  private epoch = 0;
  private readonly onProvenAnswer: () => void;

  constructor(options: RepresentationCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.proofMs = options.proofMs ?? 0;
    this.eventsFlowing = options.eventsFlowing ?? (() => false);
    this.now = options.now ?? Date.now;
    this.onProvenAnswer = options.onProvenAnswer ?? (() => undefined);
  }

  /**
   * The representation for `key` (team, diagram and representation), or an empty body with the current
   * ETag when the client's If-None-Match holds it (the caller answers 304). `load` asks the service,
   * offering the ETag already held (the cached copy's, else the client's single tag).
   */
  async fetch(
    key: string,
    diagramUuid: string,
    ifNoneMatch: string | undefined,
    load: (knownEtag: string) => Promise<ServiceAnswer>,
  ): Promise<CachedRepresentation> {
    const proven = this.notModified(key, ifNoneMatch);
    if (proven) return proven;
    const held = this.entries.get(key);
    // An ETag-only entry cannot supply a body, so it is offered only as the client's own tag.
    const knownEtag = (held?.body ? held.etag : undefined) ?? singleTag(ifNoneMatch) ?? '';
    const answer = await this.check(key, diagramUuid, knownEtag, load);
    const copy = this.copyOf(key, answer);
    if (copy) return copy;
    if (answer.unchanged && ifNoneMatchMatches(ifNoneMatch, answer.etag)) {
      // The client's copy is current: the caller answers 304.
      return { body: NO_BODY, etag: answer.etag, content_type: answer.content_type };
    }
    if (!answer.unchanged)
      return { body: Buffer.from(answer.body), etag: answer.etag, content_type: answer.content_type };
    // Unchanged, but the copy was evicted meanwhile and this client has none: ask for the bytes.
    const full = await this.check(key, diagramUuid, '', load);
    return (
      this.copyOf(key, full) ?? {
        body: Buffer.from(full.body),
        etag: full.etag,
        content_type: full.content_type,
      }
    );
  }

  /** The cached bytes when they are those the service just named. */
  private copyOf(key: string, answer: ServiceAnswer): CachedRepresentation | undefined {
    const entry = this.entries.get(key);
    if (!entry?.body || entry.etag !== answer.etag) return undefined;
    this.touch(key, entry);
    return { body: entry.body, etag: entry.etag, content_type: entry.content_type };
  }

  /**
   * The answer to a conditional request whose If-None-Match holds the ETag proven current for `key`
   * (an empty body: the caller answers 304), or undefined when the service must be asked. `count: false`
   * only looks (a caller that will look again before answering).
   */
  notModified(key: string, ifNoneMatch: string | undefined, count = true): CachedRepresentation | undefined {
    const held = this.entries.get(key);
    if (!held || !ifNoneMatch || !this.isProven(held) || !ifNoneMatchMatches(ifNoneMatch, held.etag))
      return undefined;
    if (count) this.onProvenAnswer();
    return { body: NO_BODY, etag: held.etag, content_type: held.content_type };
  }

  /** An event said the diagram changed (or is gone): no copy of it is proven current any more. */
  diagramChanged(diagramUuid: string): void {
    for (const check of this.pending.get(diagramUuid) ?? []) check.voided = true;
    for (const key of this.keysByDiagram.get(diagramUuid) ?? []) {
      const entry = this.entries.get(key);
      if (entry) entry.provenAtMs = Number.NaN;
    }
  }

  /** Events may have been missed (the bus was down): nothing is proven until the service confirms again. */
  forgetProofs(): void {
    this.epoch++;
    for (const checks of this.pending.values()) for (const check of checks) check.voided = true;
  }

  private isProven(entry: Entry): boolean {
    return (
      this.proofMs > 0 &&
      entry.epoch === this.epoch &&
      this.now() - entry.provenAtMs < this.proofMs &&
      this.eventsFlowing()
    );
  }

  /**
   * One check with the service per key and offered ETag at a time. A request that finds one running joins
   * the check queued behind it, never the running one: that began before the request arrived and could
   * answer with what was current before a change the requester already knows of.
   */
  private check(
    key: string,
    diagramUuid: string,
    knownEtag: string,
    load: (knownEtag: string) => Promise<ServiceAnswer>,
  ): Promise<ServiceAnswer> {
    const flight = `${key}\n${knownEtag}`;
    const queued = this.queued.get(flight);
    if (queued) return queued;
    const running = this.running.get(flight);
    const start = () => {
      this.queued.delete(flight);
      const promise = this.checkNow(key, diagramUuid, knownEtag, load).finally(() => {
        if (this.running.get(flight) === promise) this.running.delete(flight);
      });
      this.running.set(flight, promise);
      return promise;
    };
    if (!running) return start();
    const next = running.then(start, start);
    this.queued.set(flight, next);
    return next;
  }

  private async checkNow(
    key: string,
    diagramUuid: string,
    knownEtag: string,
    load: (knownEtag: string) => Promise<ServiceAnswer>,
  ): Promise<ServiceAnswer> {
    const check: PendingCheck = { voided: false };
    const epoch = this.epoch;
    const startedAtMs = this.now();
    const checks = this.pending.get(diagramUuid) ?? new Set<PendingCheck>();
    this.pending.set(diagramUuid, checks);
    checks.add(check);
    try {
      const answer = await load(knownEtag);
      const provenAtMs = check.voided || epoch !== this.epoch ? Number.NaN : startedAtMs;
      this.record(key, diagramUuid, answer, provenAtMs);
      return answer;
    } finally {
      checks.delete(check);
      if (checks.size === 0 && this.pending.get(diagramUuid) === checks) this.pending.delete(diagramUuid);
    }
  }

  /** Stores what the service confirmed: the new bytes, or the proof for the ETag already held. */
  private record(key: string, diagramUuid: string, answer: ServiceAnswer, provenAtMs: number): void {
    const held = this.entries.get(key);
    if (answer.unchanged) {
      if (held && held.etag === answer.etag) {
        held.provenAtMs = provenAtMs;
        held.epoch = this.epoch;
        return;
      }
      this.store(key, { ...answerFields(answer, diagramUuid, provenAtMs, this.epoch), body: null });
      return;
    }
    const body = Buffer.from(answer.body);
    if (body.length > this.maxBytes / 4) {
      this.remove(key);
      return;
    }
    this.store(key, { ...answerFields(answer, diagramUuid, provenAtMs, this.epoch), body });
  }

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private store(key: string, entry: Entry): void {
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += costOf(entry);
    const keys = this.keysByDiagram.get(entry.diagramUuid) ?? new Set<string>();
    this.keysByDiagram.set(entry.diagramUuid, keys);
    keys.add(key);
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= costOf(entry);
    const keys = this.keysByDiagram.get(entry.diagramUuid);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByDiagram.delete(entry.diagramUuid);
  }
}

function answerFields(answer: ServiceAnswer, diagramUuid: string, provenAtMs: number, epoch: number) {
  return { etag: answer.etag, content_type: answer.content_type, diagramUuid, provenAtMs, epoch };
}

function costOf(entry: Entry): number {
  return ENTRY_OVERHEAD_BYTES + (entry.body?.length ?? 0);
}

/** The one strong tag of an If-None-Match header, if it holds exactly one (a weak W/ prefix is dropped). */
function singleTag(header: string | undefined): string | undefined {
  const value = header?.trim().replace(/^W\//, '');
  return value && /^"[^"]*"$/.test(value) ? value : undefined;
}
