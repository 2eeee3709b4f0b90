// The PostgreSQL pool of a service. pg emits 'error' when an idle client loses its connection (a
// database restart, a failover); unhandled, that event would crash the process, so it is logged and the
// pool simply opens a new connection on the next query.
import { Pool, type PoolClient } from 'pg';
import type { Logger } from '../logging';

export interface PoolOptions {
  /** Most connections at once; default 10. */
  max?: number;
  /** Shown in pg_stat_activity, so a DBA can tell services apart. */
  applicationName?: string;
  /**
   * The service's schema: put first on every connection's search_path so queries name tables unqualified
   * and still only ever touch the service's own schema.
   */
  schema?: string;
  /** Where pool errors are logged; without one they go to stderr. */
  logger?: Logger;
}

export function createPool(url: string, options: PoolOptions = {}): Pool {
  const pool = new Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    options: options.schema ? `-c search_path=${options.schema},public` : undefined,
  });
  pool.on('error', (error) => {
    if (options.logger)
      options.logger.warn({ err: error }, 'idle PostgreSQL connection failed; it will be replaced');
    else process.stderr.write(`idle PostgreSQL connection failed: ${error.message}\n`);
  });
  return pool;
}

/** Runs `work` in one transaction: COMMIT when it resolves (returning its value), ROLLBACK when it throws. */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A failed ROLLBACK means the connection is unusable; releasing it as broken makes the pool drop it.
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
