// The drawing of a diagram's current version for its page (diagram page, embed view). A later view of an
// unchanged version needs neither its full document nor its key: the process remembers, per diagram, the
// ETag of the full document it last drew and that drawing's key, and asks diagrams.GetFullDocument with that
// ETag, which then answers without the body (for the generated 300-table diagram 1.4 MB read from
// PostgreSQL, sent over gRPC, parsed and hashed again on every view). diagrams checks the ETag against the
// caller's team's diagram, and the remembered key names content (drawings.ts), so nothing crosses teams.
import type { DiagramDocument } from '@dss/schema';
import type { WebClients } from './clients';
import { contentKey, type DrawingCache, drawings, titled } from './drawings';
import type { Diagram } from './lookups';
import type { WebPrincipal } from './viewer';

/** What a page draws: the document's driver and its drawing under the page's title. */
export interface PageDrawing {
  driver: string;
  svg(title: string): Promise<string>;
}

/** Diagrams remembered at most (an entry is two short strings and a driver name). */
const REMEMBERED_VERSIONS = 1000;

export class PageDrawings {
  private readonly drawn = new Map<string, { etag: string; key: string; driver: string }>();
  /** Views answered from the remembered ETag without the document's body. */
  unchangedViews = 0;

  constructor(private readonly cache: DrawingCache = drawings) {}

  /** The current version's drawing, or null while the diagram has none (importing, failed). */
  async of(clients: WebClients, principal: WebPrincipal, diagram: Diagram): Promise<PageDrawing | null> {
    if (diagram.status !== 'ready') return null;
    const name = `${principal.team_id}/${diagram.uuid}`;
    const known = this.drawn.get(name);
    let full = await clients.diagrams.GetFullDocument({
      principal,
      uuid: diagram.uuid,
      known_etag: known?.etag ?? '',
    });
    if (full.unchanged && known) {
      const kept = this.cache.keptDrawing(known.key);
      if (kept) {
        this.unchangedViews += 1;
        return { driver: known.driver, svg: async (title) => titled(kept, title) };
      }
      // The drawing left the cache: draw it again from the document.
      full = await clients.diagrams.GetFullDocument({ principal, uuid: diagram.uuid, known_etag: '' });
    }
    const document = (JSON.parse(full.body) as { data: DiagramDocument }).data;
    const key = contentKey(document);
    this.drawn.delete(name);
    this.drawn.set(name, { etag: full.etag, key, driver: document.driver });
    for (const [oldest] of this.drawn) {
      if (this.drawn.size <= REMEMBERED_VERSIONS) break;
      this.drawn.delete(oldest);
    }
    return {
      driver: document.driver,
      svg: (title) => this.cache.svgSoon(document, { title, diagramUuid: diagram.uuid, key }),
    };
  }
}

/** The web app's one. */
export const pageDrawings = new PageDrawings();
