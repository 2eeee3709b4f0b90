export { type MigrateOptions, type MigrationResult, MIGRATION_LOCK_KEY, migrate } from './migrate';
export { createPool, type PoolOptions, withTransaction } from './pool';
