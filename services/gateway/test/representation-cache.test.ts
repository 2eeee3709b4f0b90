import { RepresentationCache } from '../src/representation-cache';

type Load = (
  knownEtag: string,
) => Promise<{ body: string; etag: string; content_type: string; unchanged: boolean }>;

/** Stands in for the diagrams service: answers `unchanged` when offered the current ETag. */
function serviceHolding(state: { body: string; etag: string }) {
  const offered: string[] = [];
  const load: Load = async (knownEtag) => {
    offered.push(knownEtag);
    const unchanged = knownEtag === state.etag;
    return {
      body: unchanged ? '' : state.body,
      etag: state.etag,
      content_type: 'application/json',
      unchanged,
    };
  };
  return { load, offered };
}

describe('RepresentationCache', () => {
  it('offers the cached ETag and serves the cached body when the service says it is unchanged', async () => {
    const cache = new RepresentationCache();
    const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
    expect((await cache.fetch('k', undefined, service.load)).body).toBe('{"v":1}');
    expect((await cache.fetch('k', undefined, service.load)).body).toBe('{"v":1}');
    expect(service.offered).toEqual(['', '"1"']);
  });

  it('replaces the cached copy when the representation changed', async () => {
    const cache = new RepresentationCache();
    const state = { body: '{"v":1}', etag: '"1"' };
    const service = serviceHolding(state);
    await cache.fetch('k', undefined, service.load);
    Object.assign(state, { body: '{"v":2}', etag: '"2"' });
    expect(await cache.fetch('k', undefined, service.load)).toMatchObject({ body: '{"v":2}', etag: '"2"' });
    expect((await cache.fetch('k', undefined, service.load)).body).toBe('{"v":2}');
  });

  it('offers the client’s own tag when nothing is cached, and returns an empty body for a 304', async () => {
    const cache = new RepresentationCache();
    const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
    const answer = await cache.fetch('k', 'W/"1"', service.load);
    expect(service.offered).toEqual(['"1"']);
    expect(answer).toEqual({ body: '', etag: '"1"', content_type: 'application/json' });
  });

  it('keeps entries apart by key, so one team’s copy is never another’s', async () => {
    const cache = new RepresentationCache();
    await cache.fetch('team-a/d', undefined, serviceHolding({ body: 'A', etag: '"a"' }).load);
    const other = serviceHolding({ body: 'B', etag: '"b"' });
    expect((await cache.fetch('team-b/d', undefined, other.load)).body).toBe('B');
    expect(other.offered).toEqual(['']);
  });

  it('evicts the least recently used copies beyond its size bound', async () => {
    const cache = new RepresentationCache(40);
    for (const key of ['a', 'b', 'c', 'd'])
      await cache.fetch(key, undefined, serviceHolding({ body: '0123456789', etag: `"${key}"` }).load);
    const first = serviceHolding({ body: '0123456789', etag: '"a"' });
    await cache.fetch('a', undefined, first.load);
    expect(first.offered).toEqual(['"a"']);
    const evicted = serviceHolding({ body: '0123456789', etag: '"b"' });
    await cache.fetch('e', undefined, serviceHolding({ body: '0123456789', etag: '"e"' }).load);
    await cache.fetch('b', undefined, evicted.load);
    expect(evicted.offered).toEqual(['']);
  });
});
