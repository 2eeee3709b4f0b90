// The OpenAPI 3.1 description of the REST API (openapi/openapi.yaml, one level above both src/ and dist/)
// and the public router that serves it: GET /openapi.json and a rendered GET /docs page. The renderer is
// Redoc's standalone bundle, served by the same router from dist/assets/ (copied there from the redoc package
// at build time by scripts/copy-assets.js, so the runtime needs neither redoc nor its React dependency tree),
// so nothing is fetched from elsewhere at run time and the page can carry a strict Content-Security-Policy.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ifNoneMatchMatches, strongEtag } from '@dss/platform';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { parse } from 'yaml';
import { HttpError } from './http-errors';

/** Where the description lives; the same relative path holds from src/ (tests, ts-node) and from dist/. */
export const OPENAPI_FILE = path.join(__dirname, '..', 'openapi', 'openapi.yaml');

/** Where the build puts the docs page's files; the same relative path holds from src/ and from dist/. */
export const DOCS_ASSETS_DIR = path.join(__dirname, '..', 'dist', 'assets');

/** The renderer files /docs/assets/<file> may serve, by file name. Nothing else is reachable. */
const DOCS_ASSETS: Readonly<Record<string, { contentType: string }>> = {
  'redoc.standalone.js': { contentType: 'text/javascript; charset=utf-8' },
};

/**
 * The docs page only loads its own script and the JSON description. Redoc's styled components inject
 * <style> elements (hence 'unsafe-inline' for styles only) and its search index runs in a blob: worker.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface LoadedDescription {
  document: object;
  json: string;
  etag: string;
}

let loaded: LoadedDescription | undefined;

function description(): LoadedDescription {
  if (!loaded) {
    const document = deepFreeze(withCommonResponses(parse(readFileSync(OPENAPI_FILE, 'utf8'))));
    const json = JSON.stringify(document);
    loaded = { document, json, etag: strongEtag(json) };
  }
  return loaded;
}

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const REQUEST_ID_HEADER = { $ref: '#/components/headers/X-Request-Id' };

/**
 * What every response of the API has in common, added to the file's description once at load rather than
 * written out beside each of its responses: the `X-Request-Id` header (sent on every response, success or
 * error) and the `5XX` answers (`internal` 500 for a failure of ours, `unavailable` 503 with `Retry-After`
 * while a dependency is down), both in the spec's error shape.
 */
export function withCommonResponses(parsed: unknown): object {
  const document = parsed as Json;
  const components = member(document, 'components');
  const headers = member(components, 'headers');
  headers['X-Request-Id'] ??= {
    description:
      'Identifies this request in the service logs and traces: the `X-Request-Id` the client sent (1-128 ' +
      'characters of letters, digits and `._:-`), else a new UUID. Quote it when reporting a problem.',
    schema: { type: 'string' },
  };
  const responses = member(components, 'responses');
  responses.ServerError ??= {
    description:
      '`internal` (500): the server failed; retry later and quote `X-Request-Id`. `unavailable` (503): a ' +
      'service the request needs is briefly down; retry after `Retry-After` seconds.',
    headers: {
      'Retry-After': {
        description: 'With 503 `unavailable`: seconds to wait before retrying.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
  for (const response of Object.values(responses)) addRequestIdHeader(response);
  for (const item of Object.values((document.paths ?? {}) as Json)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      const answers = member(operation, 'responses');
      answers['5XX'] ??= { $ref: '#/components/responses/ServerError' };
      for (const answer of Object.values(answers)) addRequestIdHeader(answer);
    }
  }
  return document;
}

/** The object under `key`, created empty when absent. */
function member(parent: Json, key: string): Json {
  if (typeof parent[key] !== 'object' || parent[key] === null) parent[key] = {};
  return parent[key] as Json;
}

function addRequestIdHeader(response: unknown): void {
  const object = response as Json;
  if (typeof object !== 'object' || object === null || '$ref' in object) return;
  const headers = member(object, 'headers');
  headers['X-Request-Id'] ??= REQUEST_ID_HEADER;
}

/** The parsed description, read once and frozen (it is shared by every caller). */
export function loadOpenApiDocument(): object {
  return description().document;
}

/** The description as compact JSON text, exactly the body of GET /openapi.json. */
export function openApiJson(): string {
  return description().json;
}

/**
 * Public routes (no token): GET /openapi.json, GET /docs and GET /docs/assets/<file>, relative to where
 * the router is mounted. Other methods on these paths answer 405 `request_failed` through the app's
 * error handler.
 */
export function openApiRouter(): express.Router {
  const assetFiles = new Map(
    Object.entries(DOCS_ASSETS).map(([name, asset]) => [
      name,
      { ...asset, file: path.join(DOCS_ASSETS_DIR, name) },
    ]),
  );
  for (const { file } of assetFiles.values())
    if (!existsSync(file)) throw new Error(`${file} is missing: \`npm run build\` copies it there`);
  description();

  const router = express.Router({ caseSensitive: true, strict: false });
  router.get('/openapi.json', (req, res) => {
    const { json, etag } = description();
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    if (ifNoneMatchMatches(req.get('if-none-match'), etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type('application/json; charset=utf-8').send(json);
  });
  router.get('/docs', (req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
    res.status(200).type('text/html; charset=utf-8').send(docsPage(req.baseUrl));
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const asset = assetFiles.get(String(req.params.file));
    if (!asset) {
      next(new HttpError(404, 'request_failed', 'no such documentation asset'));
      return;
    }
    sendAsset(res, asset.file, asset.contentType, next);
  });
  for (const routePath of ['/openapi.json', '/docs', '/docs/assets/:file']) router.all(routePath, onlyGet);
  return router;
}

const onlyGet: RequestHandler = (req, res, next) => {
  res.setHeader('Allow', 'GET, HEAD');
  next(new HttpError(405, 'request_failed', `method ${req.method} is not supported here; use GET`));
};

function sendAsset(res: Response, file: string, contentType: string, next: (error?: unknown) => void): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The bundle changes only with the pinned package version; the ETag from `send` revalidates it after a day.
  res.sendFile(file, { maxAge: '1d', headers: { 'Content-Type': contentType } }, (error) => {
    if (error) next(error);
  });
}

/** The docs page. URLs are built from the mount path so the page works wherever the router is mounted. */
function docsPage(mountPath: Request['baseUrl']): string {
  const specUrl = escapeAttribute(`${mountPath}/openapi.json`);
  const scriptUrl = escapeAttribute(`${mountPath}/docs/assets/redoc.standalone.js`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Diagram Schema Service API</title>
</head>
<body>
<redoc spec-url="${specUrl}"></redoc>
<script src="${scriptUrl}"></script>
</body>
</html>
`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
