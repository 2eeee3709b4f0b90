// The helpers that span several requests: every diagram across pages, waiting for a DDL import, and
// retrying after 429 as Retry-After says. Each needs a stack configured for it.
import { randomUUID } from 'node:crypto';
import { testRedisUrl } from '@dss/platform/testing';
import { Redis } from 'ioredis';
import { createDssClient, DssApiError } from '../src';
import { SHOP_DDL, shopPatch, startTestStack, type TestStack } from './support/test-stack';

describe('DssClient helpers', () => {
  describe('.iterateDiagrams()', () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startTestStack();
    });
    afterAll(async () => {
      await stack.stop();
    });

    it('should yield every diagram once, newest first, following next_cursor across pages', async () => {
      const member = await stack.member({ write: true });
      const requests: string[] = [];
      const client = createDssClient({
        baseUrl: stack.apiUrl,
        token: member.token,
        fetch: (request) => {
          requests.push(new URL(request.url).search);
          return fetch(request);
        },
      });
      const created: string[] = [];
      for (let i = 0; i < 7; i++)
        created.push((await client.createDiagram({ name: `D${i}`, schema: shopPatch(`t${i}_`) })).data.uuid);
      requests.length = 0;

      const seen = [];
      for await (const diagram of client.iterateDiagrams({ pageSize: 3 })) seen.push(diagram);

      expect(seen.map((d) => d.uuid)).toEqual([...created].reverse());
      expect(requests).toHaveLength(3);
      expect(requests[0]).toBe('?limit=3');
      expect(requests[1]).toMatch(/^\?limit=3&cursor=./);
    });

    it('should stop fetching when the loop stops early', async () => {
      const member = await stack.member({ write: true });
      let lists = 0;
      const client = createDssClient({
        baseUrl: stack.apiUrl,
        token: member.token,
        fetch: (request) => {
          if (request.method === 'GET') lists++;
          return fetch(request);
        },
      });
      for (let i = 0; i < 3; i++) await client.createDiagram({ name: `E${i}`, schema: shopPatch(`e${i}_`) });
      for await (const _diagram of client.iterateDiagrams({ pageSize: 1 })) break;
      expect(lists).toBe(1);
    });
  });

  describe('.waitForImport()', () => {
    let stack: TestStack;
    beforeAll(async () => {
      // No importer and no wait: a DDL create answers 202 importing until the test starts the importer.
      stack = await startTestStack({ DSS_IMPORT_WAIT_MS: '0' }, { withoutImporter: true });
    });
    afterAll(async () => {
      await stack.stop();
    });

    it('should poll every poll_after_seconds until the import is ready', async () => {
      const member = await stack.member({ write: true });
      const sleeps: number[] = [];
      const client = createDssClient({ baseUrl: stack.apiUrl, token: member.token });
      const created = await client.createDiagram({ name: 'Later', driver: 'mysql', ddl: SHOP_DDL });
      expect(created.httpStatus).toBe(202);
      expect(created.data.status).toBe('importing');
      await expect(client.getSchema(created.data.uuid)).rejects.toMatchObject({ code: 'diagram_not_ready' });

      const diagram = await client.waitForImport(created, {
        sleep: async (milliseconds) => {
          sleeps.push(milliseconds);
          if (sleeps.length === 1) await stack.system.startImporter();
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
      });

      expect(diagram).toMatchObject({ uuid: created.data.uuid, status: 'ready', table_count: 2 });
      expect(sleeps.length).toBeGreaterThan(0);
      expect(new Set(sleeps)).toEqual(new Set([created.poll_after_seconds * 1000]));
    });

    it('should answer a diagram that is no longer importing after one read', async () => {
      const member = await stack.member({ write: true });
      const client = createDssClient({ baseUrl: stack.apiUrl, token: member.token });
      const created = await client.createDiagram({ name: 'Now', schema: shopPatch() });
      const sleep = jest.fn(async () => undefined);
      expect(await client.waitForImport(created.data.uuid, { sleep })).toMatchObject({ status: 'ready' });
      expect(sleep).not.toHaveBeenCalled();
    });
  });

  describe('retry after 429', () => {
    const prefix = `dss:rl:client-test:${randomUUID()}`;
    let stack: TestStack;
    let redis: Redis;
    beforeAll(async () => {
      // Counters in Redis, so a test can stand in for the minute passing by clearing them.
      stack = await startTestStack({
        REDIS_URL: testRedisUrl(),
        DSS_RATE_LIMIT_KEY_PREFIX: prefix,
        DSS_RATE_LIMIT_READ_PER_MIN: '2',
      });
      redis = new Redis(testRedisUrl());
    });
    afterAll(async () => {
      await clearCounters();
      redis.disconnect();
      await stack.stop();
    });
    async function clearCounters() {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }

    it('should wait Retry-After seconds and send the request again', async () => {
      const member = await stack.member();
      const statuses: number[] = [];
      const retryAfters: number[] = [];
      const sleeps: number[] = [];
      const client = createDssClient({
        baseUrl: stack.apiUrl,
        token: member.token,
        fetch: async (request) => {
          const response = await fetch(request);
          statuses.push(response.status);
          if (response.status === 429) retryAfters.push(Number(response.headers.get('retry-after')));
          return response;
        },
        retry: {
          maxAttempts: 3,
          sleep: async (milliseconds) => {
            sleeps.push(milliseconds);
            await clearCounters(); // the minute is over
          },
        },
      });
      await client.listDataTypes('mysql');
      await client.listDataTypes('mysql');
      const third = await client.listDataTypes('mysql');

      expect(Object.keys(third)).toEqual(['mysql']);
      expect(statuses).toEqual([200, 200, 429, 200]);
      expect(retryAfters).toHaveLength(1);
      expect(retryAfters[0]).toBeGreaterThanOrEqual(1);
      expect(sleeps).toEqual([retryAfters[0]! * 1000]);
    });

    it('should give up after maxAttempts with rate_limited and the Retry-After seconds', async () => {
      const member = await stack.member();
      let attempts = 0;
      const sleeps: number[] = [];
      const client = createDssClient({
        baseUrl: stack.apiUrl,
        token: member.token,
        fetch: (request) => {
          attempts++;
          return fetch(request);
        },
        retry: { maxAttempts: 3, sleep: async (milliseconds) => void sleeps.push(milliseconds) },
      });
      await client.listDiagrams();
      await client.listDiagrams();
      attempts = 0;

      const error = await client.listDiagrams().then(
        () => undefined,
        (caught: unknown) => caught as DssApiError,
      );

      expect(error).toBeInstanceOf(DssApiError);
      expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(error?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(attempts).toBe(3);
      expect(sleeps).toHaveLength(2);
    });

    it('should not wait when Retry-After is longer than maxDelaySeconds', async () => {
      const member = await stack.member();
      const sleep = jest.fn(async () => undefined);
      const client = createDssClient({
        baseUrl: stack.apiUrl,
        token: member.token,
        retry: { maxAttempts: 5, maxDelaySeconds: 0, sleep },
      });
      await client.getSchemaPatchContract();
      await client.getSchemaPatchContract();
      await expect(client.getSchemaPatchContract()).rejects.toMatchObject({ code: 'rate_limited' });
      expect(sleep).not.toHaveBeenCalled();
    });
  });
});
