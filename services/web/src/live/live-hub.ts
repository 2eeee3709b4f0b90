// The web app's side of "two people at once": it holds the pages' event streams (Server-Sent Events),
// forwards the diagrams service's events (`diagrams.*`, from its outbox over the bus) to the streams of that
// diagram, and keeps the presence board, fed over the bus (`web.presence.<uuid>`) so every replica knows
// who is on a diagram whichever replica their page is connected to.
import { randomUUID } from 'node:crypto';
import type { BusSubscription, EventBus, Logger } from '@dss/platform';
import type { Response } from 'express';
import {
  PRESENCE_REPEAT_MS,
  PRESENCE_SUBJECT_PREFIX,
  type PresenceAnnouncement,
  PresenceBoard,
  readAnnouncement,
} from './presence';

/** A comment line this often keeps proxies (and the browser) from taking the stream for dead. */
export const HEARTBEAT_MS = 15_000;
/** How long the browser waits before reconnecting a stream that ended (the SSE `retry` field). */
export const RETRY_MS = 2_000;
/** Streams one session may hold on one replica: a few tabs, never an unbounded number. */
export const MAX_STREAMS_PER_SESSION = 8;
/** Streams one replica holds at most. */
export const MAX_STREAMS = 5_000;
/** A stream whose client reads this far behind is ended (it reconnects and catches up then). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const SWEEP_MS = 5_000;

export interface StreamOwner {
  diagramUuid: string;
  teamId: string;
  sessionId: string;
  user: { id: string; name: string; email: string };
  /** The page's tab id; null for a page that does not take part in presence. */
  tab: string | null;
}

interface Stream extends StreamOwner {
  id: string;
  res: Response;
  table: string | null;
}

export type OpenResult = { ok: true; stream: { id: string } } | { ok: false; reason: 'limit' | 'draining' };

export interface LiveHubOptions {
  bus: EventBus;
  logger: Logger;
  now?: () => number;
}

export class LiveHub {
  private readonly bus: EventBus;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly board = new PresenceBoard();
  private readonly streams = new Map<string, Set<Stream>>();
  private readonly perSession = new Map<string, number>();
  private subscriptions: BusSubscription[] = [];
  private timers: NodeJS.Timeout[] = [];
  private accepting = true;
  private count = 0;

  constructor(options: LiveHubOptions) {
    this.bus = options.bus;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.subscriptions = await Promise.all([
      this.bus.subscribe('diagrams.>', (message) => this.diagramEvent(message.subject, message.data)),
      this.bus.subscribe(`${PRESENCE_SUBJECT_PREFIX}*`, (message) => {
        const announcement = readAnnouncement(message.data);
        if (announcement) this.hear(announcement);
      }),
    ]);
    this.timers = [
      setInterval(() => this.everyStream((stream) => this.write(stream, ': ping\n\n')), HEARTBEAT_MS),
      setInterval(() => this.repeatPresence(), PRESENCE_REPEAT_MS),
      setInterval(() => {
        for (const diagram of this.board.sweep(this.now())) this.sendPresence(diagram);
      }, SWEEP_MS),
    ];
    for (const timer of this.timers) timer.unref();
  }

  /** Makes `res` an event stream of the owner's diagram; the caller has checked the owner may see it. */
  open(res: Response, owner: StreamOwner): OpenResult {
    if (!this.accepting) return { ok: false, reason: 'draining' };
    const held = this.perSession.get(owner.sessionId) ?? 0;
    if (held >= MAX_STREAMS_PER_SESSION || this.count >= MAX_STREAMS) return { ok: false, reason: 'limit' };
    const stream: Stream = { ...owner, id: randomUUID(), res, table: null };
    this.perSession.set(owner.sessionId, held + 1);
    this.count += 1;
    let set = this.streams.get(owner.diagramUuid);
    if (!set) {
      set = new Set();
      this.streams.set(owner.diagramUuid, set);
    }
    set.add(stream);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // Proxies that buffer answers (nginx) would hold the events back.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    this.write(stream, `retry: ${RETRY_MS}\n\n`);
    this.sendEvent(stream, 'presence', {
      people: this.board.people(owner.diagramUuid, owner.teamId, owner.user.id),
    });
    res.on('close', () => this.forget(stream));
    if (stream.tab) void this.announce(this.announcementOf(stream, 'here'));
    return { ok: true, stream: { id: stream.id } };
  }

  /** Sends one event to one stream (the route's catch-up event right after opening). */
  sendTo(streamId: string, diagramUuid: string, event: string, data: unknown, id?: string): void {
    for (const stream of this.streams.get(diagramUuid) ?? [])
      if (stream.id === streamId) this.sendEvent(stream, event, data, id);
  }

  /** A page said which table it has selected: tell every replica. */
  async select(owner: Omit<StreamOwner, 'sessionId'> & { tab: string }, table: string | null): Promise<void> {
    await this.announce({
      diagram_uuid: owner.diagramUuid,
      team_id: owner.teamId,
      tab: owner.tab,
      user_id: owner.user.id,
      name: owner.user.name,
      email: owner.user.email,
      table,
      state: 'here',
    });
  }

