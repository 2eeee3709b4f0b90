// Wiring of the notifications service: migrations, the database pool, the gRPC server, the intake (bus
// consumers that store deliveries) and the dispatcher (the sender). Used by main.ts in cluster mode and by
// `npm start` in embedded mode.
import path from 'node:path';
import { type EventBus, type Logger, type Metrics, startPersistentService } from '@dss/platform';
import type { NotificationsConfig } from './config';
import { startDispatcher } from './dispatcher';
import { createNotificationsHandlers } from './handlers';
import { startIntake } from './intake';
import { SCHEMA } from './repository';
import { loadSecretKeys, sealSecrets } from './secret-keys';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export interface NotificationsServiceDeps {
  config: NotificationsConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
}

export async function startNotificationsService({ config, logger, metrics, bus }: NotificationsServiceDeps) {
  const secretKeys = loadSecretKeys(config.secretKeysFile);
  let wake = () => {};
  const service = await startPersistentService({
    name: 'notifications',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    databaseUrl: config.databaseUrl,
    grpcAddress: config.grpcAddress,
    bus,
    logger,
    metrics,
    handlers: (pool) => ({
      Notifications: createNotificationsHandlers({
        pool,
        allowList: config.allowList,
        retryWindowSeconds: config.retryWindowSeconds,
        secretOverlapSeconds: config.secretOverlapSeconds,
        secretKeys,
        wake: () => wake(),
      }),
    }),
  });
  try {
    const sealed = await sealSecrets(service.pool, secretKeys);
    if (sealed > 0) logger.info({ endpoints: sealed }, 'webhook secrets encrypted with the current key');
  } catch (error) {
    await service.stop();
    throw error;
  }
  const dispatcher = startDispatcher({
    pool: service.pool,
    logger,
    metrics,
    allowList: config.allowList,
    secretKeys,
    retryBaseMs: config.retryBaseMs,
    retryWindowSeconds: config.retryWindowSeconds,
    pollIntervalMs: config.pollIntervalMs,
  });
  wake = dispatcher.wake;
  let intake: Awaited<ReturnType<typeof startIntake>>;
  try {
    intake = await startIntake({
      bus,
      pool: service.pool,
      logger,
      appUrl: config.appUrl,
      retryWindowSeconds: config.retryWindowSeconds,
      stored: dispatcher.wake,
    });
  } catch (error) {
    await dispatcher.stop();
    await service.stop();
    throw error;
  }
  return {
    ...service,
    async stop() {
      await intake.stop();
      await dispatcher.stop();
      await service.stop();
    },
  };
}

export type NotificationsService = Awaited<ReturnType<typeof startNotificationsService>>;
