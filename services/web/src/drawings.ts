// The drawings the web app's pages show, kept by content. Drawing a diagram (table boxes, layout of the
// relationships' lines, routing around every table) costs from milliseconds for a few tables to seconds for
// hundreds, and every page view of the same version asks for the same drawing; renderDiagramSvg's output
// depends only on the document and the options (no clocks, no randomness), so a drawing is kept under a
// hash of exactly what it is drawn from. No invalidation is needed: a new version or another highlight is
// other content, and the least recently used drawings leave once the kept ones pass the byte budget.
//
// The title is a per-view input (the diagram page, its embed view, a share link and the page of the current
// version each name the same drawing differently) and only fills the SVG's root <title>: a drawing is kept
// without it, in the two pieces around that element's text, and each view puts its own title between them.
// So one drawing serves every page of a version, and a drawing made before any view (new-version-drawings.ts,
// in a worker thread) is the one the first view finds.
import { createHash } from 'node:crypto';
import {
  busyTables,
  type DiagramHighlight,
  escapeXml,
  RouteMemory,
  type RouteSeed,
  renderDiagramParts,
  svgOfParts,
} from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';

/** What the process keeps at most: a 300-table drawing is about 2 MB (UTF-16: 4 MB). */
export const DRAWING_CACHE_BYTES = 64 * 1024 * 1024;

interface Drawable {
  highlight?: DiagramHighlight;
  title?: string;
  /**
   * The read-only views' drawing: busy tables drawn again beside far groups of the tables that reference
   * them (packages/diagram-svg, hub-copies.ts). Not with a highlight; the editor draws every table once.
   */
  copies?: boolean;
}

/** A drawing without its title: the SVG is `head + escaped title + tail`. */
export interface UntitledDrawing {
  head: string;
  tail: string;
  /** renderDiagramSvg's title when none is given ("Diagram with N tables"). */
  defaultTitle: string;
  /**
   * The drawing's routing (a drawing without a highlight): what the editor page sends so that its first
   * drawing keeps every line instead of routing them all in the browser (packages/editor, RouteMemory.seeded).
   */
  routes?: RouteSeed;
}

const EMPTY_TITLE = '<title></title>';

/**
 * The drawing of `document` with `highlight`, in pieces around its title. The SVG's root element writes
 * its <title> first (render.ts), before any other element, so the first empty title element is the root's.
 */
export function drawUntitled(
  document: DiagramDocument,
  highlight?: DiagramHighlight,
  copies = false,
): UntitledDrawing {
  const copying = drawsCopies(document, highlight, copies);
  // A routing with a fresh memory is the routing without one; the memory only keeps it as data. A drawing
  // with copies has lines the editor does not draw (to the copies): no routing for it.
  const memory = highlight || copying ? undefined : new RouteMemory();
  const parts = renderDiagramParts(
    document,
    highlight ? { highlight } : copying ? { hubCopies: true } : { routeMemory: memory },
  );
  const svg = svgOfParts({ ...parts, title: '' });
  const at = svg.indexOf(EMPTY_TITLE) + '<title>'.length;
  return {
    head: svg.slice(0, at),
    tail: svg.slice(at),
    defaultTitle: parts.title,
    ...(memory ? { routes: memory.export() } : {}),
  };
}

/** Whether a drawing asked for with `copies` has any: a document with a busy table, and no highlight. */
export function drawsCopies(
  document: DiagramDocument,
  highlight: DiagramHighlight | undefined,
  copies: boolean,
) {
  return copies && highlight === undefined && busyTables(document).length > 0;
}

/**
 * The name of the drawing the read-only views show (diagram page, embed view, and the new-version drawer
 * that draws it before their first view): the content's, and another for a document with busy tables, whose
 * read-only drawing (with copies) differs from the editor's.
 */
export function pageKey(content: string, document: DiagramDocument): string {
  return drawsCopies(document, undefined, true) ? `${content}~copies` : content;
}

