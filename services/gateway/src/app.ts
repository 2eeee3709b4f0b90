// The gateway's HTTP application: request ids, the per-IP limit before anything else, bearer
// authentication, the per-token limit of each route's operation class, the write-scope check, JSON
// bodies, and one error handler that writes the spec's error shape for every failure.
import {
  type HttpRequestFinished,
  isServiceError,
  OutageLog,
  ServiceError,
  setRequestActor,
} from '@dss/platform';
import cors from 'cors';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { type Authenticator, bearerTokenOf, type Principal } from './authenticator';
import { HttpError, internalError, sendError } from './http-errors';
import { openApiRouter } from './openapi';
import type { QuickAnswer } from './quick-answers';
import { countedLimitsOf, requestIdOf, setSafeDefaults } from './request-basics';
import { type OperationClass, type RateLimits, rateLimited } from './rate-limits';

/** Bodies are read up to this size so that oversized `ddl`/`schema` fields get the spec's 413, not the framework's. */
export const BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export interface RouteSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  operation: OperationClass;
  /** The route needs a token with write access. */
  write: boolean;
  handler: (req: Request, res: Response, principal: Principal) => Promise<void>;
  /** A hot GET that can often be answered from what the gateway holds, before Express (quick-answers.ts). */
  quick?: QuickAnswer;
}

export interface GatewayLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface GatewayAppOptions {
  authenticator: Authenticator;
  rateLimits: RateLimits;
  routes: RouteSpec[];
  logger: GatewayLogger;
  /** Express's `trust proxy` setting; false by default so X-Forwarded-For cannot spoof the client IP. */
  trustProxy: boolean | number | string;
  /** Runs each request inside a context carrying its request id (for logs and outgoing calls). */
  /** Runs the rest of a request in its context: its id and the client's address (for logs and the audit log). */
  runWithRequestId?: (requestId: string, work: () => void, clientIp?: string) => void;
  onRequestFinished?: (finished: HttpRequestFinished) => void;
  /** Origins allowed to call the API from a browser (`*` for any); none by default. */
  corsOrigins?: string[];
}

const principalOf = new WeakMap<Request, Principal>();

export function createGatewayApp(options: GatewayAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', options.trustProxy);

  app.use(assignRequestId(options));
  app.use(safeDefaults);
  app.use(observe(options));
  app.use(limitByIp(options.rateLimits));
  // CORS, preflight included, is answered before authentication: a preflight carries no token.
  if (options.corsOrigins?.length) app.use('/v1', corsFor(options.corsOrigins));
  // The API description and its docs page are public: no token needed to learn how to get one.
  app.use('/v1', openApiRouter());

  const v1 = express.Router({ caseSensitive: true, strict: false });
  v1.use(authenticate(options.authenticator));
  // Only a POST or PATCH has a body in this API; a body sent with any other method is not read (nor refused).
  v1.use(
    express.json({
      limit: BODY_LIMIT_BYTES,
      strict: false,
      type: (req) => req.method === 'POST' || req.method === 'PATCH',
    }),
  );
  v1.use(checkBodyText);
  for (const route of options.routes) v1[route.method](route.path, routeHandler(route, options.rateLimits));
  for (const path of new Set(options.routes.map((route) => route.path))) {
    const allowed = options.routes
      .filter((route) => route.path === path)
      .map((route) => route.method.toUpperCase());
    v1.all(path, methodNotAllowed(allowed));
  }
  app.use('/v1', v1);
  app.use((_req, _res, next) => next(new HttpError(404, 'request_failed', 'no such endpoint')));
  app.use(errorHandler(options.logger));
  return app;
}

function assignRequestId(options: GatewayAppOptions): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    if (options.runWithRequestId) options.runWithRequestId(requestId, () => next(), req.ip);
    else next();
  };
}

const safeDefaults: RequestHandler = (_req, res, next) => {
  setSafeDefaults(res);
  next();
};

/** Deeper than any patch (about 6 levels) by far; checked before anything recursive touches the body. */
export const MAX_BODY_DEPTH = 64;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * One rule for text PostgreSQL cannot store, on every write: a NUL character (U+0000) or an unpaired
 * UTF-16 surrogate anywhere in the body (names, titles, DDL, keys) is refused with 422 `invalid_request`
 * naming the field, as is a body nested deeper than MAX_BODY_DEPTH. Walks the body without recursion.
 */
const checkBodyText: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object') return next();
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 1 }];
  let visited = 0;
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (++visited > 2_000_000) break;
    if (typeof value === 'string') {
      const problem = value.includes('\u0000')
        ? 'contains a NUL character (U+0000), which cannot be stored'
        : UNPAIRED_SURROGATE.test(value)
          ? 'contains an unpaired UTF-16 surrogate, which is not valid Unicode text'
          : null;
      if (problem) return next(invalidBody(path || '(body)', problem));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH)
      return next(invalidBody(path, `nests deeper than ${MAX_BODY_DEPTH} levels, the most a request may`));
    const entries = Array.isArray(value)
      ? value.map((item, index) => [`[${index}]`, item] as const)
      : Object.entries(value);
    for (const [key, child] of entries) {
      const childPath = Array.isArray(value) ? `${path}${key}` : path === '' ? key : `${path}.${key}`;
      if (!Array.isArray(value) && (key.includes('\u0000') || UNPAIRED_SURROGATE.test(key)))
        return next(invalidBody(childPath, 'is a key with a NUL character or an unpaired surrogate'));
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  next();
};

