import { RepresentationCache, type ServiceAnswer } from '../src/representation-cache';

/** Stands in for the diagrams service: answers `unchanged` when offered the current ETag. */
function serviceHolding(state: { body: string; etag: string }) {
  const offered: string[] = [];
  const load = async (knownEtag: string): Promise<ServiceAnswer> => {
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

/**
 * A service that reads the state when called and answers when the test releases it, to interleave
 * requests, changes and events.
 */
function heldService(state: { body: string; etag: string }) {
  const calls: { knownEtag: string; release: () => void }[] = [];
  const load = (knownEtag: string) =>
    new Promise<ServiceAnswer>((resolve) => {
      const { body, etag } = state;
      const unchanged = knownEtag === etag;
      calls.push({
        knownEtag,
        release: () =>
          resolve({ body: unchanged ? '' : body, etag, content_type: 'application/json', unchanged }),
      });
    });
  return { load, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RepresentationCache', () => {
  describe('.fetch() without proofs', () => {
    it('should offer the cached ETag and serve the cached bytes when the service says unchanged', async () => {
      const cache = new RepresentationCache();
      const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
      expect((await cache.fetch('k', 'd', undefined, service.load)).body.toString()).toBe('{"v":1}');
      expect((await cache.fetch('k', 'd', undefined, service.load)).body.toString()).toBe('{"v":1}');
      expect(service.offered).toEqual(['', '"1"']);
    });

    it('should replace the cached copy when the representation changed', async () => {
      const cache = new RepresentationCache();
      const state = { body: '{"v":1}', etag: '"1"' };
      const service = serviceHolding(state);
      await cache.fetch('k', 'd', undefined, service.load);
      Object.assign(state, { body: '{"v":2}', etag: '"2"' });
      const changed = await cache.fetch('k', 'd', undefined, service.load);
      expect([changed.body.toString(), changed.etag]).toEqual(['{"v":2}', '"2"']);
      expect((await cache.fetch('k', 'd', undefined, service.load)).body.toString()).toBe('{"v":2}');
    });

    it('should offer the client’s own tag when nothing is cached, and return no bytes for the 304', async () => {
      const cache = new RepresentationCache();
      const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
      const answer = await cache.fetch('k', 'd', 'W/"1"', service.load);
      expect(service.offered).toEqual(['"1"']);
      expect([answer.body.length, answer.etag]).toEqual([0, '"1"']);
    });

    it('should fetch the bytes for a request without If-None-Match after only a client’s tag was confirmed', async () => {
      const cache = new RepresentationCache();
      const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
      await cache.fetch('k', 'd', '"1"', service.load);
      expect((await cache.fetch('k', 'd', undefined, service.load)).body.toString()).toBe('{"v":1}');
      expect(service.offered).toEqual(['"1"', '']);
    });

    it('should keep entries apart by key, so one team’s copy is never another’s', async () => {
      const cache = new RepresentationCache();
      await cache.fetch('team-a/d', 'd', undefined, serviceHolding({ body: 'A', etag: '"a"' }).load);
      const other = serviceHolding({ body: 'B', etag: '"b"' });
      expect((await cache.fetch('team-b/d', 'd', undefined, other.load)).body.toString()).toBe('B');
      expect(other.offered).toEqual(['']);
    });

    it('should evict the least recently used copies beyond its size bound', async () => {
      // Each entry costs its 10 bytes plus 256 of bookkeeping: four fit in 1,100 bytes, five do not.
      const cache = new RepresentationCache({ maxBytes: 1100 });
      for (const key of ['a', 'b', 'c', 'd'])
        await cache.fetch(key, key, undefined, serviceHolding({ body: '0123456789', etag: `"${key}"` }).load);
      const first = serviceHolding({ body: '0123456789', etag: '"a"' });
      await cache.fetch('a', 'a', undefined, first.load);
      expect(first.offered).toEqual(['"a"']);
      await cache.fetch('e', 'e', undefined, serviceHolding({ body: '0123456789', etag: '"e"' }).load);
      const evicted = serviceHolding({ body: '0123456789', etag: '"b"' });
      await cache.fetch('b', 'b', undefined, evicted.load);
      expect(evicted.offered).toEqual(['']);
    });

    it('should ask the service on every conditional request when proofs are off', async () => {
      const cache = new RepresentationCache({ proofMs: 0, eventsFlowing: () => true });
      const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
      await cache.fetch('k', 'd', undefined, service.load);
      await cache.fetch('k', 'd', '"1"', service.load);
      await cache.fetch('k', 'd', '"1"', service.load);
      expect(service.offered).toEqual(['', '"1"', '"1"']);
    });
  });

  describe('.fetch() with proofs', () => {
    let provenAnswers = 0;
    function provingCache(options: { flowing?: () => boolean; now?: () => number } = {}) {
      provenAnswers = 0;
      return new RepresentationCache({
        proofMs: 5000,
        eventsFlowing: options.flowing ?? (() => true),
        now: options.now,
        onProvenAnswer: () => provenAnswers++,
      });
    }

    it('should answer a matching If-None-Match without asking once the service confirmed the ETag', async () => {
      const cache = provingCache();
      const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
      await cache.fetch('k', 'd', undefined, service.load);
      const answer = await cache.fetch('k', 'd', '"1"', service.load);
      expect([answer.body.length, answer.etag]).toEqual([0, '"1"']);
      expect(service.offered).toEqual(['']);
      expect(provenAnswers).toBe(1);
    });

    it('should still ask for every request that needs the bytes (never a 200 on the cache’s word)', async () => {
      const cache = provingCache();
      const service = serviceHolding({ body: '{"v":1}', etag: '"1"' });
      await cache.fetch('k', 'd', undefined, service.load);
      await cache.fetch('k', 'd', undefined, service.load);
      await cache.fetch('k', 'd', '"other"', service.load);
      expect(service.offered).toEqual(['', '"1"', '"1"']);
    });

    it('should ask again after an event about the diagram, and then serve the new ETag', async () => {
      const cache = provingCache();
      const state = { body: '{"v":1}', etag: '"1"' };
      const service = serviceHolding(state);
      await cache.fetch('k', 'd', undefined, service.load);
      Object.assign(state, { body: '{"v":2}', etag: '"2"' });
      cache.diagramChanged('d');
      const answer = await cache.fetch('k', 'd', '"1"', service.load);
      expect([answer.body.toString(), answer.etag]).toEqual(['{"v":2}', '"2"']);
    });

    it('should drop the proofs of every team’s copies of the diagram, and only of that diagram', async () => {
      const cache = provingCache();
      const service = serviceHolding({ body: 'x', etag: '"x"' });
      for (const key of ['a/d', 'b/d', 'a/e']) await cache.fetch(key, key.slice(2), undefined, service.load);
      cache.diagramChanged('d');
      for (const key of ['a/d', 'b/d', 'a/e']) await cache.fetch(key, key.slice(2), '"x"', service.load);
      expect(service.offered.slice(3)).toEqual(['"x"', '"x"']);
    });

    it('should not prove an ETag with a check that was under way when the diagram’s event arrived', async () => {
      const cache = provingCache();
      const state = { body: '{"v":1}', etag: '"1"' };
      const service = heldService(state);
      const first = cache.fetch('k', 'd', undefined, service.load);
      await settle();
      // The service read version 1; the change commits and its event arrives before the answer does.
      cache.diagramChanged('d');
      service.calls[0]!.release();
      await first;
      Object.assign(state, { body: '{"v":2}', etag: '"2"' });
      const second = cache.fetch('k', 'd', '"1"', service.load);
      await settle();
      expect(service.calls).toHaveLength(2);
      service.calls[1]!.release();
      expect((await second).etag).toBe('"2"');
    });

    it('should prove nothing while events do not flow, nor after the bus was down', async () => {
      let flowing = false;
      const cache = provingCache({ flowing: () => flowing });
      const service = serviceHolding({ body: 'x', etag: '"x"' });
      await cache.fetch('k', 'd', undefined, service.load);
      await cache.fetch('k', 'd', '"x"', service.load);
      expect(service.offered).toHaveLength(2);
      flowing = true;
      await cache.fetch('k', 'd', '"x"', service.load);
      expect(service.offered).toHaveLength(2);
      cache.forgetProofs();
      await cache.fetch('k', 'd', '"x"', service.load);
      expect(service.offered).toHaveLength(3);
    });

    it('should ask again once the proof is older than proofMs, even without an event (events lost)', async () => {
      let now = 1_000_000;
      const cache = provingCache({ now: () => now });
      const service = serviceHolding({ body: 'x', etag: '"x"' });
      await cache.fetch('k', 'd', undefined, service.load);
      now += 4999;
      await cache.fetch('k', 'd', '"x"', service.load);
      expect(service.offered).toHaveLength(1);
      now += 1;
      await cache.fetch('k', 'd', '"x"', service.load);
      expect(service.offered).toHaveLength(2);
    });

    it('should prove a client’s own tag for the next 304s, keyed by team', async () => {
      const cache = provingCache();
      const service = serviceHolding({ body: 'x', etag: '"x"' });
      await cache.fetch('team-a/d', 'd', '"x"', service.load);
      await cache.fetch('team-a/d', 'd', '"x"', service.load);
      await cache.fetch('team-b/d', 'd', '"x"', service.load);
      expect(service.offered).toEqual(['"x"', '"x"']);
    });
  });

  describe('.fetch() under concurrency', () => {
    it('should make requests that arrive during a check share the next check, never the running one', async () => {
      const cache = new RepresentationCache();
      const state = { body: '{"v":1}', etag: '"1"' };
      const service = heldService(state);
      const early = cache.fetch('k', 'd', undefined, service.load);
      await settle();
      // The diagram changes while the first check runs; later requests must see the change.
      Object.assign(state, { body: '{"v":2}', etag: '"2"' });
      const late = [1, 2, 3].map(() => cache.fetch('k', 'd', undefined, service.load));
      service.calls[0]!.release();
      expect((await early).etag).toBe('"1"');
      await settle();
      expect(service.calls).toHaveLength(2);
      service.calls[1]!.release();
      for (const answer of await Promise.all(late)) expect(answer.body.toString()).toBe('{"v":2}');
    });

    it('should give every sharer the failure of a failed check, and check afresh afterwards', async () => {
      const cache = new RepresentationCache();
      let fail = true;
      const load = async (): Promise<ServiceAnswer> => {
        if (fail) throw new Error('unavailable');
        return { body: 'x', etag: '"x"', content_type: 'application/json', unchanged: false };
      };
      const results = await Promise.allSettled([1, 2].map(() => cache.fetch('k', 'd', undefined, load)));
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      fail = false;
      expect((await cache.fetch('k', 'd', undefined, load)).etag).toBe('"x"');
    });
  });
});
