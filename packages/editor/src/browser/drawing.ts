// The canvas's SVG, kept up to date with the document: the first drawing (and one whose groups, notes or
// layers changed) is the renderer's whole SVG; after an edit, only the tables and relationships whose
// markup changed are parsed and swapped in, keyed by data-table / data-relationship (planLayer). The
// routing keeps every line the edit did not touch where it was (RouteMemory: its ends did not move and it
// keeps clear of every changed table) and routes only the others again, and every table and relationship
// record the edit did not replace keeps its markup (MarkupCache: the store's documents are never changed
// in place); so an added column redraws its table and the lines of it or in its way, and every other line's
// path element stays on the page untouched. The lines routed again are searched afresh: their
// surroundings are what the edit changed, so a cache of searches (SearchCache) rarely had their paths and
// building its keys cost more than it saved (about 10% of a redraw on 300 tables). The first drawing
// starts from the server's routing of the version when the page carries one (RouteMemory.seeded): the
// lines of every table where the server drew it are kept, so a page of hundreds of tables does not route
// them all again in the browser, cold, before it shows anything. When the page carries the server's drawing
// of that version too (an inert <template>, parsed with the page), the first drawing is that node, adopted
// as it is, and the parts that later edits are patched against are built after the first paint (or at the
// first edit, if it comes sooner): parsing 1.5 MB of SVG text again as XML and rendering every part of a
// 300-table diagram cost about 0.8 s before anything showed.
import {
  type DiagramParts,
  MarkupCache,
  RouteMemory,
  renderDiagramParts,
  svgOfParts,
} from '@dss/diagram-svg';
import { type LayerPlan, patchable, planLayer } from '../drawing-patch';

const SVG_NS = 'http://www.w3.org/2000/svg';

export interface DrawOutcome {
  svg: SVGSVGElement;
  /** Whether the SVG on the page was patched (false: a new SVG element was put in). */
  patched: boolean;
  /** Tables and relationships drawn again (all of them when not patched). */
  redrawn: number;
  /** Relationship lines put in again (all of them when not patched). */
  lines: number;
}

type Drawable = Parameters<typeof renderDiagramParts>[0];

/** The server's drawing of the page's first document: its SVG and that document. */
export interface ServedDrawing {
  svg: SVGSVGElement;
  document: Drawable;
}

export class CanvasDrawing {
  private svg: SVGSVGElement | null = null;
  private parts: DiagramParts | null = null;
  private readonly memory: RouteMemory;
  private readonly markup = new MarkupCache();
  /** The served drawing while it waits to be drawn; then, until its parts are built, what they are of. */
  private served: ServedDrawing | null;
  private unbuilt: { document: Drawable; title: string } | null = null;
  /** CSS pixels per diagram unit (the canvas's zoom). */
  private scale = 1;

  /**
   * `routes`: a routing of the first document made elsewhere (a RouteSeed: the server's), or null.
   * `served`: the server's drawing of that document (with that routing), or null.
   */
  constructor(routes: unknown = null, served: ServedDrawing | null = null) {
    this.memory = routes === null ? new RouteMemory() : RouteMemory.seeded(routes);
    this.served = served;
  }

  /** Draws `document` into `host`, patching the SVG already there when it can. */
  draw(host: HTMLElement, document: Drawable, title: string): DrawOutcome {
    const served = this.served;
    this.served = null;
    if (served !== null && this.svg === null && served.document === document) {
      const svg = window.document.adoptNode(served.svg);
      sizeTo(svg, svg.getAttribute('viewBox') ?? '0 0 1 1', this.scale);
      host.replaceChildren(svg);
      this.svg = svg;
      this.unbuilt = { document, title };
      // Once the frame that shows it is painted and the page is idle (or within 2 s at the latest).
      requestAnimationFrame(() => {
        if (typeof requestIdleCallback === 'function')
          requestIdleCallback(() => this.build(), { timeout: 2000 });
        else setTimeout(() => this.build(), 0);
      });
      const relationships = svg.querySelectorAll(':scope > g.dss-relationships > *').length;
      const tables = svg.querySelectorAll(':scope > g.dss-tables > *').length;
      return { svg, patched: false, redrawn: relationships + tables, lines: relationships };
    }
    this.build();
    const parts = this.partsOf(document, title);
    const before = this.parts;
    const svg = this.svg;
    this.parts = parts;
    if (svg !== null && before !== null && svg.parentNode === host && patchable(before, parts)) {
      const lines = patchLayer(
        svg,
        'dss-relationships',
        planLayer(before.relationships, parts.relationships),
      );
      const tables = lines < 0 ? -1 : patchLayer(svg, 'dss-tables', planLayer(before.tables, parts.tables));
      if (tables >= 0) {
        sizeTo(svg, parts.viewBox, this.scale);
        return { svg, patched: true, redrawn: lines + tables, lines };
      }
    }
    const fresh = parseSvg(svgOfParts(parts));
    sizeTo(fresh, parts.viewBox, this.scale);
    host.replaceChildren(fresh);
    this.svg = fresh;
    return {
      svg: fresh,
      patched: false,
      redrawn: parts.tables.length + parts.relationships.length,
      lines: parts.relationships.length,
    };
  }

