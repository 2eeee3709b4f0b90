import { randomUUID } from 'node:crypto';
import { testRedisUrl } from '@dss/platform/testing';
import { echoRoutes, startGatewayHarness } from './gateway-harness';

type Harness = Awaited<ReturnType<typeof startGatewayHarness>>;

describe.each([
  ['memory', {}],
  ['redis', { REDIS_URL: testRedisUrl() }],
])('Gateway rate limits (%s store)', (_store, storeEnv: Record<string, string>) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startGatewayHarness({
      routes: echoRoutes,
      env: {
        ...storeEnv,
        DSS_RATE_LIMIT_KEY_PREFIX: `test:${randomUUID()}`,
        DSS_RATE_LIMIT_IP_PER_MIN: '20',
        DSS_RATE_LIMIT_READ_PER_MIN: '3',
        DSS_RATE_LIMIT_WRITE_PER_MIN: '2',
      },
    });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const call = (
    token: string | undefined,
    method = 'GET',
    headers: Record<string, string> = {},
    body = '{}',
  ) =>
    fetch(`${harness.baseUrl}/v1/echo`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: method === 'POST' ? body : undefined,
    });

  it('carries X-RateLimit-Limit and X-RateLimit-Remaining, then answers 429 rate_limited with Retry-After', async () => {
    const { token } = await harness.token({ team: 'reader', email: 'r@reader.test' });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await call(token);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await call(token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });

  it('keeps a separate limit for writes, shared by every write route, per token', async () => {
    const { token } = await harness.token({ team: 'writer', email: 'w@writer.test', write: true });
    expect((await call(token, 'POST')).headers.get('x-ratelimit-limit')).toBe('2');
    expect((await call(token, 'POST')).status).toBe(201);
    expect((await call(token, 'POST')).status).toBe(429);
    const other = await harness.token({ team: 'writer', email: 'w2@writer.test', write: true });
    expect((await call(other.token, 'POST')).status).toBe(201);
  });

  it('counts only accepted writes: refused ones do not use up the write limit', async () => {
    const { token } = await harness.token({ team: 'retrier', email: 'r@retrier.test', write: true });
    for (let i = 0; i < 4; i++) {
      expect((await call(token, 'POST', {}, '{"reject":true}')).status).toBe(422);
    }
    // The refund lands when the rejected response has finished, a store round trip after the client has
    // the answer; a second leaves that room on a loaded machine (there is no probe that does not count).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await call(token, 'POST')).status).toBe(201);
    expect((await call(token, 'POST')).status).toBe(201);
    expect((await call(token, 'POST')).status).toBe(429);
  });

  it('applies the per-IP limit before authentication, and X-Forwarded-For does not get around it', async () => {
    let status = 0;
    let attempts = 0;
    while (status !== 429 && attempts < 30) {
      attempts++;
      status = (await call(undefined, 'GET', { 'x-forwarded-for': `10.0.0.${attempts}` })).status;
    }
    expect(status).toBe(429);
    expect(attempts).toBeLessThanOrEqual(20 + 1);
    const limited = await call(undefined);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});

describe('Gateway per-IP limit behind a trusted proxy (DSS_TRUST_PROXY=loopback)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startGatewayHarness({
      routes: echoRoutes,
      env: {
        DSS_RATE_LIMIT_KEY_PREFIX: `test:${randomUUID()}`,
        DSS_RATE_LIMIT_IP_PER_MIN: '2',
        DSS_TRUST_PROXY: 'loopback',
      },
    });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const callFrom = (address: string) =>
    fetch(`${harness.baseUrl}/v1/echo`, { headers: { 'x-forwarded-for': address } });

  it('counts each forwarded client address on its own (an ingress or the MCP server in front)', async () => {
    expect((await callFrom('203.0.113.1')).status).not.toBe(429);
    expect((await callFrom('203.0.113.1')).status).not.toBe(429);
    expect((await callFrom('203.0.113.1')).status).toBe(429);
    expect((await callFrom('203.0.113.2')).status).not.toBe(429);
  });
});
