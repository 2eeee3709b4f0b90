// Configuration of the importer service, read from the environment and validated at start.
import { ConfigError, DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';

const DIALECTS = ['pgsql', 'mysql', 'sqlsrv'] as const;
type Dialect = (typeof DIALECTS)[number];

/**
 * DSS_IMPORT_WARM_UP: the dialects whose parsers a worker loads and warms before its first job. `true` is
 * all three, `false` none, or a comma-separated list. The default warms PostgreSQL and MySQL (light, about
 * 60MB together) and leaves SQL Server (about 100MB once loaded) to its first job.
 */
function warmUpDialects(source: NodeJS.ProcessEnv): Dialect[] {
  const raw = source['DSS_IMPORT_WARM_UP']?.trim();
  if (raw === undefined || raw === '') return ['pgsql', 'mysql'];
  if (['true', '1', 'yes', 'on'].includes(raw.toLowerCase())) return [...DIALECTS];
  if (['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return [];
  const list = raw.split(',').map((part) => part.trim().toLowerCase());
  const wrong = list.filter((part) => !(DIALECTS as readonly string[]).includes(part));
  if (wrong.length > 0)
    throw new ConfigError(
      `DSS_IMPORT_WARM_UP must be true, false or a list of pgsql, mysql, sqlsrv, got "${raw}"`,
    );
  return DIALECTS.filter((dialect) => list.includes(dialect));
}

export type ImporterConfig = ReturnType<typeof readImporterConfig>;

export function readImporterConfig(source: NodeJS.ProcessEnv = process.env) {
  return {
    grpcAddress: env.address('DSS_IMPORTER_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.importer, source),
    diagramsAddress: env.grpcTarget('DSS_DIAGRAMS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.diagrams, source),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /** A conversion running longer is terminated and its diagram fails with `ddl_timeout`. */
    importTimeoutMs: env.int('DSS_IMPORT_TIMEOUT_MS', { default: 30_000, min: 1, max: 600_000 }, source),
    /** A job unacknowledged this long is redelivered to another importer (a stalled or killed one). */
    jobAckWaitMs: env.int('DSS_IMPORT_ACK_WAIT_MS', { default: 60_000, min: 100, max: 3_600_000 }, source),
    /** Heap cap of a conversion worker; a worker that exceeds it crashes and its job is redelivered. */
    workerMaxHeapMb: env.int('DSS_IMPORT_MAX_HEAP_MB', { default: 1024, min: 4, max: 16_384 }, source),
    /** Conversion workers kept running; also how many jobs this importer takes from the queue at once. */
    workers: env.int('DSS_IMPORT_WORKERS', { default: 1, min: 1, max: 64 }, source),
    /** Threads per worker that parse a SQL Server script's tables in parallel (each holds ~450MB warm). */
    parseThreads: env.int('DSS_IMPORT_PARSE_THREADS', { default: 1, min: 1, max: 16 }, source),
    /** Dialects converted as a sample when the workers start (their parsers loaded before the first job). */
    warmUp: warmUpDialects(source),
    /** SQL Server's parser thread is closed after this long without work, unless SQL Server is warmed up. */
    sqlsrvIdleMs: env.int('DSS_IMPORT_SQLSRV_IDLE_MS', { default: 300_000, min: 0, max: 86_400_000 }, source),
  };
}
