// Schema migrations with node-pg-migrate's programmatic runner. Each service owns one PostgreSQL schema
// (created if missing) holding its tables and its own migrations table; its migrations are the .sql or
// .js files of its migrations/ directory, applied in name order in one transaction.
//
// Several processes may start at once (replicas, or every service of embedded mode). node-pg-migrate's
// own lock is pg_try_advisory_lock on one fixed key and it *fails* with "Another migration is already
// running" when the key is taken, so instead we wait on our own blocking advisory lock on the same
// connection and run the runner with its lock off: the second process waits, then finds nothing to do.
import { Client } from 'pg';
import { runner } from 'node-pg-migrate';
import type { Logger } from '../logging';

/** Advisory-lock key shared by every DSS migration run, whatever the schema: runs are serialised. */
export const MIGRATION_LOCK_KEY = 4_517_203_981;

export interface MigrateOptions {
  databaseUrl: string;
  /** The service's schema, e.g. `accounts`. */
  schema: string;
  migrationsDir: string;
  logger: Logger;
}

export interface MigrationResult {
  /** Names of the migrations applied by this run (empty when the schema was up to date). */
  applied: string[];
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export async function migrate(options: MigrateOptions): Promise<MigrationResult> {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`invalid schema name "${options.schema}"`);
  const client = new Client({
    connectionString: options.databaseUrl,
    application_name: `migrate:${options.schema}`,
  });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await runner({
        dbClient: client,
        noLock: true,
        dir: options.migrationsDir,
        schema: options.schema,
        createSchema: true,
        migrationsSchema: options.schema,
        migrationsTable: 'pgmigrations',
        direction: 'up',
        count: Number.POSITIVE_INFINITY,
        checkOrder: true,
        singleTransaction: true,
        verbose: false,
        logger: runnerLogger(options.logger, options.schema),
      });
      const names = applied.map((migration) => migration.name);
      options.logger.info({ schema: options.schema, applied: names }, 'migrations done');
      return { applied: names };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

function runnerLogger(logger: Logger, schema: string) {
  const child = logger.child({ schema, component: 'migrate' });
  return {
    debug: (message: string) => child.debug(message),
    info: (message: string) => child.debug(message),
    warn: (message: string) => child.warn(message),
    error: (message: string) => child.error(message),
  };
}
