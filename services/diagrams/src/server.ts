// Wiring of the diagrams service: migrations, the database pool, the gRPC server, the outbox relay and
// the subscription that wakes creates waiting for their import.
// Used by main.ts in cluster mode and by `npm start` in embedded mode.
import path from 'node:path';
import { type EventBus, type Logger, type Metrics, startPersistentService } from '@dss/platform';
import type { DiagramsConfig } from './config';
import { IMPORT_FINISHED_SUBJECT } from './create-diagram';
import { CreateLayouts } from './create-layout';
import { createDiagramsHandlers } from './handlers';
import { ImportRecovery } from './import-recovery';
import { ImportWaiters } from './import-waiters';
import { SCHEMA } from './repository';
import { startTrashSweeper } from './sweeper';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export interface DiagramsServiceDeps {
  config: DiagramsConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
  /** The clock of the trash period; tests inject one to move past it. */
  now?: () => Date;
}

export async function startDiagramsService({
  config,
  logger,
  metrics,
  bus,
  now = () => new Date(),
}: DiagramsServiceDeps) {
  const importWaiters = new ImportWaiters();
  await importWaiters.start(bus, IMPORT_FINISHED_SUBJECT);
  const layouts = new CreateLayouts({ threads: config.layoutThreads });
  const service = await startPersistentService({
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
        importWaiters,
        layouts,
        now,
      }),
    }),
  }).catch(async (error: unknown) => {
    await importWaiters.stop();
    layouts.close();
    throw error;
  });
  const recovery = new ImportRecovery(
    service.pool,
    {
      pool: service.pool,
      appUrl: config.appUrl,
      replayWindowSeconds: config.replayWindowSeconds,
      importWaiters,
      layouts,
    },
    bus,
    logger,
  );
  await recovery.start();
  const sweeper = startTrashSweeper(service.pool, config.trashSweepIntervalMs, now, (error) =>
    logger.error({ err: error }, 'trash sweep failed'),
  );
  return {
    ...service,
    recovery,
    async stop() {
      await sweeper.stop();
      await recovery.stop();
      await service.stop();
      await importWaiters.stop();
      layouts.close();
    },
  };
}

export type DiagramsService = Awaited<ReturnType<typeof startDiagramsService>>;
