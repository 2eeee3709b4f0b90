// Wiring of the diagrams service: migrations, the database pool, the gRPC server and the outbox relay.
// Used by main.ts in cluster mode and by `npm start` in embedded mode.
import path from 'node:path';
import {
  createPool,
  type EventBus,
  type Logger,
  type Metrics,
  migrate,
  OutboxRelay,
  startGrpcServer,
} from '@dss/platform';
import type { DiagramsConfig } from './config';
import { createDiagramsHandlers } from './handlers';
import { SCHEMA } from './repository';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export interface DiagramsServiceDeps {
  config: DiagramsConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
}

export async function startDiagramsService({ config, logger, metrics, bus }: DiagramsServiceDeps) {
  await migrate({ databaseUrl: config.databaseUrl, schema: SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(config.databaseUrl, { applicationName: 'dss-diagrams', schema: SCHEMA, logger });
  const handlers = createDiagramsHandlers({
    pool,
    appUrl: config.appUrl,
    replayWindowSeconds: config.replayWindowSeconds,
  });
  const grpc = await startGrpcServer({
    address: config.grpcAddress,
    services: { Diagrams: handlers },
    logger,
    metrics,
  });
  const relay = new OutboxRelay({ pool, schema: SCHEMA, bus, logger });
  relay.start();
  logger.info({ address: grpc.address }, 'diagrams service listening');

  return {
    grpc,
    pool,
    async readiness() {
      try {
        await pool.query('SELECT 1');
        return { diagrams_postgres: true };
      } catch {
        return { diagrams_postgres: false };
      }
    },
    async stop() {
      grpc.setServing(false);
      await grpc.stop();
      await relay.stop();
      await pool.end();
    },
  };
}

export type DiagramsService = Awaited<ReturnType<typeof startDiagramsService>>;
