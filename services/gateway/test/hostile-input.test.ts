// Input a client can send that the services must never see: bad percent-escapes in ids, bodies nested
// thousands deep, text PostgreSQL cannot store. Each gets a 4xx in the spec's shape, never a 5xx.
import net from 'node:net';
import { ServiceError } from '@dss/platform';
import type { RouteSpec } from '../src/app';
import { echoRoutes, startGatewayHarness } from './gateway-harness';

type Harness = Awaited<ReturnType<typeof startGatewayHarness>>;

const routes: RouteSpec[] = [
  ...echoRoutes,
  {
    method: 'get',
    path: '/down',
    operation: 'read',
    write: false,
    handler: async () => {
      throw new ServiceError(
        'unavailable',
        'dss.v1.Diagrams/GetDiagram unavailable: No connection established',
      );
    },
  },
  {
    method: 'get',
    path: '/things/:uuid',
    operation: 'read',
    write: false,
    handler: async (req, res) => {
      res.json({ data: { uuid: req.params.uuid } });
    },
  },
];

describe('Gateway against hostile but plausible input', () => {
  let harness: Harness;
  let token: string;
  beforeAll(async () => {
    harness = await startGatewayHarness({
      routes,
      env: {
        DSS_RATE_LIMIT_IP_PER_MIN: '10000',
        DSS_RATE_LIMIT_WRITE_PER_MIN: '1000',
        DSS_RATE_LIMIT_READ_PER_MIN: '1000',
      },
    });
    ({ token } = await harness.token({ team: 'hostile', email: 'h@hostile.test', write: true }));
  });
  afterAll(async () => {
    await harness.stop();
  });

  const post = (body: string) =>
    fetch(`${harness.baseUrl}/v1/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: string; message: string; errors?: { path: string }[] } })
      .error;

  it('answers 404 not_found for a bad percent-escape in an id', async () => {
    for (const id of ['%ZZ', '%', '%E0%A4%A']) {
      const response = await fetch(`${harness.baseUrl}/v1/things/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('not_found');
    }
  });

  it('refuses a body nested deeper than the limit with 422 naming the limit, before any recursive work', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await post(`{"schema": ${deep}}`);
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/deeper than 64 levels/);
    // 60 levels is fine.
    expect((await post(`{"a": ${'['.repeat(60)}${']'.repeat(60)}}`)).status).toBe(201);
  });

  it('refuses a NUL character or an unpaired surrogate anywhere in the text, naming the field', async () => {
    const nul = await post(JSON.stringify({ schema: { tables: [{ name: 'a\u0000b' }] } }));
    expect(nul.status).toBe(422);
    const nulError = await errorOf(nul);
    expect(nulError.code).toBe('invalid_request');
    expect(nulError.errors).toEqual([
      { path: 'schema.tables[0].name', message: expect.stringMatching(/NUL/) },
    ]);
    const surrogate = await post('{"title": "x\\ud800y"}');
    expect(surrogate.status).toBe(422);
    expect((await errorOf(surrogate)).errors?.[0]?.path).toBe('title');
    const key = await post('{"a\\u0000": 1}');
    expect(key.status).toBe(422);
    // A well-formed pair (an emoji) is text like any other.
    expect((await post(JSON.stringify({ title: 'ok 😀' }))).status).toBe(201);
  });

  it('answers 503 unavailable with Retry-After when a service it needs is down, naming no internals', async () => {
    const response = await fetch(`${harness.baseUrl}/v1/down`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const error = await errorOf(response);
    expect(error.code).toBe('unavailable');
    expect(error.message).not.toMatch(/Diagrams|GetDiagram|connection/i);
  });

  it('marks every API answer no-store and nosniff', async () => {
    for (const response of [
      await fetch(`${harness.baseUrl}/v1/echo`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${harness.baseUrl}/v1/echo`),
      await post('{}'),
    ]) {
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  /** Raw bytes to the gateway (fetch refuses to send these); the status line and body that come back. */
  const raw = (request: string) =>
    new Promise<{ status: number; contentType: string; body: string }>((resolve, reject) => {
      const socket = net.connect(Number(new URL(harness.baseUrl).port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const final = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
        const [head = '', body = ''] = final.split('\r\n\r\n');
        const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
        if (!status) reject(new Error(`no answer: ${JSON.stringify(received)}`));
        resolve({ status, contentType: /content-type: ([^\r]*)/i.exec(head)?.[1] ?? '', body });
      });
      socket.write(request);
    });

  it('answers what the HTTP parser refuses with the error shape, not a bare status line', async () => {
    const host = 'Host: x\r\nConnection: close\r\n';
    const badChunk = await raw(
      `POST /v1/echo HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\nx\r\n0\r\n\r\n`,
    );
    expect(badChunk.status).toBe(400);
    expect(badChunk.contentType).toMatch(/^application\/json/);
    // A POST whose body cannot be read sent no JSON object: the spec's 400 for that is invalid_request.
    expect(JSON.parse(badChunk.body).error.code).toBe('invalid_request');
    const afterContinue = await raw(
      `POST /v1/echo HTTP/1.1\r\n${host}Expect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    );
    expect(afterContinue.status).toBe(400);
    const hugeHeader = await raw(`GET /v1/echo HTTP/1.1\r\n${host}X-Long: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(hugeHeader.status).toBe(431);
    expect(JSON.parse(hugeHeader.body).error.code).toBe('request_failed');
    const nulInHeader = await raw(`GET /v1/echo HTTP/1.1\r\n${host}X-Nul: a\u0000b\r\n\r\n`);
    expect(nulInHeader.status).toBe(400);
    expect(JSON.parse(nulInHeader.body).error.code).toBe('request_failed');
    const expectation = await raw(`GET /v1/echo HTTP/1.1\r\n${host}Expect: nonsense\r\n\r\n`);
    expect(expectation.status).toBe(417);
    expect(JSON.parse(expectation.body).error).toMatchObject({ code: 'request_failed' });
  });

  it('answers a body that does not follow its Content-Encoding with 400 invalid_request, not 500', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await fetch(`${harness.baseUrl}/v1/echo`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: '{"name": "not compressed"}',
      });
      expect({ encoding, status: response.status }).toEqual({ encoding, status: 400 });
      expect((await errorOf(response)).code).toBe('invalid_request');
    }
  });

  it('does not read a body sent with a GET (only a POST has one here)', async () => {
    const withBody = await raw(
      `GET /v1/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 9\r\n\r\nnot json!',
    );
    expect(withBody.status).toBe(200);
  });
});