  /** Ends every stream whose owner no longer passes `allowed` (a revoked session, a member removed). */
  async recheck(allowed: (owner: StreamOwner) => Promise<boolean>): Promise<void> {
    const all = [...this.streams.values()].flatMap((set) => [...set]);
    for (const stream of all) if (!(await allowed(stream).catch(() => true))) stream.res.end();
  }

  /** Shutdown begins: new streams are refused and open ones end, so their pages reconnect elsewhere. */
  drain(): void {
    this.accepting = false;
    this.everyStream((stream) => stream.res.end());
  }

  async close(): Promise<void> {
    this.drain();
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    const subscriptions = this.subscriptions;
    this.subscriptions = [];
    await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe()));
  }

  private diagramEvent(subject: string, data: unknown): void {
    const event = data as { diagram_uuid?: unknown; team_id?: unknown; version_uuid?: unknown } | null;
    if (typeof event?.diagram_uuid !== 'string') return;
    const set = this.streams.get(event.diagram_uuid.toLowerCase());
    if (!set) return;
    const version = typeof event.version_uuid === 'string' ? event.version_uuid : undefined;
    // Moved to the Trash or purged: the pages say so and their streams end (the diagram is a 404 now).
    const gone = subject === 'diagrams.deleted' || subject === 'diagrams.purged';
    const name = gone ? 'deleted' : 'changed';
    const payload = {
      version_uuid: version ?? null,
      source:
        typeof (data as { source?: unknown }).source === 'string'
          ? (data as { source: string }).source
          : null,
    };
    for (const stream of [...set])
      if (event.team_id === undefined || event.team_id === stream.teamId) {
        this.sendEvent(stream, name, payload, version);
        if (gone) stream.res.end();
      }
  }

  private hear(announcement: PresenceAnnouncement): void {
    // The replica holding the page's stream remembers its selection, to repeat it.
    for (const stream of this.streams.get(announcement.diagram_uuid) ?? [])
      if (
        stream.tab === announcement.tab &&
        stream.user.id === announcement.user_id &&
        announcement.state === 'here'
      )
        stream.table = announcement.table;
    if (this.board.hear(announcement, this.now())) this.sendPresence(announcement.diagram_uuid);
  }

  private async announce(announcement: PresenceAnnouncement): Promise<void> {
    try {
      await this.bus.publish(`${PRESENCE_SUBJECT_PREFIX}${announcement.diagram_uuid}`, announcement);
    } catch (error) {
      // Without the bus this replica's own pages still see each other.
      this.logger.warn({ err: error }, 'presence not shared: the bus refused it');
      this.hear(announcement);
    }
  }

  private repeatPresence(): void {
    this.everyStream((stream) => {
      if (stream.tab) void this.announce(this.announcementOf(stream, 'here'));
    });
  }

  private sendPresence(diagramUuid: string): void {
    for (const stream of this.streams.get(diagramUuid) ?? [])
      this.sendEvent(stream, 'presence', {
        people: this.board.people(diagramUuid, stream.teamId, stream.user.id),
      });
  }

  private forget(stream: Stream): void {
    const set = this.streams.get(stream.diagramUuid);
    if (!set?.delete(stream)) return;
    if (set.size === 0) this.streams.delete(stream.diagramUuid);
    this.count -= 1;
    const held = (this.perSession.get(stream.sessionId) ?? 1) - 1;
    if (held > 0) this.perSession.set(stream.sessionId, held);
    else this.perSession.delete(stream.sessionId);
    // A stream ended by the drain comes back on another replica, and a tab that already reconnected here
    // is still there: telling the others it left would race with its return.
    const reconnected = [...set].some(
      (other) => other.tab === stream.tab && other.user.id === stream.user.id,
    );
    if (stream.tab && this.accepting && !reconnected) void this.announce(this.announcementOf(stream, 'gone'));
  }

  private announcementOf(stream: Stream, state: 'here' | 'gone'): PresenceAnnouncement {
    return {
      diagram_uuid: stream.diagramUuid,
      team_id: stream.teamId,
      tab: stream.tab!,
      user_id: stream.user.id,
      name: stream.user.name,
      email: stream.user.email,
      table: stream.table,
      state,
    };
  }

  private everyStream(each: (stream: Stream) => void): void {
    for (const set of [...this.streams.values()]) for (const stream of [...set]) each(stream);
  }

  private sendEvent(stream: Stream, event: string, data: unknown, id?: string): void {
    // JSON.stringify escapes line breaks inside strings, so the data is one line.
    this.write(stream, `event: ${event}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }

  private write(stream: Stream, text: string): void {
    if (stream.res.writableEnded || stream.res.destroyed) return;
    if (stream.res.writableLength > MAX_BUFFERED_BYTES) {
      stream.res.end();
      return;
    }
    stream.res.write(text);
  }
}
