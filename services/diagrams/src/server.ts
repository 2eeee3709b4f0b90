// Wiring of the diagrams service: migrations, the database pool, the gRPC server and the outbox relay.
// Used by main.ts in cluster mode and by `npm start` in embedded mode.
import path from 'node:path';
import { type EventBus, type Logger, type Metrics, startPersistentService } from '@dss/platform';
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
  return startPersistentService({
    name: 'diagrams',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    databaseUrl: config.databaseUrl,
    grpcAddress: config.grpcAddress,
    bus,
    logger,
    metrics,
    handlers: (pool) => ({
      Diagrams: createDiagramsHandlers({
        pool,
        appUrl: config.appUrl,
        replayWindowSeconds: config.replayWindowSeconds,
      }),
    }),
  });
}

export type DiagramsService = Awaited<ReturnType<typeof startDiagramsService>>;
