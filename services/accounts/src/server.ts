// Wiring of the accounts service: database and migrations, signing keys, plans, the gRPC server and the
// outbox relay. Used by main.ts in cluster mode and by `npm start` in embedded mode.
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
  await migrate({ databaseUrl: config.databaseUrl, schema: SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(config.databaseUrl, { applicationName: 'dss-accounts' });
  const keys = loadSigningKeys({
    keyFile: config.signingKeyFile,
    previousPublicKeysFile: config.previousPublicKeysFile,
  });
  const handlers = createAccountsHandlers({ pool, plans: loadPlans(config.plansFile), keys });
  const grpc = await startGrpcServer({
    address: config.grpcAddress,
    services: { Accounts: handlers },
    logger,
    metrics,
  });
  const relay = new OutboxRelay({ pool, schema: SCHEMA, bus, logger });
  relay.start();
  logger.info({ address: grpc.address }, 'accounts service listening');

  return {
    grpc,
    pool,
    handlers,
    async readiness() {
      try {
        await pool.query('SELECT 1');
        return { postgres: true };
      } catch {
        return { postgres: false };
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

export type AccountsService = Awaited<ReturnType<typeof startAccountsService>>;
