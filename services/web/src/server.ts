// Wiring of the web app: the session key, gRPC clients, and the HTTP server. Used by main.ts in cluster
// mode and by `npm start` (packages/system) in embedded mode.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventBus, Logger, Metrics } from '@dss/platform';
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
  const requests = metrics.counter('http_requests_total', 'HTTP requests by route template', [
    'method',
    'route',
    'status',
  ]);
  const durations = metrics.histogram('http_request_duration_seconds', 'HTTP request latency', [
    'method',
    'route',
  ]);
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
      onRequestFinished: ({ method, route, status, seconds }) => {
        requests.inc({ method, route, status: String(status) });
        durations.observe({ method, route }, seconds);
      },
    },
  );
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.httpPort, config.httpHost, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'web app listening');

  return {
    port,
    async readiness() {
      return { web: server.listening };
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      clients.close();
    },
  };
}

export type WebApp = Awaited<ReturnType<typeof startWebApp>>;
