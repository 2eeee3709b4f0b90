// Copies of the large representations (schema JSON and Markdown, full documents) the gateway has
// already served, so a repeat read moves only an ETag between the gateway and the diagrams service.
// Every request still asks the service for the current ETag (which also checks visibility), so the
// cache can never serve stale or foreign bytes; it only saves moving and re-reading unchanged ones.
import type { Representation } from './representation';

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

interface Answer extends Representation {
  unchanged: boolean;
}

export class RepresentationCache {
  private readonly entries = new Map<string, Representation>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_CACHE_BYTES) {}

  /**
   * Fetches a representation, offering the service the ETag already held (the cached copy's, else the
   * client's single If-None-Match tag) so that an unchanged body is not sent again.
   */
  async fetch(
    key: string,
    ifNoneMatch: string | undefined,
    load: (knownEtag: string) => Promise<Answer>,
  ): Promise<Representation> {
    const cached = this.entries.get(key);
    const answer = await load(cached?.etag ?? singleTag(ifNoneMatch) ?? '');
    if (answer.unchanged) {
      if (cached && cached.etag === answer.etag) {
        this.touch(key, cached);
        return cached;
      }
      // The ETag offered was the client's own: its copy is current, and the caller answers 304.
      return { body: '', etag: answer.etag, content_type: answer.content_type };
    }
    const fresh = { body: answer.body, etag: answer.etag, content_type: answer.content_type };
    this.store(key, fresh);
    return fresh;
  }

  private touch(key: string, entry: Representation): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private store(key: string, entry: Representation): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.body.length;
      this.entries.delete(key);
    }
    if (entry.body.length > this.maxBytes / 4) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.body.length;
    }
  }
}

/** The one strong tag of an If-None-Match header, if it holds exactly one (a weak W/ prefix is dropped). */
function singleTag(header: string | undefined): string | undefined {
  const value = header?.trim().replace(/^W\//, '');
  return value && /^"[^"]*"$/.test(value) ? value : undefined;
}
