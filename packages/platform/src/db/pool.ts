// The PostgreSQL pool of a service. pg emits 'error' when an idle client loses its connection (a
// database restart, a failover); unhandled, that event would crash the process, so it is logged and the
// pool simply opens a new connection on the next query.
import { Pool, type PoolClient } from 'pg';
import type { BusLogger } from '../bus/types';
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
      logDatabaseError(options.logger, error, 'idle PostgreSQL connection failed; it will be replaced');
    else if (!isServerShutdown(error))
      process.stderr.write(`idle PostgreSQL connection failed: ${error.message}\n`);
  });
  return pool;
}

/**
 * SQLSTATEs PostgreSQL sends while it shuts down or restarts: admin_shutdown (the server was told to stop,
 * e.g. Ctrl-C on `npm start` reaches the embedded server too), crash_shutdown and cannot_connect_now.
 */
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);

/** True for the errors of a PostgreSQL server that is shutting down or starting: expected, and retried. */
export function isServerShutdown(error: unknown): boolean {
  return SHUTDOWN_CODES.has((error as { code?: string } | null)?.code ?? '');
}

/**
 * Logs a database error at warn with its stack, except a server shutdown, which is expected noise (a
 * restart, a failover, Ctrl-C) and goes to debug, one line without the stack.
 */
export function logDatabaseError(
  logger: Pick<Logger, 'debug' | 'warn'> | Pick<BusLogger, 'debug' | 'warn'>,
  error: unknown,
  message: string,
  fields: object = {},
): void {
  if (isServerShutdown(error)) {
    const { code, message: reason } = error as { code: string; message: string };
    logger.debug({ ...fields, code, reason }, message);
  } else logger.warn({ ...fields, err: error }, message);
}

/** Runs `work` in one transaction: COMMIT when it resolves (returning its value), ROLLBACK when it throws. */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client whose connection drops (the server stops or restarts) emits 'error', and without a
  // listener that would crash the process; the failing query rejects with the same error anyway.
  let broken: Error | boolean = false;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A failed ROLLBACK means the connection is unusable; releasing it as broken makes the pool drop it.
    await client.query('ROLLBACK').catch(() => {
      broken ||= true;
    });
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
