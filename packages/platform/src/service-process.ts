// The process shell every service shares in cluster mode: read and validate the configuration, create
// the logger, metrics and event bus, start the service, serve health/readiness/metrics on the admin
// port, and shut down in order on SIGTERM.
import { createLifecycle, SHUTDOWN_ORDER } from './lifecycle';
import { startAdminServer } from './admin';
import { createEventBus, type EventBus } from './bus';
import { loadConfig } from './config';
import type { GrpcServer } from './grpc';
import { createLogger, type Logger } from './logging';
import { createMetrics, type Metrics } from './metrics';
import { followReadiness, processReadiness } from './readiness-health';

export interface RunnableService {
  /** Checks that must pass for the process to take traffic (its database, …). */
  readiness(): Promise<Record<string, boolean>>;
  /** States shown in /readyz that do not make it unready, because a fallback covers them. */
  reported?(): Record<string, boolean>;
  stop(): Promise<void>;
  /** An HTTP service: starts telling keep-alive clients to reconnect, as soon as readiness fails. */
  drain?(): void;
  /** A service with a gRPC server: its named health status follows readiness. */
  grpc?: Pick<GrpcServer, 'setReady'>;
}

/** How often a gRPC service's health status is brought in line with its readiness. */
const READINESS_REFRESH_MS = 2000;

export interface ServiceProcessOptions<Config, Service extends RunnableService> {
  name: string;
  readConfig: () => Config;
  start: (deps: { config: Config; logger: Logger; metrics: Metrics; bus: EventBus }) => Promise<Service>;
}

interface ProcessConfig {
  natsUrl?: string;
  adminPort: number;
}

export async function runServiceProcess<Config extends ProcessConfig, Service extends RunnableService>(
  options: ServiceProcessOptions<Config, Service>,
): Promise<void> {
  const config = loadConfig(options.readConfig);
  const logger = createLogger(options.name);
  try {
    const metrics = createMetrics(options.name);
    const bus = await createEventBus({ natsUrl: config.natsUrl, logger, name: `dss-${options.name}` });
    const service = await options.start({ config, logger, metrics, bus });
    const lifecycle = createLifecycle(logger);
    const readiness = processReadiness(
      () => service.readiness(),
      bus,
      () => lifecycle.isShuttingDown(),
      () => service.reported?.() ?? {},
    );
    const admin = await startAdminServer({
      port: config.adminPort,
      metrics: [metrics.registry],
      logger,
      readiness,
    });
    if (service.grpc) {
      const follower = followReadiness(readiness, service.grpc, READINESS_REFRESH_MS);
      lifecycle.onShutdown('readiness', () => follower.stop(), SHUTDOWN_ORDER.readiness);
    }
    if (service.drain) lifecycle.onShutdown('drain', () => service.drain?.(), SHUTDOWN_ORDER.readiness);
    lifecycle.onShutdown(options.name, () => service.stop(), SHUTDOWN_ORDER.grpc);
    lifecycle.onShutdown('bus', () => bus.close(), SHUTDOWN_ORDER.bus);
    lifecycle.onShutdown('admin', () => admin.stop(), SHUTDOWN_ORDER.tracing);
    lifecycle.handleSignals();
    logger.info({ adminPort: admin.port }, `${options.name} started`);
  } catch (error) {
    logger.fatal({ err: error }, `${options.name} failed to start`);
    process.exit(1);
  }
}
