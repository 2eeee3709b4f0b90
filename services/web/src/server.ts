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
import type { WebAppContext } from './app-context';
import { connectWebClients } from './clients';
import type { WebConfig } from './config';
import { cookieSettings } from './cookies';
import { drawingThread as newDrawingThread } from './drawing-thread';
import { drawings } from './drawings';
import { LiveHub } from './live/live-hub';
import { NewVersionDrawer } from './new-version-drawings';
import { startAccessChecks } from './routes/live';
import { loadSessionKey } from './session-key';
import { createMailer } from './mailer';
import { ResetThrottle } from './reset-throttle';
import { SignInThrottle } from './sign-in-throttle';
import { Signer } from './signing';
import { SsoClient } from './sso';

export interface WebDeps {
  config: WebConfig;
  logger: Logger;
  metrics: Metrics;
  /** The diagrams service's events reach open pages through it; presence goes between replicas on it. */
  bus: EventBus;
}

export async function startWebApp({ config, logger, metrics, bus }: WebDeps) {
  const signer = new Signer(loadSessionKey({ value: config.sessionKey, file: config.sessionKeyFile }));
  const clients = connectWebClients(config, metrics);
  const live = new LiveHub({ bus, logger });
  await live.start();
  // Large diagrams' new versions are drawn before their first view, in a thread of their own.
  const drawingThread = newDrawingThread(config.drawingWarmUp);
  const drawer = new NewVersionDrawer({
    bus,
    clients,
    cache: drawings,
    draw: (body) => drawingThread.ask(body),
    logger,
  });
  await drawer.start();
  const context: WebAppContext = {
    clients,
    signer,
    cookies: cookieSettings(config.appUrl),
    appOrigin: new URL(config.appUrl).origin,
    throttle: new SignInThrottle(),
    logger,
    live,
    mailer: createMailer(config.smtpUrl, config.mailFrom),
    appUrl: config.appUrl,
    resetThrottle: new ResetThrottle(),
    sso: config.sso
      ? new SsoClient(config.sso, new URL('/sso/callback', config.appUrl).toString(), logger)
      : null,
  };
  const accessChecks = startAccessChecks(context);
  const app = createWebApp(context, {
    trustProxy: config.trustProxy,
    onRequestFinished: httpRequestMetrics(metrics),
  });
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
      // Event streams never finish on their own: end them now, so their pages reconnect to a replica
      // that stays, and the graceful close below does not wait for them.
      live.drain();
    },
    /** Stops taking connections and lets requests in flight finish, for at most `graceMs`. */
    async stop(graceMs = HTTP_GRACE_MS) {
      accessChecks.stop();
      await live.close();
      // The thread first: a drawing under way ends now instead of being waited for.
      drawingThread.close();
      await drawer.close();
      await closeGracefully(server, graceMs);
      clients.close();
      context.mailer?.close();
    },
  };
}

/** How long requests in flight may take to finish once the server stops taking new ones. */
const HTTP_GRACE_MS = 10_000;

export type WebApp = Awaited<ReturnType<typeof startWebApp>>;
