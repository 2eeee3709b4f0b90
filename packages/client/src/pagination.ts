// Walks GET /diagrams page by page: each page's `meta.next_cursor` is passed back as `cursor` until
// `has_more` is false. Pages are fetched lazily, so a caller that stops early fetches no more.
import type { Diagram, DiagramPage } from './types';

export async function* iterateDiagrams(
  listPage: (query: { limit?: number; cursor?: string }) => Promise<DiagramPage>,
  pageSize?: number,
): AsyncGenerator<Diagram, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await listPage({ ...(pageSize ? { limit: pageSize } : {}), ...(cursor ? { cursor } : {}) });
    yield* page.data;
    if (!page.meta.has_more || !page.meta.next_cursor) return;
    cursor = page.meta.next_cursor;
  }
}