/**
 * The name a drawing of `document` is kept under: the content's, or pageKey's for a read-only view's drawing
 * (`copies`, no highlight).
 */
function drawingKey(document: DiagramDocument, options: Pick<Drawable, 'highlight' | 'copies'>): string {
  const content = contentKey(document, options.highlight);
  return options.copies === true && !options.highlight ? pageKey(content, document) : content;
}

/**
 * A new version drawn ahead (drawing-worker.ts): the read-only views' drawing, and for a document with busy
 * tables (whose views draw copies of them) also `once`, the editor's drawing of every table once.
 */
export type VersionDrawings = UntitledDrawing & { once?: UntitledDrawing };

/** Both drawings a new version's pages need, as VersionDrawings. */
export function drawVersion(document: DiagramDocument): VersionDrawings {
  const page = drawUntitled(document, undefined, true);
  return drawsCopies(document, undefined, true) ? { ...page, once: drawUntitled(document) } : page;
}

/** The whole SVG of a kept drawing under `title`: byte-equal to renderDiagramSvg's. */
export function titled(drawing: UntitledDrawing, title: string | undefined): string {
  return drawing.head + escapeXml(title ?? drawing.defaultTitle) + drawing.tail;
}

/** The document in a body of diagrams.GetFullDocument (`{"data": <document>}`), as every page reads it. */
export function documentOfBody(body: string): DiagramDocument {
  return (JSON.parse(body) as { data: DiagramDocument }).data;
}

/**
 * A hash of the document and the highlight (its Maps by their entries): the name of a drawing. The text
 * hashed is `JSON.stringify([document, highlight])`; the document (parsed JSON, no Maps) is written without
 * a replacer, which would be called for every one of a large document's values and took three times as
 * long as the plain stringify on the 300-table document.
 */
export function contentKey(document: DiagramDocument, highlight?: DiagramHighlight): string {
  const marks = highlight
    ? JSON.stringify(highlight, (_key, value) => (value instanceof Map ? [...value] : value))
    : 'null';
  return createHash('sha256')
    .update(`[${JSON.stringify(document)},${marks}]`)
    .digest('base64url');
}

/** How many page drawings were found kept and how many were drawn for a page (the drawer's are not counted). */
export interface DrawingCounts {
  hits: number;
  drawn: number;
  /** Views that waited for the drawing a worker was making of the same content. */
  joined: number;
}

export class DrawingCache {
  private readonly kept = new Map<string, UntitledDrawing>();
  private readonly inFlight = new Map<string, Promise<UntitledDrawing | null>>();
  /** Diagrams whose new version the drawer is reading now, until it is being drawn (or was skipped). */
  private readonly reading = new Map<string, Promise<void>>();
  private bytes = 0;
  readonly counts: DrawingCounts = { hits: 0, drawn: 0, joined: 0 };

  constructor(
    private readonly budgetBytes = DRAWING_CACHE_BYTES,
    private readonly draw: (
      document: DiagramDocument,
      highlight?: DiagramHighlight,
      copies?: boolean,
    ) => UntitledDrawing = drawUntitled,
  ) {}

  /** The drawing of `document` with `options`, byte-equal to renderDiagramSvg's. */
  svg(document: DiagramDocument, options: Drawable = {}): string {
    // renderDiagramSvg sizes the tables of the document it is given: the key is taken before.
    const key = drawingKey(document, options);
    return titled(
      this.found(key) ?? this.drawForPage(key, document, options.highlight, options.copies === true),
      options.title,
    );
  }

  /**
   * As `svg`, but when a worker is drawing this very content (a new version drawn before its first view),
   * the page waits for that drawing instead of making the same one again on the event loop.
   */
  async svgSoon(
    document: DiagramDocument,
    options: Drawable & { diagramUuid?: string; key?: string } = {},
  ): Promise<string> {
    return titled(await this.drawingSoon(document, options), options.title);
  }

