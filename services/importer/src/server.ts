// Wiring of the importer service: a consumer of `importer.jobs` (queue `importers`) that converts each
// job's DDL in a pool of long-lived worker threads (@dss/ddl's ConversionPool) and reports the outcome to
// diagrams.CompleteImport, and a gRPC server with health and ParseDdl (a direct parse in the same pool,
// for tooling, tests and the web editor's DBML pane). It holds nothing durable.
import { type Conversion, ConversionPool, type DdlDriver } from '@dss/ddl';
import { lineRoomStep } from '@dss/diagram-svg';
import {
  type BusMessage,
  type BusSubscription,
  createServiceClient,
  type EventBus,
  isServiceError,
  type Logger,
  type Metrics,
  ServiceError,
  startGrpcServer,
} from '@dss/platform';
import type { ImporterConfig } from './config';

export const IMPORTER_QUEUE = 'importers';
export const IMPORTER_JOBS_SUBJECT = 'importer.jobs';
/** Deliveries before a job that keeps crashing its worker is given up as `ddl_import_crashed`. */
export const JOB_MAX_DELIVER = 3;
/**
 * In-progress acknowledgements every 5 s while a job converts: a live worker keeps its job for as long as
 * DSS_IMPORT_ACK_WAIT_MS, a dead one's (killed pod, lost node) is redelivered after 15 s instead.
 */
export const JOB_HEARTBEAT_MS = 5_000;

/** The heartbeat for an ack wait: JOB_HEARTBEAT_MS, or a third of the wait when that is shorter. */
export function jobHeartbeatMs(ackWaitMs: number): number {
  return Math.max(1, Math.min(JOB_HEARTBEAT_MS, Math.floor(ackWaitMs / 3)));
}

const DRIVERS = new Set(['mysql', 'pgsql', 'sqlsrv']);
/** Seconds; conversions take from a few milliseconds to the 30 s default time limit. */
const IMPORT_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

export interface ImportJob {
  job_id: string;
  diagram_uuid: string;
  driver: string;
  ddl: string;
  /** `dbml` when the diagram was created from DBML; absent (older jobs) or `sql` for DDL. */
  format?: 'sql' | 'dbml';
}

export interface ImporterServiceDeps {
  config: ImporterConfig;
  logger: Logger;
  metrics: Metrics;
  bus: EventBus;
}