  /** Shows the drawing at `scale` CSS pixels per unit from now on (the canvas's zoom). */
  rescale(scale: number): void {
    this.scale = scale;
    if (this.svg !== null) sizeTo(this.svg, this.svg.getAttribute('viewBox') ?? '0 0 1 1', scale);
  }

  /** Builds the parts of an adopted drawing's document (the same routing: the memory is seeded with it). */
  private build(): void {
    const unbuilt = this.unbuilt;
    this.unbuilt = null;
    if (unbuilt !== null) this.parts = this.partsOf(unbuilt.document, unbuilt.title);
  }

  private partsOf(document: Drawable, title: string): DiagramParts {
    return renderDiagramParts(document, { title, routeMemory: this.memory, markupCache: this.markup });
  }
}

/**
 * Applies a layer's plan to the layer's <g>; returns how many parts were parsed, or -1 when the layer on
 * the page is not the one the plan was made for (then the caller draws the whole SVG again).
 */
function patchLayer(svg: SVGSVGElement, className: string, plan: LayerPlan): number {
  const layer = svg.querySelector<SVGGElement>(`:scope > g.${className}`);
  if (layer === null) return plan.steps.length === 0 ? 0 : -1;
  if (plan.redrawn === 0 && plan.removed.length === 0) return 0;
  const existing = Array.from(layer.children);
  const fresh = plan.steps.filter((step) => 'markup' in step);
  const parsed = fresh.length === 0 ? [] : parseParts(fresh.map((step) => step.markup));
  if (parsed === null) return -1;
  let next = 0;
  const children = plan.steps.map((step) => ('keep' in step ? existing[step.keep] : parsed[next++]));
  if (children.some((child) => child === undefined)) return -1;
  for (const at of plan.removed) existing[at]?.remove();
  // In order: each node is put after the one before it, so unchanged runs are not moved at all.
  let previous: Element | null = null;
  for (const child of children as Element[]) {
    const wanted: ChildNode | null = previous === null ? layer.firstChild : previous.nextSibling;
    if (wanted !== child) layer.insertBefore(child, wanted);
    previous = child;
  }
  return fresh.length;
}

/** Parts' markup (one element each) as nodes of the page's document, or null when one is not one element. */
function parseParts(markups: string[]): Element[] | null {
  const parsed = new DOMParser().parseFromString(
    `<svg xmlns="${SVG_NS}">${markups.join('')}</svg>`,
    'image/svg+xml',
  );
  const nodes = Array.from(parsed.documentElement.children);
  if (nodes.length !== markups.length || parsed.querySelector('parsererror') !== null) return null;
  return nodes.map((node) => window.document.importNode(node, true));
}

/**
 * The viewBox's size times the zoom, so the canvas scrolls and one unit is `scale` pixels; the view origin
 * is the viewBox's. Only what changed is set: Chromium lays out every text of the SVG again after any write
 * to the root's size or viewBox, even of the value it had (~27,000 texts and 170 ms on a 300-table diagram).
 */
function sizeTo(svg: SVGSVGElement, viewBox: string, scale: number): void {
  if (svg.getAttribute('viewBox') !== viewBox) svg.setAttribute('viewBox', viewBox);
  const box = svg.viewBox.baseVal;
  setIfChanged(svg, 'width', String(Math.max(box.width * scale, 1)));
  setIfChanged(svg, 'height', String(Math.max(box.height * scale, 1)));
}

function setIfChanged(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** The SVG as a node, parsed as XML (never as HTML), in a document where nothing runs. */
function parseSvg(markup: string): SVGSVGElement {
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml');
  return window.document.importNode(parsed.documentElement, true) as unknown as SVGSVGElement;
}
