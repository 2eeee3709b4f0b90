// Draws a large diagram's new version before anyone opens it. Every save (create, import, editor, proposal
// applied, restore) sends `diagrams.changed` over the bus to every web replica; here each replica fetches the
// version's full document as the diagram page does and has it drawn in its drawing thread, into the drawings
// kept by content (drawings.ts), so the page's first view of the version finds it drawn (or, if it comes
// while the drawing is under way, waits for that drawing rather than making it a second time).
//
// Bounds: one drawing at a time per process; a queue of at most QUEUE_LIMIT diagrams (a diagram's newer
// version replaces its waiting one; past the limit the longest-waiting is dropped: its page draws it itself,
// as it would without this); a diagram drawn here is not drawn again within COOLDOWN_MS (an editing session
// saves every few seconds, and while it does the open pages redraw from document.json in the browser);
// diagrams under MIN_TABLES tables are left to their pages, which draw them in a fraction of a second.
// A failure here is logged and forgotten: no request waits on this queue, only (a page of the diagram) on the
// fetch of its diagram running at that moment and then on a drawing already running of exactly its content.
//
// Teams: the event names the diagram and its team, and the document is asked of diagrams as that team (a
// principal of that team only, with no user: diagrams reads a read's team from it), so a diagram is only
// ever read under its own team, and what is drawn is kept under a hash of the document itself.
import { type BusSubscription, type EventBus, isServiceError, type Logger } from '@dss/platform';
import type { WebClients } from './clients';
import type { DrawingCache, UntitledDrawing, VersionDrawings } from './drawings';
import { contentKey, documentOfBody, pageKey } from './drawings';

/**
 * Diagrams with fewer tables are not drawn ahead. Drawing the generated diagrams (12 columns a table) took,
 * on the shared 2-core machine (median of 3, under load): 50 tables 0.17 s, 100 tables 0.4 s, 150 tables
 * 0.43 s, 300 tables 1.7 s. Under 100 tables the page's own drawing is a small part of the 1.5 s budget,
 * while most saves are of small diagrams, each of which would otherwise cost a fetch of its document and a
 * hand-off to the thread; from 100 up it is a quarter of the budget and more.
 */
export const MIN_TABLES = 100;
/** Diagrams waiting to be drawn, at most. */
export const QUEUE_LIMIT = 8;
/** A diagram drawn here waits this long before its next version is drawn here. */
export const COOLDOWN_MS = 10_000;

/** The web app itself, reading as a viewer of the event's team (diagrams checks a principal's team). */
const NO_USER = '00000000-0000-0000-0000-000000000000';

export interface NewVersionDrawerOptions {
  bus: EventBus;
  clients: Pick<WebClients, 'diagrams'>;
  cache: DrawingCache;
  /** Draws GetFullDocument's body off the event loop (the drawing thread's). */
  draw: (body: string) => Promise<VersionDrawings>;
  logger: Logger;
  minTables?: number;
  queueLimit?: number;
  cooldownMs?: number;
  now?: () => number;
}

interface Job {
  diagramUuid: string;
  teamId: string;
}

/** What the drawer did, for tests and logs. */
export interface DrawerCounts {
  drawn: number;
  /** Fewer tables than the threshold. */
  small: number;
  /** Already kept (or being drawn for a page). */
  kept: number;
  /** Not a ready diagram of the event's team (deleted, importing, failed, or another team's). */
  unreadable: number;
  failed: number;
  /** Left out of a full queue. */
  dropped: number;
}

export class NewVersionDrawer {
  private readonly queue = new Map<string, Job>();
  private readonly lastDrawn = new Map<string, number>();
  private readonly minTables: number;
  private readonly queueLimit: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;
  private subscription: BusSubscription | null = null;
  private running: Promise<void> | null = null;
  private wake: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly idleWaiters: (() => void)[] = [];
  readonly counts: DrawerCounts = { drawn: 0, small: 0, kept: 0, unreadable: 0, failed: 0, dropped: 0 };

