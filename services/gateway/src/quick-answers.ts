// Reads of a schema are the hottest requests: revalidations (If-None-Match), mostly answered 304 from an ETag
// the gateway has proven current, and full reads whose bytes the gateway keeps (representation-cache.ts).
// Express alone costs several times what a 304 does (a bare node:http 304 is about five times faster than an
// Express one on the same machine), so these requests are answered in front of Express: a GET that matches a
// route's `quick.url` and shape, from a token the authenticator has cached. They get what every request gets:
// the request id, the default headers, the per-IP and per-token limits with their headers, the spec's error
// shape, the metrics; the representation comes from the same cache calls as the route's handler.
//
// Anything else goes to Express untouched, and so does a request that a limit refuses, carrying the counts
// made here, so that the chain answers the 429 without counting it twice.
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { HttpRequestFinished } from '@dss/platform';
import type express from 'express';
import proxyaddr from 'proxy-addr';
import { type GatewayLogger, type RouteSpec, toServiceError } from './app';
import { type Authenticator, bearerTokenOf, type Principal } from './authenticator';
import type { RateLimits } from './rate-limits';
import { sendError } from './http-errors';
import { type Representation, sendRepresentation } from './representation';
import { type CountedLimits, requestIdOf, setCountedLimits, setSafeDefaults } from './request-basics';

export interface QuickAnswer {
  /** The whole request URL it serves, query included (anchored; named groups are the route's params). */
  url: RegExp;
  /** Vary header of every answer. */
  vary?: string;
  /** Whether the request has the one shape served here (say, an Accept that picks JSON at once). */
  serves(request: QuickRequest): boolean;
  /**
   * The 304 answer (the ETag, no body) when the client's If-None-Match is proven current for the
   * principal's team, else undefined. `count`: whether this look answers the request (the metric).
   */
  notModified(request: QuickRequest, principal: Principal, count: boolean): Representation | undefined;
  /** The representation, as the route's handler gets it: the service decides, for the principal. */
  fetch(request: QuickRequest, principal: Principal): Promise<Representation>;
}

export interface QuickRequest {
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
}

export interface QuickAnswersOptions {
  routes: RouteSpec[];
  authenticator: Authenticator;
  rateLimits: RateLimits;
  logger: GatewayLogger;
  onRequestFinished?: (finished: HttpRequestFinished) => void;
}

/** The gateway's request listener: quick answers in front of the Express application. */
export function withQuickAnswers(app: express.Express, options: QuickAnswersOptions): RequestListener {
  const routes = options.routes.filter((route) => route.method === 'get' && route.quick);
  if (routes.length === 0) return app;
  const trust = app.get('trust proxy fn') as Parameters<typeof proxyaddr>[1];

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: RouteSpec,
    request: QuickRequest,
    principal: Principal,
    started: bigint,
  ) => {
    const quick = route.quick!;
    const counted: CountedLimits = { ip: await options.rateLimits.consumeIp(proxyaddr(req, trust)) };
    if (counted.ip.allowed)
      counted.token = await options.rateLimits.consumeToken(principal.token_id, route.operation);
    if (!counted.token?.allowed) {
      // Refused: the chain answers 429, with the counts made here.
      setCountedLimits(req, counted);
      app(req, res);
      return;
    }
    res.setHeader('X-Request-Id', requestIdOf(req));
    setSafeDefaults(res);
    res.setHeader('X-RateLimit-Limit', String(counted.token.limit));
    res.setHeader('X-RateLimit-Remaining', String(counted.token.remaining));
    try {
      // Looked at again: an event may have ended the proof while the limits were counted.
      const representation =
        quick.notModified(request, principal, true) ?? (await quick.fetch(request, principal));
      sendRepresentation(req, res, representation, { vary: quick.vary });
    } catch (error) {
      if (quick.vary) res.setHeader('Vary', quick.vary);
      sendError(res, toServiceError(error, `/v1${route.path}`, options.logger));
    }
    options.onRequestFinished?.({
      method: 'GET',
      route: `/v1${route.path}`,
      status: res.statusCode,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    });
  };

  return (req, res) => {
    const started = process.hrtime.bigint();
    // A request with an Origin header goes to Express, so CORS is always answered by its middleware.
    if (req.method !== 'GET' || req.headers.origin !== undefined) return app(req, res);
    const url = req.url ?? '';
    const route = routes.find((candidate) => candidate.quick!.url.test(url));
    const principal = route && options.authenticator.cachedPrincipal(bearerTokenOf(req));
    if (!route || !principal) return app(req, res);
    const request = { params: { ...route.quick!.url.exec(url)!.groups }, headers: req.headers };
    if (!route.quick!.serves(request)) return app(req, res);
    // Nothing is written before the limits are counted, so a failure there leaves Express a clean request.
    answer(req, res, route, request, principal, started).catch(() => {
      if (!res.headersSent) app(req, res);
    });
  };
}
