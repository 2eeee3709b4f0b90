export { type MigrateOptions, type MigrationResult, MIGRATION_LOCK_KEY, migrate } from './migrate';
export { createPool, isServerShutdown, logDatabaseError, type PoolOptions, withTransaction } from './pool';
