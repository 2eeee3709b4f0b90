// The one way an HTTP server of ours starts (gateway, web app, MCP over HTTP, admin): listen on host and
// port, fail start-up when the port cannot be bound (in use, no permission) instead of an unhandled
// 'error' event, and report the port actually bound (0 picks a free one, as tests do).
import http, { type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics';

/**
 * How long an idle keep-alive connection stays open. Node's 5 s default is shorter than the idle time of
 * what sits in front of us (a load balancer or ingress keeps its upstream connections for 60 s, a client's
 * pool for 4-60 s): a peer that sends its next request just as the server closes the idle connection sees
 * a reset (a 502 behind a proxy, ECONNRESET from a client). The server must be the side that waits longer.
 */
export const KEEP_ALIVE_MS = 65_000;

export interface ListenOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
}

export interface ListeningHttpServer {
  server: Server;
  port: number;
}

/** Serves `handler` (an express app is one) on host:port; rejects when the port cannot be bound. */
export async function listenHttp(
  handler: RequestListener,
  options: ListenOptions,
): Promise<ListeningHttpServer> {
  const state: DrainState = { draining: false, inFlight: new Set() };
  const server = http.createServer((req, res) => {
    // While draining, every answer closes its connection, so a keep-alive client reconnects elsewhere.
    if (state.draining) res.shouldKeepAlive = false;
    state.inFlight.add(res);
    res.on('close', () => state.inFlight.delete(res));
    handler(req, res);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // The time to receive a request's headers, counted from the connection's first byte: above the
  // keep-alive time so an idle connection is never cut for slow headers it has not been sent yet.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  drainStates.set(server, state);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

interface DrainState {
  draining: boolean;
  inFlight: Set<ServerResponse>;
}

const drainStates = new WeakMap<Server, DrainState>();

/**
 * The start of a shutdown, while readiness already fails and before the listener closes: every answer
 * from now on (and any in flight not yet begun) carries `Connection: close`, so keep-alive clients move
 * to new connections during the drain instead of sending their next request down a connection that is
 * about to be closed under it (which they would see as ECONNRESET).
 */
export function startDraining(server: Server): void {
  const state = drainStates.get(server);
  if (!state) return;
  state.draining = true;
  for (const res of state.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
}

/**
 * Stops a server of listenHttp the way a restart without errors needs: it accepts no new connection,
 * closes idle keep-alive connections at once, lets requests in flight finish (their answers, and any
 * later one on a busy keep-alive connection, carry `Connection: close`), and cuts whatever is still open
 * after `graceMs`.
 */
export async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  startDraining(server);
  // close() ends idle connections, and a connection whose request has arrived but not yet been read (the
  // event loop was busy) counts as idle: its client would see a reset. One poll phase reads those first
  // (setImmediate callbacks run after it), so they become requests in flight that the close waits for.
  await new Promise((resolve) => setImmediate(resolve));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([closed, deadline]);
  clearTimeout(timer);
  server.closeAllConnections();
  await closed;
}

/** What an HTTP app reports when a response has been sent; `route` is the route template, not the path. */
export interface HttpRequestFinished {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/**
 * The request counter and latency histogram of an HTTP app, labelled by route template (a raw path would
 * make a series per id). Returns the callback the app calls for each finished response.
 */
export function httpRequestMetrics(metrics: Metrics): (finished: HttpRequestFinished) => void {
  const requests = metrics.counter('http_requests_total', 'HTTP requests by route template', [
    'method',
    'route',
    'status',
  ]);
  const durations = metrics.histogram('http_request_duration_seconds', 'HTTP request latency', [
    'method',
    'route',
  ]);
  return ({ method, route, status, seconds }) => {
    requests.inc({ method, route, status: String(status) });
    durations.observe({ method, route }, seconds);
  };
}
