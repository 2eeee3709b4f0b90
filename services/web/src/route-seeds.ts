// The routing of a version, for the editor page: the editor draws in the browser with the same renderer,
// and routing every line of a large diagram there (cold, before the first drawing shows anything) costs
// seconds; the web app routes a version once, warm, keeps the result by content, and sends it with the page
// as a RouteSeed, so the editor's first drawing keeps every line where the server put it (byte for byte the
// drawing it would have made) and routes only what an offline copy restored on top changed. Kept like the
// drawings: under a hash of the document, least recently used out first, so no invalidation is needed.
import { createHash } from 'node:crypto';
import { RouteMemory, type RouteSeed, renderDiagramParts } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';

/** Seeds kept at most: a 300-table diagram's is about 100 KB. */
export const ROUTE_SEEDS_KEPT = 32;

export class RouteSeeds {
  private readonly kept = new Map<string, RouteSeed>();

  constructor(private readonly limit = ROUTE_SEEDS_KEPT) {}

  /** The routing of `document` as data; the same document is routed once while kept. */
  of(document: DiagramDocument): RouteSeed {
    const key = createHash('sha256').update(JSON.stringify(document)).digest('base64url');
    const found = this.kept.get(key);
    if (found !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    const memory = new RouteMemory();
    renderDiagramParts(document, { routeMemory: memory });
    const seed = memory.export();
    this.kept.set(key, seed);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.limit) break;
      this.kept.delete(oldest);
    }
    return seed;
  }

  /** How many seeds are kept. */
  get size(): number {
    return this.kept.size;
  }
}

/** The web app's seeds. */
export const routeSeeds = new RouteSeeds();
