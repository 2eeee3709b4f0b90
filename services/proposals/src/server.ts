// Wiring of the proposals service: migrations, the database pool, the gRPC server, the outbox relay,
// the clients of accounts and diagrams, and the expiry sweeper. Used by main.ts in cluster mode and by
// `npm start` in embedded mode.
import path from 'node:path';
import {
  createServiceClient,
  type EventBus,
  type Logger,
  type Metrics,
  startPersistentService,
} from '@dss/platform';
import type { ProposalsConfig } from './config';
import { createAnnounce, createProposalsHandlers } from './handlers';
import { SCHEMA } from './repository';
import { startSweeper } from './sweeper';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export interface ProposalsServiceDeps {
  config: ProposalsConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
}

export async function startProposalsService({ config, logger, metrics, bus }: ProposalsServiceDeps) {
  const announce = createAnnounce(metrics);
  const accounts = createServiceClient('Accounts', config.accountsAddress, { metrics });
  const diagrams = createServiceClient('Diagrams', config.diagramsAddress, { metrics, deadlineMs: 30_000 });
  const closeClients = () => {
    accounts.close();
    diagrams.close();
  };
  let service: Awaited<ReturnType<typeof startPersistentService>>;
  try {
    service = await startPersistentService({
      name: 'proposals',
      schema: SCHEMA,
      migrationsDir: MIGRATIONS_DIR,
      databaseUrl: config.databaseUrl,
      grpcAddress: config.grpcAddress,
      bus,
      logger,
      metrics,
      handlers: (pool) => ({
        Proposals: createProposalsHandlers({
          pool,
          appUrl: config.appUrl,
          lifetimeSeconds: config.lifetimeSeconds,
          accounts,
          diagrams,
          announce,
        }),
      }),
    });
  } catch (error) {
    closeClients();
    throw error;
  }
  const sweeper = startSweeper(service.pool, config.sweepIntervalMs, announce, (error) =>
    logger.error({ err: error }, 'proposal expiry sweep failed'),
  );
  return {
    ...service,
    async stop() {
      await sweeper.stop();
      await service.stop();
      closeClients();
    },
  };
}

export type ProposalsService = Awaited<ReturnType<typeof startProposalsService>>;