function invalidBody(path: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `${path} ${problem}`, { errors: [{ path, message: problem }] });
}

function observe(options: GatewayAppOptions): RequestHandler {
  return (req, res, next) => {
    if (!options.onRequestFinished) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // The route template, never the raw path, keeps metric labels low-cardinality.
      const template = req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      options.onRequestFinished!({
        method: req.method,
        route: template,
        status: res.statusCode,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    next();
  };
}

function limitByIp(rateLimits: RateLimits): RequestHandler {
  return async (req, _res, next) => {
    try {
      // Counted already when a quick answer handed the request on (quick-answers.ts).
      const consumption = countedLimitsOf(req)?.ip ?? (await rateLimits.consumeIp(req.ip ?? 'unknown'));
      next(consumption.allowed ? undefined : rateLimited(consumption, 'per IP address'));
    } catch (error) {
      next(error);
    }
  };
}

function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req, _res, next) => {
    try {
      const principal = await authenticator.authenticate(bearerTokenOf(req));
      principalOf.set(req, principal);
      // What the services record as the actor of any change this request makes.
      setRequestActor({ kind: 'token', id: principal.token_id, user_id: principal.user_id });
      next();
    } catch (error) {
      next(error);
    }
  };
}

function routeHandler(route: RouteSpec, rateLimits: RateLimits): RequestHandler {
  return async (req, res, next) => {
    try {
      const principal = principalOf.get(req)!;
      const consumption =
        countedLimitsOf(req)?.token ?? (await rateLimits.consumeToken(principal.token_id, route.operation));
      res.setHeader('X-RateLimit-Limit', String(consumption.limit));
      res.setHeader('X-RateLimit-Remaining', String(consumption.remaining));
      if (!consumption.allowed) throw rateLimited(consumption, 'per token for this kind of request');
      if (route.write && !principal.write) {
        throw new ServiceError(
          'insufficient_scope',
          'this token has no write access; create a token that allows writes',
        );
      }
      if (route.operation === 'write')
        refundUnlessAccepted(res, () => rateLimits.refundToken(principal.token_id, 'write'));
      await route.handler(req, res, principal);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Only accepted (2xx) creates and proposals use up the write limit: an agent that corrects a rejected
 * patch by trial and error must not stall for a minute. Rejections stay bounded by the per-IP limit.
 */
function refundUnlessAccepted(res: Response, refund: () => Promise<void>): void {
  res.on('finish', () => {
    if (res.statusCode < 200 || res.statusCode >= 300) void refund();
  });
}

function corsFor(origins: string[]): RequestHandler {
  return cors({
    origin: origins.includes('*') ? '*' : origins,
    credentials: false,
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'If-None-Match', 'X-Request-Id'],
    exposedHeaders: [
      'ETag',
      'Location',
      'Retry-After',
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
    ],
    maxAge: 600,
  });
}

function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', allowed.join(', '));
    next(
      new HttpError(
        405,
        'request_failed',
        `method ${req.method} is not supported here; use ${allowed.join(' or ')}`,
      ),
    );
  };
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

function errorHandler(logger: GatewayLogger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    sendError(res, toServiceError(error, req.path, logger));
  };
}

const outageLogs = new WeakMap<GatewayLogger, OutageLog>();

function outageLogOf(logger: GatewayLogger): OutageLog {
  let log = outageLogs.get(logger);
  if (!log) {
    log = new OutageLog(logger, 'a service the request needs is unavailable');
    outageLogs.set(logger, log);
  }
  return log;
}

/** Any failure as the spec's error (logged when it is the server's); `path` only names it in the log. */
export function toServiceError(error: unknown, path: string, logger: GatewayLogger): ServiceError {
  if (isServiceError(error)) {
    if (error.code === 'internal') logger.error({ err: error, path }, 'service reported an internal error');
    if (error.code === 'unavailable') {
      // A service or its database is briefly out of reach: say when to retry, not which call failed; log
      // the outage, not each request that meets it.
      outageLogOf(logger).failed({ path, reason: error.message });
      return new ServiceError(
        'unavailable',
        'a service this request needs is briefly unavailable; retry shortly',
        {
          retry_after_seconds: Number(error.extra.retry_after_seconds ?? 5),
        },
      );
    }
    return error;
  }
  // A path with a bad percent-escape (`/diagrams/%ZZ`): no diagram or proposal can have such an id.
  if (
    error instanceof URIError ||
    (error as { status?: number; message?: string })?.message?.startsWith('Failed to decode param')
  )
    return new HttpError(404, 'not_found', 'no such diagram or proposal: the id in the path is not valid');
  const bodyError = error as BodyParserError;
  switch (bodyError?.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'invalid_request', 'the request body is not valid JSON');
    case 'entity.too.large':
      return new ServiceError('payload_too_large', 'the request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'request_failed', 'the request body must be UTF-8 JSON');
    case 'request.aborted':
      return new HttpError(400, 'request_failed', 'the request was aborted');
  }
  // Any other failure to read the body (bytes that do not follow their Content-Encoding, a length that
  // does not match) is the client's, and what it sent is not a JSON object: the reader marks it 4xx.
  const status = bodyError?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new HttpError(
      400,
      'invalid_request',
      'the request body could not be read as JSON (does it follow its Content-Encoding and Content-Length?)',
    );
  logger.error({ err: error, path }, 'unhandled error in the gateway');
  return internalError();
}

/** The body of a POST or PATCH, which the spec requires to be a JSON object. */
export function objectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_request', 'the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