  constructor(private readonly options: NewVersionDrawerOptions) {
    this.minTables = options.minTables ?? MIN_TABLES;
    this.queueLimit = options.queueLimit ?? QUEUE_LIMIT;
    this.cooldownMs = options.cooldownMs ?? COOLDOWN_MS;
    this.now = options.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.subscription = await this.options.bus.subscribe('diagrams.changed', (message) =>
      this.offer(message.data),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    clearTimeout(this.wake);
    await this.subscription?.unsubscribe();
    this.subscription = null;
    await this.running;
    this.settleIdle();
  }

  /** A `diagrams.changed` event: its diagram is queued (replacing its waiting job, if any). */
  offer(data: unknown): void {
    const event = data as { diagram_uuid?: unknown; team_id?: unknown } | null;
    if (this.closed || typeof event?.diagram_uuid !== 'string' || typeof event.team_id !== 'string') return;
    const diagramUuid = event.diagram_uuid.toLowerCase();
    this.queue.delete(diagramUuid);
    this.queue.set(diagramUuid, { diagramUuid, teamId: event.team_id.toLowerCase() });
    for (const [oldest] of this.queue) {
      if (this.queue.size <= this.queueLimit) break;
      this.queue.delete(oldest);
      this.counts.dropped += 1;
    }
    this.pump();
  }

  /** Resolves once nothing is queued or being drawn (tests; a job waiting out its cooldown counts as queued). */
  idle(): Promise<void> {
    if (!this.running && this.queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.nextReady();
    if (!job) {
      this.settleIdle();
      return;
    }
    this.queue.delete(job.diagramUuid);
    this.lastDrawn.set(job.diagramUuid, this.now());
    this.running = this.run(job)
      .catch((error: unknown) => {
        this.counts.failed += 1;
        if (!this.closed)
          this.options.logger.warn(
            { err: error, diagram_uuid: job.diagramUuid },
            'a new version was not drawn ahead; its page will draw it',
          );
      })
      .finally(() => {
        this.running = null;
        this.pump();
      });
  }

  /** The longest-waiting job past its diagram's cooldown; else a timer for the first one that will be. */
  private nextReady(): Job | null {
    clearTimeout(this.wake);
    const now = this.now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const [uuid, last] of this.lastDrawn) if (now - last >= this.cooldownMs) this.lastDrawn.delete(uuid);
    for (const job of this.queue.values()) {
      const last = this.lastDrawn.get(job.diagramUuid);
      if (last === undefined) return job;
      soonest = Math.min(soonest, last + this.cooldownMs);
    }
    if (soonest !== Number.POSITIVE_INFINITY) {
      this.wake = setTimeout(() => this.pump(), soonest - now);
      this.wake.unref();
    }
    return null;
  }

  private async run(job: Job): Promise<void> {
    // A view of this diagram coming while its document is fetched waits for the fetch, then for the drawing.
    let drawing: Promise<VersionDrawings> | null = null;
    const reading = this.read(job).then((read) => {
      if (!read) return;
      const drawn = this.options.draw(read.body);
      drawing = drawn;
      // The read-only views' drawing under its key; the editor's, when it differs, under the content's.
      const page = drawn.then(({ once: _editor, ...views }): UntitledDrawing => views);
      void this.options.cache.keepWhenDrawn(read.key, page);
      if (read.content !== read.key)
        void this.options.cache.keepWhenDrawn(
          read.content,
          drawn.then((both) => both.once ?? null),
        );
    });
    void this.options.cache.whileReading(job.diagramUuid, reading);
    await reading;
    if (!drawing) return;
    await drawing;
    this.counts.drawn += 1;
  }

  /** The version's full document and its drawing's key, or null when it is not to be drawn here. */
  private async read(job: Job): Promise<{ body: string; key: string; content: string } | null> {
    const { diagrams } = this.options.clients;
    const principal = {
      token_id: '',
      user_id: NO_USER,
      user_email: '',
      user_name: '',
      team_id: job.teamId,
      team_slug: '',
      team_name: '',
      role: 'viewer',
      write: false,
      plan: '',
      caps: {},
      expires_at: '',
    };
    let body: string;
    try {
      const diagram = await diagrams.GetDiagram({ principal, uuid: job.diagramUuid });
      if (diagram.status !== 'ready') {
        this.counts.unreadable += 1;
        return null;
      }
      if ((diagram.table_count ?? 0) < this.minTables) {
        this.counts.small += 1;
        return null;
      }
      body = (await diagrams.GetFullDocument({ principal, uuid: job.diagramUuid, known_etag: '' })).body;
    } catch (error) {
      if (isServiceError(error) && (error.code === 'not_found' || error.code === 'diagram_not_ready')) {
        this.counts.unreadable += 1;
        return null;
      }
      throw error;
    }
    // The page's document and key: the same body, parsed the same way.
    const document = documentOfBody(body);
    const content = contentKey(document);
    const key = pageKey(content, document);
    if (this.options.cache.has(key)) {
      this.counts.kept += 1;
      return null;
    }
    return { body, key, content };
  }

  private settleIdle(): void {
    if (this.running || (this.queue.size > 0 && !this.closed)) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
