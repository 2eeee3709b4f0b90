// The whole system in one Node process (embedded mode): every service on its own loopback gRPC port, so
// every call still crosses real gRPC; one event bus (NATS when NATS_URL is set, else in-process); one
// admin server with health, readiness and the metrics of every service. Used by `npm start` and by the
// e2e suite, which starts it on free ports.
import { readAccountsConfig, startAccountsService } from '@dss/accounts';
import { readCatalogConfig, startCatalogService } from '@dss/catalog';
import { readDiagramsConfig, startDiagramsService } from '@dss/diagrams';
import { readGatewayConfig, startGateway } from '@dss/gateway';
import { readImporterConfig, startImporterService } from '@dss/importer';
import { readNotificationsConfig, startNotificationsService } from '@dss/notifications';
import {
  createEventBus,
  createLogger,
  DEFAULT_GRPC_ADDRESSES,
  createMetrics,
  type Logger,
  loadConfig,
  processReadiness,
  startAdminServer,
} from '@dss/platform';
import { readProposalsConfig, startProposalsService } from '@dss/proposals';
import { readWebConfig, startWebApp } from '@dss/web';

export interface SystemOptions {
  /** The environment the services read their configuration from (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Start no importer (tests that need DDL imports to stay `importing`); startImporter() adds one later. */
  withoutImporter?: boolean;
}

/**
 * After the drain, how long the whole stop may take: the listeners' 10 s for requests in flight, then the
 * services in order. A stop still running then is cut short (`npm start` exits with code 1).
 */
export const SHUTDOWN_GRACE_MS = 20_000;

