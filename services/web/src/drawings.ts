// The drawings the web app's pages show, kept by content. Drawing a diagram (table boxes, layout of the
// relationships' lines, routing around every table) costs from milliseconds for a few tables to seconds for
// hundreds, and every page view of the same version asks for the same drawing; renderDiagramSvg's output
// depends only on the document and the options (no clocks, no randomness), so a drawing is kept under a
// hash of exactly what it is drawn from. No invalidation is needed: a new version, another highlight or
// another title is other content, and the least recently used drawings leave once the kept ones pass the
// byte budget.
import { createHash } from 'node:crypto';
import { type RenderOptions, renderDiagramSvg } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';

/** What the process keeps at most: a 300-table drawing is about 1.3 MB. */
export const DRAWING_CACHE_BYTES = 64 * 1024 * 1024;

type Drawable = Pick<RenderOptions, 'highlight' | 'title'>;

export class DrawingCache {
  private readonly kept = new Map<string, string>();
  private bytes = 0;

  constructor(
    private readonly budgetBytes = DRAWING_CACHE_BYTES,
    private readonly draw: (document: DiagramDocument, options: Drawable) => string = renderDiagramSvg,
  ) {}

  /** The drawing of `document` with `options`, byte-equal to renderDiagramSvg's. */
  svg(document: DiagramDocument, options: Drawable = {}): string {
    const key = contentKey(document, options);
    const found = this.kept.get(key);
    if (found !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    // renderDiagramSvg sizes the tables of the document it is given: the key was taken before.
    const drawn = this.draw(document, options);
    const size = drawn.length * 2;
    if (size <= this.budgetBytes) {
      this.kept.set(key, drawn);
      this.bytes += size;
      for (const [oldest, svg] of this.kept) {
        if (this.bytes <= this.budgetBytes) break;
        this.kept.delete(oldest);
        this.bytes -= svg.length * 2;
      }
    }
    return drawn;
  }

  /** How many drawings are kept, and their size in bytes (UTF-16). */
  get size(): { drawings: number; bytes: number } {
    return { drawings: this.kept.size, bytes: this.bytes };
  }
}

/** A hash of the document and the options as drawn (a highlight's Maps by their entries). */
function contentKey(document: DiagramDocument, options: Drawable): string {
  const text = JSON.stringify([document, options.title ?? null, options.highlight ?? null], (_key, value) =>
    value instanceof Map ? [...value] : value,
  );
  return createHash('sha256').update(text).digest('base64url');
}

/** The web app's one cache. */
export const drawings = new DrawingCache();

/** renderDiagramSvg through the web app's cache. */
export function drawDiagram(document: DiagramDocument, options: Drawable = {}): string {
  return drawings.svg(document, options);
}
