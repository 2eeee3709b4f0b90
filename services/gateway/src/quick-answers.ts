// Revalidation (If-None-Match) of a schema is the hottest request, and the gateway can mostly answer it 304
// from an ETag it has proven current (representation-cache.ts). Express alone costs several times what such
// an answer does (a bare node:http 304 is about five times faster than an Express one on the same machine),
// so these requests are answered in front of Express: a GET that matches a route's `quick.url`, from a token
// the authenticator has cached, whose ETag is proven for the token's team. They get what every request gets:
// the request id, the default headers, the per-IP and per-token limits with their headers, the metrics.
//
// Anything else goes to Express untouched. Once the limits are counted the request is answered here only if
// the proof still holds and both limits allowed it; otherwise it goes to Express carrying the counts, so the
// chain answers it (429, or the route's handler asking the service) without counting it twice.
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { HttpRequestFinished } from '@dss/platform';
import type express from 'express';
import proxyaddr from 'proxy-addr';
import type { RouteSpec } from './app';
import { type Authenticator, bearerTokenOf, type Principal } from './authenticator';
import type { RateLimits } from './rate-limits';
import { type Representation, setRepresentationHeaders } from './representation';
import { type CountedLimits, requestIdOf, setCountedLimits, setSafeDefaults } from './request-basics';

export interface QuickAnswer {
  /** The whole request URL it serves, query included (anchored; named groups are the route's params). */
  url: RegExp;
  /** Vary header of the answer. */
  vary?: string;
  /**
   * The 304 answer (the ETag, no body) when the client's If-None-Match is proven current for the
   * principal's team, else undefined. `count`: whether this look answers the request (the metric).
   */
  notModified(request: QuickRequest, principal: Principal, count: boolean): Representation | undefined;
}

export interface QuickRequest {
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
}

export interface QuickAnswersOptions {
  routes: RouteSpec[];
  authenticator: Authenticator;
  rateLimits: RateLimits;
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
    const counted: CountedLimits = { ip: await options.rateLimits.consumeIp(proxyaddr(req, trust)) };
    if (counted.ip.allowed)
      counted.token = await options.rateLimits.consumeToken(principal.token_id, route.operation);
    // Looked at again: an event may have ended the proof while the limits were counted.
    const notModified = counted.token?.allowed
      ? route.quick!.notModified(request, principal, true)
      : undefined;
    if (!notModified) {
      setCountedLimits(req, counted);
      app(req, res);
      return;
    }
    res.setHeader('X-Request-Id', requestIdOf(req));
    setSafeDefaults(res);
    res.setHeader('X-RateLimit-Limit', String(counted.token!.limit));
    res.setHeader('X-RateLimit-Remaining', String(counted.token!.remaining));
    setRepresentationHeaders(res, notModified, route.quick!.vary);
    res.statusCode = 304;
    res.end();
    options.onRequestFinished?.({
      method: 'GET',
      route: `/v1${route.path}`,
      status: 304,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    });
  };

  return (req, res) => {
    const started = process.hrtime.bigint();
    // A request with an Origin header goes to Express, so CORS is always answered by its middleware.
    if (req.method !== 'GET' || !req.headers['if-none-match'] || req.headers.origin !== undefined)
      return app(req, res);
    const url = req.url ?? '';
    const route = routes.find((candidate) => candidate.quick!.url.test(url));
    const principal = route && options.authenticator.cachedPrincipal(bearerTokenOf(req));
    if (!route || !principal) return app(req, res);
    const request = { params: { ...route.quick!.url.exec(url)!.groups }, headers: req.headers };
    if (!route.quick!.notModified(request, principal, false)) return app(req, res);
    // Nothing is written before the limits are counted, so a failure here leaves Express a clean request.
    answer(req, res, route, request, principal, started).catch(() => {
      if (!res.headersSent) app(req, res);
    });
  };
}
