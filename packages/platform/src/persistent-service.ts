// The wiring every service that owns PostgreSQL tables shares: run its migrations in its own schema,
// open its pool, serve its gRPC handlers, relay its outbox to the bus, report readiness and stop in
// order (stop taking calls, stop relaying, close the pool).
import type { Pool } from 'pg';
import type { EventBus } from './bus';
import { createPool, migrate } from './db';
import { type DssServiceDefinitions, type GrpcServer, type HandlersOf, startGrpcServer } from './grpc';
import type { Logger } from './logging';
import type { Metrics } from './metrics';
import { OutboxRelay } from './outbox';

export interface PersistentServiceOptions {
  /** Service name, used for the pool's application name, logs and the readiness check. */
  name: string;
  /** The PostgreSQL schema the service owns. */
  schema: string;
  migrationsDir: string;
  databaseUrl: string;
  grpcAddress: string;
  bus: EventBus;
  logger: Logger;
  metrics: Metrics;
  /** Builds the gRPC handlers once the pool is open. */
  handlers: (
    pool: Pool,
  ) => Partial<{ [S in keyof DssServiceDefinitions]: HandlersOf<DssServiceDefinitions[S]> }>;
}

export interface PersistentService {
  grpc: GrpcServer;
  pool: Pool;
  readiness(): Promise<Record<string, boolean>>;
  stop(): Promise<void>;
}

export async function startPersistentService(options: PersistentServiceOptions): Promise<PersistentService> {
  const { name, schema, logger } = options;
  await migrate({ databaseUrl: options.databaseUrl, schema, migrationsDir: options.migrationsDir, logger });
  const pool = createPool(options.databaseUrl, { applicationName: `dss-${name}`, schema, logger });
  const grpc = await startGrpcServer({
    address: options.grpcAddress,
    services: options.handlers(pool),
    logger,
    metrics: options.metrics,
  });
  const relay = new OutboxRelay({ pool, schema, bus: options.bus, logger });
  relay.start();
  logger.info({ address: grpc.address }, `${name} service listening`);

  return {
    grpc,
    pool,
    async readiness() {
      const check = `${name}_postgres`;
      try {
        await pool.query('SELECT 1');
        return { [check]: true };
      } catch {
        return { [check]: false };
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