export async function startImporterService({ config, logger, metrics, bus }: ImporterServiceDeps) {
  const diagrams = createServiceClient('Diagrams', config.diagramsAddress);
  const started = metrics.counter('importer_jobs_started_total', 'DDL import jobs started');
  const finished = metrics.counter('importer_jobs_finished_total', 'DDL import jobs finished by outcome', [
    'outcome',
  ]);
  const durations = metrics.histogram(
    'importer_job_duration_seconds',
    'DDL conversion time per job',
    ['outcome'],
    IMPORT_DURATION_BUCKETS,
  );
  const pool = new ConversionPool({
    size: config.workers,
    timeoutMs: config.importTimeoutMs,
    maxOldGenerationSizeMb: config.workerMaxHeapMb,
    warmUp: config.warmUp,
    sqlsrvIdleMs: config.sqlsrvIdleMs,
    parseThreads: config.parseThreads,
    // A large schema's lines get room where the routed drawing lacks it (diagram-svg's line-room.ts).
    finishLayout: lineRoomStep,
  });
  const inFlight = metrics.gauge('importer_jobs_in_flight', 'DDL import jobs being converted now');
  const queued = metrics.gauge(
    'importer_jobs_queued',
    'DDL import jobs this importer has taken that wait for a free conversion worker',
  );
  const sampleGauges = () => {
    inFlight.set(pool.busy);
    queued.set(pool.queued);
  };

  const timeoutError = {
    code: 'ddl_timeout',
    message: `the DDL could not be converted within ${Math.round(config.importTimeoutMs / 1000)} s`,
  };

  const complete = async (
    job: ImportJob,
    outcome: string,
    report:
      | {
          document_json: string;
          warnings: { total: number; items: Extract<Conversion, { ok: true }>['warnings'] };
        }
      | { error: { code: string; message: string } },
  ) => {
    try {
      await diagrams.CompleteImport({ diagram_uuid: job.diagram_uuid, job_id: job.job_id, ...report });
    } catch (error) {
      // A diagram that no longer exists has nobody to tell; anything else is retried by redelivery.
      if (!(isServiceError(error) && (error.code === 'not_found' || error.code === 'invalid_request')))
        throw error;
      logger.warn({ err: error, job_id: job.job_id }, 'import completion refused');
    }
    finished.inc({ outcome });
  };

  const handleJob = async (message: BusMessage) => {
    const job = message.data as ImportJob;
    if (!job || typeof job.job_id !== 'string' || typeof job.diagram_uuid !== 'string') {
      logger.error({ subject: message.subject }, 'malformed import job dropped');
      return;
    }
    started.inc();
    const began = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - began) / 1e9;
    if (!DRIVERS.has(job.driver) || typeof job.ddl !== 'string') {
      await complete(job, 'failed', {
        error: { code: 'ddl_internal_error', message: 'the job names no known driver' },
      });
      return;
    }
    const converting = pool.convert(job.driver as DdlDriver, job.ddl, job.format === 'dbml' ? 'dbml' : 'sql');
    sampleGauges();
    const outcome = await converting.finally(sampleGauges);
    if (outcome.kind === 'timeout') {
      durations.observe({ outcome: 'timeout' }, seconds());
      await complete(job, 'timeout', { error: timeoutError });
      return;
    }
    const result = outcome.result;
    if (result.ok) {
      durations.observe({ outcome: 'ready' }, seconds());
      // What the conversion skipped or changed travels with the document and is stored on the diagram.
      await complete(job, 'ready', {
        document_json: result.document_json,
        warnings: { total: result.warnings_total, items: result.warnings },
      });
    } else {
      durations.observe({ outcome: 'failed' }, seconds());
      await complete(job, 'failed', { error: { code: result.code, message: result.message } });
    }
  };

  const consumer: BusSubscription = await bus.consume(IMPORTER_QUEUE, IMPORTER_JOBS_SUBJECT, handleJob, {
    ackWaitMs: config.jobAckWaitMs,
    // Three in-progress acks fit in the ack wait however short it is configured: sent only as often as
    // the wait itself, the first one lands just as the server gives up, and a live worker's job goes to
    // another worker while it still converts (three such deliveries end as ddl_import_crashed).
    heartbeatMs: jobHeartbeatMs(config.jobAckWaitMs),
    maxDeliver: JOB_MAX_DELIVER,
    concurrency: config.workers,
    onDeadLetter: async (message) => {
      const job = message.data as ImportJob;
      logger.error({ job_id: job?.job_id, deliveries: message.deliveryCount }, 'import job kept crashing');
      if (!job || typeof job.job_id !== 'string') return;
      await complete(job, 'crashed', {
        error: {
          code: 'ddl_import_crashed',
          message: 'the import crashed repeatedly; the DDL could not be converted',
        },
      });
    },
  });

  const grpc = await startGrpcServer({
    address: config.grpcAddress,
    services: {
      Importer: {
        ParseDdl: async (request) => {
          if (!DRIVERS.has(request.driver))
            throw new ServiceError('invalid_request', 'driver must be mysql, pgsql or sqlsrv');
          // The same workers, time limit and heap cap as the jobs, so a direct parse cannot stall this
          // process either.
          if (request.format !== '' && request.format !== 'sql' && request.format !== 'dbml')
            throw new ServiceError('invalid_request', 'format must be sql or dbml');
          const outcome = await pool.convert(
            request.driver as DdlDriver,
            request.ddl,
            request.format === 'dbml' ? 'dbml' : 'sql',
          );
          if (outcome.kind === 'timeout')
            return {
              error_code: timeoutError.code,
              error_message: timeoutError.message,
              skipped_statements: 0,
            };
          const result = outcome.result;
          return result.ok
            ? {
                document_json: result.document_json,
                skipped_statements: result.skipped,
                warnings: { total: result.warnings_total, items: result.warnings },
              }
            : {
                error_code: result.code,
                error_message: result.message,
                skipped_statements: 0,
                ...(result.line !== undefined
                  ? { error_line: result.line, error_column: result.column ?? 1 }
                  : {}),
              };
        },
      },
    },
    logger,
    metrics,
  });
  logger.info({ address: grpc.address, workers: config.workers }, 'importer service listening');
  return {
    grpc,
    /** The conversion workers (benchmarks wait for their warm-up). */
    pool,
    async readiness() {
      return { importer: true };
    },
    async stop() {
      grpc.setServing(false);
      await consumer.unsubscribe();
      await pool.close();
      await grpc.stop();
      diagrams.close();
    },
  };
}

export type ImporterService = Awaited<ReturnType<typeof startImporterService>>;
