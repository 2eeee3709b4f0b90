// Wiring of the gateway: gRPC clients, the authenticator and its cache invalidation from account events,
// rate-limit storage (Redis or memory), and the HTTP server. Used by main.ts and by `npm start`.
import {
  closeGracefully,
  createServiceClient,
  type EventBus,
  httpRequestMetrics,
  type Logger,
  listenHttp,
  type Metrics,
  runWithRequestContext,
  startDraining,
} from '@dss/platform';
import { Redis } from 'ioredis';
import { createGatewayApp, type RouteSpec } from './app';
import { Authenticator } from './authenticator';
import type { GatewayConfig } from './config';
import { watchDiagramEvents } from './diagram-events';
import { answerMalformedRequestsAsJson } from './malformed-requests';
import { watchProposalEvents } from './proposal-waits';
import { withQuickAnswers } from './quick-answers';
import { createRateLimits } from './rate-limits';
import { RepresentationCache } from './representation-cache';
import { connectRouteClients, v1Routes } from './routes';

/** How long requests in flight may take to finish once the server stops taking new ones. */
const HTTP_GRACE_MS = 10_000;

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
  /** Replaces the real /v1 routes (tests of the gateway's own middleware use this). */
  routes?: RouteSpec[];
}

export async function startGateway({ config, logger, metrics, bus, routes }: GatewayDeps) {
  const routeClients = routes ? undefined : connectRouteClients(config);
  const accounts = createServiceClient('Accounts', config.accountsAddress);
  const authenticator = new Authenticator(accounts, {
    cacheTtlMs: config.authCacheMs,
    // Without the bus a revocation could go unnoticed for the cache's lifetime, so don't cache then.
    cachingEnabled: () => bus.isHealthy(),
  });
  const subscription = await bus.subscribe('accounts.>', (message) => {
    const data = message.data as { token_id?: string; team_id?: string; user_id?: string | null };
    if (message.subject === 'accounts.token.revoked' && data.token_id) authenticator.dropToken(data.token_id);
    else if (data.team_id) authenticator.dropTeam(data.team_id, data.user_id ?? null);
  });

  // Subscribed before the server listens, so no proof is ever recorded while its events could be missed.
  const provenAnswers = metrics.counter(
    'gateway_etag_proof_answers_total',
    'Conditional requests the gateway answered 304 from a proven ETag, without asking the diagrams service',
  );
  const representations = new RepresentationCache({
    proofMs: config.etagProofMs,
    eventsFlowing: () => bus.isHealthy(),
    onProvenAnswer: () => provenAnswers.inc(),
  });
  const diagramEvents = await watchDiagramEvents(bus, representations);
  const proposalWaits = await watchProposalEvents(bus);

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (error) =>
    logger.warn({ err: error }, 'redis unavailable; rate limits fall back to memory'),
  );
  const rateLimits = createRateLimits(config.rateLimits, { redis, keyPrefix: config.rateLimitKeyPrefix });

  const appRoutes =
    routes ??
    v1Routes(routeClients!, { importWaitMs: config.importWaitMs, cache: representations, proposalWaits });
  const requestFinished = httpRequestMetrics(metrics);
  const app = createGatewayApp({
    authenticator,
    rateLimits,
    routes: appRoutes,
    logger,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    runWithRequestId: (requestId, work, clientIp) => runWithRequestContext({ requestId, clientIp }, work),
    onRequestFinished: requestFinished,
  });

  const listener = withQuickAnswers(app, {
    routes: appRoutes,
    authenticator,
    rateLimits,
    logger,
    onRequestFinished: requestFinished,
  });
  const { server, port } = await listenHttp(listener, { port: config.httpPort, host: config.httpHost });
  answerMalformedRequestsAsJson(server);
  logger.info({ port }, 'gateway listening');

  return {
    port,
    authenticator,
    async readiness() {
      return { accounts: true };
    },
    /** Redis is shown, not required: while it is down the rate limits are counted in memory. */
    reported() {
      return { redis: redis ? redis.status === 'ready' : true };
    },
    /** From now on every answer closes its connection (readiness already fails; the listener closes next). */
    drain() {
      startDraining(server);
    },
    /** Stops taking connections and lets requests in flight finish, for at most `graceMs`. */
    async stop(graceMs = HTTP_GRACE_MS) {
      await proposalWaits.stop();
      await closeGracefully(server, graceMs);
      await subscription.unsubscribe();
      await diagramEvents.stop();
      accounts.close();
      routeClients?.close();
      redis?.disconnect();
    },
  };
}

export type Gateway = Awaited<ReturnType<typeof startGateway>>;
