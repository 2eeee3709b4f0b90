// The drawing of a diagram's current version for its page (diagram page, embed view). A later view of an
// unchanged version needs neither its full document nor its key: the process remembers, per diagram, the
// ETag of the full document it last drew and that drawing's key, and asks diagrams.GetFullDocument with that
// ETag, which then answers without the body (for the generated 300-table diagram 1.4 MB read from
// PostgreSQL, sent over gRPC, parsed and hashed again on every view). diagrams checks the ETag against the
// caller's team's diagram, and the remembered key names content (drawings.ts), so nothing crosses teams.
// The editor page, which needs the document itself, still skips hashing it for an ETag seen before.
import type { DiagramDocument } from '@dss/schema';
import type { WebClients } from './clients';
import {
  contentKey,
  documentOfBody,
  type DrawingCache,
  drawings,
  pageKey,
  titled,
  type UntitledDrawing,
} from './drawings';
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
  /** Per diagram: the ETag last read, its content key, the read-only views' key (pageKey) and the driver. */
  private readonly drawn = new Map<string, { etag: string; key: string; page: string; driver: string }>();
  /** Views answered from the remembered ETag without the document's body. */
  unchangedViews = 0;
  /** Documents read whose content key came from the remembered ETag (withDocument). */
  keysRemembered = 0;

  constructor(private readonly cache: DrawingCache = drawings) {}

  /** The current version's drawing, or null while the diagram has none (importing, failed). */
  async of(
    clients: WebClients,
    principal: WebPrincipal,
    diagram: Diagram,
    copies = true,
  ): Promise<PageDrawing | null> {
    if (diagram.status !== 'ready') return null;
    const name = `${principal.team_id}/${diagram.uuid}`;
    const known = this.drawn.get(name);
    let full = await clients.diagrams.GetFullDocument({
      principal,
      uuid: diagram.uuid,
      known_etag: known?.etag ?? '',
    });
    if (full.unchanged && known) {
      const kept = this.cache.keptDrawing(copies ? known.page : known.key);
      if (kept) {
        this.unchangedViews += 1;
        return { driver: known.driver, svg: async (title) => titled(kept, title) };
      }
      // The drawing left the cache: draw it again from the document.
      full = await clients.diagrams.GetFullDocument({ principal, uuid: diagram.uuid, known_etag: '' });
    }
    const document = documentOfBody(full.body);
    const { key, page } = this.remember(name, full.etag, document);
    // The read-only views: busy tables drawn again beside the tables that reference them (drawings.ts),
    // unless the person asked for every table once.
    return {
      driver: document.driver,
      svg: (title) =>
        this.cache.svgSoon(document, { title, diagramUuid: diagram.uuid, key: copies ? page : key, copies }),
    };
  }

  /**
   * The current version's full document and its drawing, for a page that needs both (the editor's), or null
   * while the diagram has none. The document is always read; the content key of an ETag seen before is not
   * computed again (a hash of 1.4 MB for the generated 300-table diagram).
   */
  async withDocument(
    clients: WebClients,
    principal: WebPrincipal,
    diagram: Diagram,
  ): Promise<{ document: DiagramDocument; drawing(): Promise<UntitledDrawing> } | null> {
    if (diagram.status !== 'ready') return null;
    const full = await clients.diagrams.GetFullDocument({ principal, uuid: diagram.uuid, known_etag: '' });
    const document = documentOfBody(full.body);
    const { key } = this.remember(`${principal.team_id}/${diagram.uuid}`, full.etag, document);
    return { document, drawing: () => this.cache.drawingSoon(document, { diagramUuid: diagram.uuid, key }) };
  }

  /** Remembers the ETag and keys of the document last read for `name`; answers the keys. */
  private remember(name: string, etag: string, document: DiagramDocument): { key: string; page: string } {
    const known = this.drawn.get(name);
    const remembered = known !== undefined && known.etag === etag;
    if (remembered) this.keysRemembered += 1;
    const key = remembered ? known.key : contentKey(document);
    const page = remembered ? known.page : pageKey(key, document);
    this.drawn.delete(name);
    this.drawn.set(name, { etag, key, page, driver: document.driver });
    for (const [oldest] of this.drawn) {
      if (this.drawn.size <= REMEMBERED_VERSIONS) break;
      this.drawn.delete(oldest);
    }
    return { key, page };
  }
}

/** The web app's one. */
export const pageDrawings = new PageDrawings();