  /** The untitled drawing `svgSoon` puts its title in (the editor page reads its routing). */
  async drawingSoon(
    document: DiagramDocument,
    options: Pick<Drawable, 'highlight' | 'copies'> & { diagramUuid?: string; key?: string } = {},
  ): Promise<UntitledDrawing> {
    // `key`: drawingKey's, when the caller has it already.
    const key = options.key ?? drawingKey(document, options);
    let drawing = this.found(key);
    const reading = options.diagramUuid === undefined ? undefined : this.reading.get(options.diagramUuid);
    if (!drawing && reading) {
      // The drawer heard of a new version of this diagram and is fetching it (a few milliseconds): once it
      // has, its drawing is in flight (below) if it is this content.
      await reading;
      drawing = this.found(key);
    }
    if (!drawing) {
      const pending = this.inFlight.get(key);
      if (pending) {
        this.counts.joined += 1;
        drawing = (await pending) ?? this.found(key);
      }
    }
    return drawing ?? this.drawForPage(key, document, options.highlight, options.copies === true);
  }

  /** Whether the drawing named `key` is kept or being made. */
  has(key: string): boolean {
    return this.kept.has(key) || this.inFlight.has(key);
  }

  /**
   * Keeps what `drawing` resolves to under `key` (null: nothing, the drawer failed). Until then, views of that
   * content wait for it (svgSoon).
   */
  async keepWhenDrawn(key: string, drawing: Promise<UntitledDrawing | null>): Promise<void> {
    const settled = drawing.catch(() => null);
    this.inFlight.set(key, settled);
    try {
      const drawn = await settled;
      if (drawn) this.keep(key, drawn);
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** The drawer is reading `diagramUuid`'s new version until `read` settles (see svgSoon). */
  async whileReading(diagramUuid: string, read: Promise<unknown>): Promise<void> {
    const settled = read.then(
      () => undefined,
      () => undefined,
    );
    this.reading.set(diagramUuid, settled);
    try {
      await settled;
    } finally {
      if (this.reading.get(diagramUuid) === settled) this.reading.delete(diagramUuid);
    }
  }

  /** How many drawings are kept, and their size in bytes (UTF-16). */
  get size(): { drawings: number; bytes: number } {
    return { drawings: this.kept.size, bytes: this.bytes };
  }

  /** The kept drawing named `key`, if any (a page view: counted as a hit). */
  keptDrawing(key: string): UntitledDrawing | undefined {
    return this.found(key);
  }

  private found(key: string): UntitledDrawing | undefined {
    const found = this.kept.get(key);
    if (found === undefined) return undefined;
    this.counts.hits += 1;
    // Most recently used last: Map keeps insertion order.
    this.kept.delete(key);
    this.kept.set(key, found);
    return found;
  }

  private drawForPage(
    key: string,
    document: DiagramDocument,
    highlight?: DiagramHighlight,
    copies = false,
  ): UntitledDrawing {
    this.counts.drawn += 1;
    const drawn = this.draw(document, highlight, copies);
    this.keep(key, drawn);
    return drawn;
  }

  private keep(key: string, drawing: UntitledDrawing): void {
    if (this.kept.has(key)) return;
    const size = sizeOf(drawing);
    if (size > this.budgetBytes) return;
    this.kept.set(key, drawing);
    this.bytes += size;
    for (const [oldest, kept] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.kept.delete(oldest);
      this.bytes -= sizeOf(kept);
    }
  }
}

/** Bytes kept (UTF-16), a routing counted at about 100 bytes a point. */
function sizeOf(drawing: UntitledDrawing): number {
  let points = 0;
  for (const route of drawing.routes?.routes ?? []) points += route[2].length / 2;
  return (drawing.head.length + drawing.tail.length + drawing.defaultTitle.length) * 2 + points * 100;
}

/** The web app's one cache. */
export const drawings = new DrawingCache();

/** renderDiagramSvg through the web app's cache. */
export function drawDiagram(document: DiagramDocument, options: Drawable = {}): string {
  return drawings.svg(document, options);
}
