// Wiring of the web app: the session key, gRPC clients, and the HTTP server. Used by main.ts in cluster
// mode and by `npm start` (packages/system) in embedded mode.
import {
  closeGracefully,
  type EventBus,
  httpRequestMetrics,
  type Logger,
  listenHttp,
  type Metrics,
  startDraining,
} from '@dss/platform';
import { createWebApp } from './app';
import { connectWebClients } from './clients';
import type { WebConfig } from './config';
import { cookieSettings } from './cookies';
import { loadSessionKey } from './session-key';
import { SignInThrottle } from './sign-in-throttle';
import { Signer } from './signing';

export interface WebDeps {
  config: WebConfig;
  logger: Logger;
  metrics: Metrics;
  /** Not used yet (the web app holds nothing that events change); accepted for the shared process shell. */
  bus?: EventBus;
}

export async function startWebApp({ config, logger, metrics }: WebDeps) {
  const signer = new Signer(loadSessionKey({ value: config.sessionKey, file: config.sessionKeyFile }));
  const clients = connectWebClients(config, metrics);
  const app = createWebApp(
    {
      clients,
      signer,
      cookies: cookieSettings(config.appUrl),
      appOrigin: new URL(config.appUrl).origin,
      throttle: new SignInThrottle(),
      logger,
    },
    {
      trustProxy: config.trustProxy,
      onRequestFinished: httpRequestMetrics(metrics),
    },
  );
  const { server, port } = await listenHttp(app, { port: config.httpPort, host: config.httpHost });
  logger.info({ port }, 'web app listening');

  return {
    port,
    async readiness() {
      return { web: server.listening };
    },
    /** From now on every answer closes its connection (readiness already fails; the listener closes next). */
    drain() {
      startDraining(server);
    },
    /** Stops taking connections and lets requests in flight finish, for at most `graceMs`. */
    async stop(graceMs = HTTP_GRACE_MS) {
      await closeGracefully(server, graceMs);
      clients.close();
    },
  };
}

/** How long requests in flight may take to finish once the server stops taking new ones. */
const HTTP_GRACE_MS = 10_000;

export type WebApp = Awaited<ReturnType<typeof startWebApp>>;
