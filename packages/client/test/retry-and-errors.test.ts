// The parts that need no embedded stack: how 429s are retried (against a fake API that answers them) and how
// any answer becomes a DssApiError.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDssClient, DssApiError } from '../src';
import { errorFromResponse, parseRetryAfter } from '../src/errors';
import { fetchRetryingRateLimits } from '../src/retry';

const rateLimited = (headers: Record<string, string> = { 'retry-after': '2' }) =>
  new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }), {
    status: 429,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('fetchRetryingRateLimits()', () => {
  it('should send a POST body again on every attempt', async () => {
    const bodies: string[] = [];
    const answers = [rateLimited(), rateLimited(), new Response('{}', { status: 201 })];
    const send = fetchRetryingRateLimits(
      async (request) => {
        bodies.push(await request.text());
        return answers.shift()!;
      },
      { sleep: async () => undefined },
    );
    const response = await send(
      new Request('http://api.test/v1/diagrams', { method: 'POST', body: '{"a":1}' }),
    );
    expect(response.status).toBe(201);
    expect(bodies).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
  });

  it('should wait one second when a 429 has no Retry-After', async () => {
    const waits: number[] = [];
    const answers = [rateLimited({}), new Response('{}')];
    const send = fetchRetryingRateLimits(async () => answers.shift()!, {
      sleep: async (milliseconds) => void waits.push(milliseconds),
    });
    expect((await send(new Request('http://api.test/v1/diagrams'))).status).toBe(200);
    expect(waits).toEqual([1000]);
  });

  it('should not retry other statuses', async () => {
    let attempts = 0;
    const send = fetchRetryingRateLimits(async () => {
      attempts++;
      return new Response('{}', { status: 503 });
    });
    expect((await send(new Request('http://api.test/v1/diagrams'))).status).toBe(503);
    expect(attempts).toBe(1);
  });

  it('should send once when maxAttempts is 1', async () => {
    let attempts = 0;
    const send = fetchRetryingRateLimits(
      async () => {
        attempts++;
        return rateLimited();
      },
      { maxAttempts: 1, sleep: async () => undefined },
    );
    expect((await send(new Request('http://api.test/v1/diagrams'))).status).toBe(429);
    expect(attempts).toBe(1);
  });
});

describe('createDssClient() retrying 429', () => {
  let server: Server;
  let baseUrl: string;
  /** The Retry-After of each 429 the fake API answers before it answers 200. */
  let retryAfters: string[];
  let requests: number;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      const retryAfter = retryAfters.shift();
      if (retryAfter === undefined) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"object"}');
        return;
      }
      response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter })
        .end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = 0;
  });

  it('should wait exactly the Retry-After seconds of each 429 before sending again', async () => {
    retryAfters = ['2', '5'];
    const waits: number[] = [];
    const client = createDssClient({
      baseUrl,
      token: 't',
      retry: { sleep: async (milliseconds) => void waits.push(milliseconds) },
    });
    expect(await client.getSchemaPatchContract()).toEqual({ type: 'object' });
    expect(waits).toEqual([2000, 5000]);
    expect(requests).toBe(3);
  });

  it('should throw rate_limited with the Retry-After seconds after the last attempt', async () => {
    retryAfters = ['2', '2', '2'];
    const waits: number[] = [];
    const client = createDssClient({
      baseUrl,
      token: 't',
      retry: { maxAttempts: 3, sleep: async (milliseconds) => void waits.push(milliseconds) },
    });
    await expect(client.getSchemaPatchContract()).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 2,
    });
    expect(waits).toEqual([2000, 2000]);
    expect(requests).toBe(3);
  });
});

describe('parseRetryAfter()', () => {
  it('should read delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('17')).toBe(17);
    expect(parseRetryAfter(new Date(Date.now() + 5_000).toUTCString())).toBeGreaterThanOrEqual(4);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('errorFromResponse()', () => {
  it('should keep the code, message and every extra member of the error', () => {
    const detail = {
      code: 'plan_limit',
      message: 'too many',
      limit_type: 'tables',
      limit: 10,
      requested: 12,
      hint: 'x',
    };
    const error = errorFromResponse(new Response(null, { status: 422 }), { error: detail });
    expect(error).toBeInstanceOf(DssApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'plan_limit',
      message: 'too many',
      limit_type: 'tables',
      limit: 10,
      requested: 12,
    });
    expect(error.detail.hint).toBe('x');
  });

  it('should answer unexpected_response for a body without the error shape', () => {
    const error = errorFromResponse(new Response(null, { status: 502 }), '<html>Bad gateway</html>');
    expect(error).toMatchObject({ status: 502, code: 'unexpected_response' });
    expect(error.message).toContain('Bad gateway');
  });
});