export async function startSystem(options: SystemOptions = {}) {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger('dss');
  const bus = await createEventBus({ natsUrl: env.NATS_URL || undefined, logger, name: 'dss-embedded' });
  const stops: (() => Promise<void>)[] = [() => bus.close()];
  let shuttingDown = false;
  const listeners: { drain(): void; stop(graceMs?: number): Promise<void> }[] = [];
  const drainMs = Math.max(0, Math.min(600_000, Number(env.DSS_SHUTDOWN_DRAIN_MS ?? 0) || 0));
  try {
    const accountsMetrics = createMetrics('accounts');
    const accounts = await startAccountsService({
      config: loadConfig(() => readAccountsConfig(env)),
      logger: logger.child({ service: 'accounts' }),
      metrics: accountsMetrics,
      bus,
    });
    stops.unshift(() => accounts.stop());
    const accountsAddress = `127.0.0.1:${accounts.grpc.port}`;

    const catalogMetrics = createMetrics('catalog');
    const catalog = await startCatalogService({
      config: loadConfig(() => readCatalogConfig(env)),
      logger: logger.child({ service: 'catalog' }),
      metrics: catalogMetrics,
    });
    stops.unshift(() => catalog.stop());
    const catalogAddress = `127.0.0.1:${catalog.grpc.port}`;

    const diagramsMetrics = createMetrics('diagrams');
    const diagrams = await startDiagramsService({
      config: loadConfig(() => readDiagramsConfig(env)),
      logger: logger.child({ service: 'diagrams' }),
      metrics: diagramsMetrics,
      bus,
    });
    const diagramsStop = () => diagrams.stop();
    stops.unshift(diagramsStop);
    const diagramsAddress = `127.0.0.1:${diagrams.grpc.port}`;

    const importerMetrics = createMetrics('importer');
    let importerAddress: string | null = null;
    const startImporter = async () => {
      const importer = await startImporterService({
        config: loadConfig(() => readImporterConfig({ ...env, DSS_DIAGRAMS_GRPC_ADDR: diagramsAddress })),
        logger: logger.child({ service: 'importer' }),
        metrics: importerMetrics,
        bus,
      });
      // Stopped before diagrams (stops run front to back), so no completion meets a stopped diagrams.
      stops.splice(stops.indexOf(diagramsStop), 0, () => importer.stop());
      importerAddress = `127.0.0.1:${importer.grpc.port}`;
      return importerAddress;
    };

    if (!options.withoutImporter) await startImporter();

    const proposalsMetrics = createMetrics('proposals');
    const proposals = await startProposalsService({
      config: loadConfig(() =>
        readProposalsConfig({
          ...env,
          DSS_ACCOUNTS_GRPC_ADDR: accountsAddress,
          DSS_DIAGRAMS_GRPC_ADDR: diagramsAddress,
        }),
      ),
      logger: logger.child({ service: 'proposals' }),
      metrics: proposalsMetrics,
      bus,
    });
    stops.unshift(() => proposals.stop());
    const proposalsAddress = `127.0.0.1:${proposals.grpc.port}`;

    // Webhooks: consumes the events of the bus (durable queues, as the importer's jobs) and sends them.
    const notificationsMetrics = createMetrics('notifications');
    const notifications = await startNotificationsService({
      config: loadConfig(() => readNotificationsConfig(env)),
      logger: logger.child({ service: 'notifications' }),
      metrics: notificationsMetrics,
      bus,
    });
    stops.unshift(() => notifications.stop());
    const notificationsAddress = `127.0.0.1:${notifications.grpc.port}`;

    const gatewayConfig = loadConfig(() =>
      readGatewayConfig({
        ...env,
        DSS_ACCOUNTS_GRPC_ADDR: accountsAddress,
        DSS_CATALOG_GRPC_ADDR: catalogAddress,
        DSS_DIAGRAMS_GRPC_ADDR: diagramsAddress,
        DSS_PROPOSALS_GRPC_ADDR: proposalsAddress,
        DSS_NOTIFICATIONS_GRPC_ADDR: notificationsAddress,
      }),
    );
    const gatewayMetrics = createMetrics('gateway');
    const gateway = await startGateway({
      config: gatewayConfig,
      logger: logger.child({ service: 'gateway' }),
      metrics: gatewayMetrics,
      bus,
    });
    // The gateway and the web app stop first, together, after the drain (see stop below).
    listeners.push(gateway);

    const webConfig = loadConfig(() =>
      readWebConfig({
        ...env,
        DSS_ACCOUNTS_GRPC_ADDR: accountsAddress,
        DSS_DIAGRAMS_GRPC_ADDR: diagramsAddress,
        DSS_PROPOSALS_GRPC_ADDR: proposalsAddress,
        DSS_NOTIFICATIONS_GRPC_ADDR: notificationsAddress,
        // Started without its importer (tests that start it later), the web app dials the default address:
        // the environment's own value is the importer's listen address, which may be port 0.
        DSS_IMPORTER_GRPC_ADDR: importerAddress ?? DEFAULT_GRPC_ADDRESSES.importer,
      }),
    );
    const webMetrics = createMetrics('web');
    const web = await startWebApp({
      config: webConfig,
      logger: logger.child({ service: 'web' }),
      metrics: webMetrics,
      bus,
    });
    listeners.push(web);

    const admin = await startAdminServer({
      port: Number(env.DSS_ADMIN_PORT ?? 9090),
      host: '127.0.0.1',
      metrics: [
        accountsMetrics.registry,
        catalogMetrics.registry,
        diagramsMetrics.registry,
        importerMetrics.registry,
        proposalsMetrics.registry,
        notificationsMetrics.registry,
        gatewayMetrics.registry,
        webMetrics.registry,
      ],
      logger,
      readiness: processReadiness(
        async () => ({
          ...(await accounts.readiness()),
          ...(await catalog.readiness()),
          ...(await diagrams.readiness()),
          ...(await proposals.readiness()),
          ...(await notifications.readiness()),
          ...(await gateway.readiness()),
          ...(await web.readiness()),
        }),
        bus,
        () => shuttingDown,
        () => gateway.reported(),
      ),
    });
    // The admin server (readiness, metrics) stops last: /readyz answers 503 all through the drain.
    stops.push(() => admin.stop());

    return {
      apiUrl: `http://${displayHost(gatewayConfig.httpHost)}:${gateway.port}/v1`,
      appUrl: gatewayConfig.appUrl,
      /** Where the web app really listens (equals appUrl unless DSS_APP_URL points at a proxy). */
      webUrl: `http://${displayHost(webConfig.httpHost)}:${web.port}`,
      adminPort: admin.port,
      grpc: {
        accounts: accountsAddress,
        catalog: catalogAddress,
        diagrams: diagramsAddress,
        proposals: proposalsAddress,
        notifications: notificationsAddress,
        get importer() {
          return importerAddress;
        },
      },
      /** The drain plus SHUTDOWN_GRACE_MS: by then a stop has finished or is cut short. */
      shutdownDeadlineMs: drainMs + SHUTDOWN_GRACE_MS,
      /** Starts the importer when the system started without one; answers its gRPC address. */
      startImporter,
      logger,
      /**
       * Graceful shutdown, as in cluster mode: readiness fails first (/readyz 503) and every answer from
       * then on closes its connection (keep-alive clients reconnect rather than be cut), then after the drain
       * (DSS_SHUTDOWN_DRAIN_MS, default 0: one process has no load balancer to tell) the gateway and
       * the web app stop taking connections and let requests in flight finish (at most 10 s), then the
       * services stop in order.
       */
      async stop() {
        shuttingDown = true;
        for (const listener of listeners) listener.drain();
        if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
        await Promise.all(listeners.map((listener) => listener.stop()));
        for (const stop of stops) await stop();
      },
    };
  } catch (error) {
    await Promise.all(listeners.map((listener) => listener.stop(0).catch(() => undefined)));
    for (const stop of stops) await stop().catch(() => undefined);
    throw error;
  }
}

export type RunningSystem = Awaited<ReturnType<typeof startSystem>>;

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}
