// Answers go compressed to clients that accept it (brotli before gzip): a large page arrives compressed and
// decompresses to exactly the page; small answers, clients that accept neither, other types and event
// streams are left as they are; caches are told the answer varies by Accept-Encoding.
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { COMPRESS_MIN_BYTES, compressAnswers } from '../src/compression';

const PAGE = `<!doctype html><p>${'<g class="dss-table" data-table="t">table</g>'.repeat(2000)}</p>`;

/** The raw answer (no decompression) to GET `path` with the given Accept-Encoding. */
function get(server: Server, path: string, acceptEncoding?: string) {
  const { port } = server.address() as AddressInfo;
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const call = request(
      { host: '127.0.0.1', port, path, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    call.on('error', reject);
    call.end();
  });
}

describe('compressAnswers', () => {
  let server: Server;

  beforeAll(async () => {
    const app = express();
    app.use(compressAnswers());
    app.get('/page', (_req, res) => {
      res.send(PAGE);
    });
    app.get('/small', (_req, res) => {
      res.send('<p>small</p>');
    });
    app.get('/json', (_req, res) => {
      res.json({ tables: PAGE });
    });
    app.get('/png', (_req, res) => {
      res.type('image/png').send(Buffer.alloc(COMPRESS_MIN_BYTES * 2));
    });
    app.get('/events', (_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.write(`data: ${'x'.repeat(COMPRESS_MIN_BYTES * 2)}\n\n`);
      res.end();
    });
    server = createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });

  it('sends a large page compressed (brotli when accepted, else gzip), decompressing to exactly the page', async () => {
    for (const [acceptEncoding, coding, decompress] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const answer = await get(server, '/page', acceptEncoding);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(answer.body.length).toBeLessThan(Buffer.byteLength(PAGE) / 10);
      expect(decompress(answer.body).toString('utf8')).toBe(PAGE);
    }
  });

  it('compresses JSON answers too', async () => {
    const answer = await get(server, '/json', 'gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(gunzipSync(answer.body).toString('utf8'))).toEqual({ tables: PAGE });
  });

  it('sends the page as it is to a client that accepts no compression, still saying it varies', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0, identity']) {
      const answer = await get(server, '/page', acceptEncoding);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(answer.body.toString('utf8')).toBe(PAGE);
    }
  });

  it('leaves small answers, other types and event streams as they are', async () => {
    for (const path of ['/small', '/png', '/events']) {
      const answer = await get(server, path, 'gzip');
      expect(answer.headers['content-encoding']).toBeUndefined();
    }
    expect((await get(server, '/small', 'gzip')).body.toString('utf8')).toBe('<p>small</p>');
  });
});
