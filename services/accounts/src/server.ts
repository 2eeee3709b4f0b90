// Wiring of the accounts service: signing keys and plans, then the shared persistent-service wiring
// (migrations, pool, gRPC server, outbox relay), the audit log's intake and its retention sweeper. Used by main.ts in cluster mode and by `npm start` in embedded mode.
import path from 'node:path';
import { type EventBus, type Logger, type Metrics, startPersistentService } from '@dss/platform';
import { consumeAuditEntries, startAuditRetentionSweeper } from './audit-log';
import type { AccountsConfig } from './config';
import { createAccountsHandlers } from './handlers';
import { loadPlans } from './plans';
import { SCHEMA } from './repository';
import { loadSigningKeys } from './signing-keys';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export interface AccountsServiceDeps {
  config: AccountsConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
}

export async function startAccountsService({ config, logger, metrics, bus }: AccountsServiceDeps) {
  const keys = loadSigningKeys({
    keyFile: config.signingKeyFile,
    previousPublicKeysFile: config.previousPublicKeysFile,
  });
  const plans = loadPlans(config.plansFile);
  const service = await startPersistentService({
    name: 'accounts',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    databaseUrl: config.databaseUrl,
    grpcAddress: config.grpcAddress,
    bus,
    logger,
    metrics,
    handlers: (pool) => ({ Accounts: createAccountsHandlers({ pool, plans, keys }) }),
  });
  const auditIntake = await consumeAuditEntries(bus, service.pool);
  const auditSweeper = startAuditRetentionSweeper(
    service.pool,
    config.auditRetentionDays,
    config.auditSweepIntervalMs,
    (error) => logger.error({ err: error }, 'audit retention sweep failed'),
  );
  return {
    ...service,
    async stop() {
      await auditSweeper.stop();
      await auditIntake.unsubscribe();
      await service.stop();
    },
  };
}

export type AccountsService = Awaited<ReturnType<typeof startAccountsService>>;
