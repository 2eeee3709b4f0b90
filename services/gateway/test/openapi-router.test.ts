import { isServiceError } from '@dss/platform';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { sendError } from '../src/http-errors';
import { loadOpenApiDocument, openApiJson, openApiRouter } from '../src/openapi';

// A bare app with the router mounted the way the gateway mounts it (under /v1, before authentication),
// and the gateway's error writer for the router's 404/405.
function bareApp(): express.Express {
  const app = express();
  app.disable('etag');
  app.use('/v1', openApiRouter());
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (isServiceError(error)) sendError(res, error);
    else next(error);
  });
  return app;
}

describe('openApiRouter()', () => {
  const app = bareApp();

  describe('.loadOpenApiDocument() and .openApiJson()', () => {
    it('should parse the YAML once and serve the same document as JSON', () => {
      const document = loadOpenApiDocument();
      expect(loadOpenApiDocument()).toBe(document);
      expect(Object.isFrozen(document)).toBe(true);
      expect(JSON.parse(openApiJson())).toEqual(document);
      expect((document as { openapi: string }).openapi).toBe('3.1.0');
    });
  });

  describe('GET /openapi.json', () => {
    it('When requested without a token, then it answers the description as JSON with a strong ETag', async () => {
      const response = await request(app).get('/v1/openapi.json');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(response.text).toBe(openApiJson());
      expect(response.body.paths['/diagrams']).toBeDefined();
    });

    it('When If-None-Match carries the current ETag, then it answers 304 with no body', async () => {
      const first = await request(app).get('/v1/openapi.json');
      const second = await request(app).get('/v1/openapi.json').set('If-None-Match', first.headers.etag!);
      expect(second.status).toBe(304);
      expect(second.text).toBe('');
      expect(second.headers.etag).toBe(first.headers.etag);
    });

    it('When If-None-Match carries another ETag, then it answers 200', async () => {
      const response = await request(app).get('/v1/openapi.json').set('If-None-Match', '"stale"');
      expect(response.status).toBe(200);
    });

    it('When another method is used, then it answers 405 request_failed in the error shape', async () => {
      const response = await request(app).post('/v1/openapi.json').send({});
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
      expect(response.body).toEqual({ error: { code: 'request_failed', message: expect.any(String) } });
    });
  });

  describe('GET /docs', () => {
    it('When requested, then it answers an HTML page that loads the local renderer and the local description', async () => {
      const response = await request(app).get('/v1/docs');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('<redoc spec-url="/v1/openapi.json"></redoc>');
      expect(response.text).toContain('<script src="/v1/docs/assets/redoc.standalone.js"></script>');
      expect(response.text).not.toMatch(/https?:\/\//);
    });

    it('When requested, then the page carries a strict Content-Security-Policy', async () => {
      const response = await request(app).get('/v1/docs');
      const policy = response.headers['content-security-policy']!;
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('GET /docs/assets/:file', () => {
    it('When the renderer bundle is requested, then it is served from node_modules as JavaScript', async () => {
      const response = await request(app)
        .get('/v1/docs/assets/redoc.standalone.js')
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => done(null, text));
        });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toMatch(/max-age=86400/);
      expect(String(response.body).length).toBeGreaterThan(100_000);
      expect(String(response.body)).toContain('spec-url');
    });

    it('When any other file is requested, then it answers 404 and serves nothing from disk', async () => {
      for (const file of ['redoc.lib.js', '..%2F..%2Fpackage.json', 'package.json']) {
        const response = await request(app).get(`/v1/docs/assets/${file}`);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('request_failed');
      }
    });
  });
});
