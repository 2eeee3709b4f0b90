// Every accepted DDL import finishes, in every run mode. The job leaves through the outbox in the same
// transaction as the `importing` diagram; with NATS, JetStream keeps it until an importer acks it. The
// in-process bus keeps it in memory only, so a process killed or stopped mid-import would leave the
// diagram `importing` forever. Here the diagrams service hands such jobs out again from their outbox row
// (published rows are kept for days): at start for every importing diagram when the bus is in-process
// (nothing can still be working on it), and periodically for jobs that have not been handed out for a
// while, as JetStream would redeliver them. A job past the give-up age becomes `failed` with a clear code.
// Handing a job out twice is safe: CompleteImport only changes an importing diagram with that job id.
import { enqueueEvent, type EventBus, type Logger, MemoryEventBus, withTransaction } from '@dss/platform';
import type { Pool } from 'pg';
import { type CreateContext, completeImport, IMPORTER_JOBS_SUBJECT } from './create-diagram';
import { SCHEMA } from './repository';

export interface ImportRecoveryOptions {
  /** How long a handed-out job may go without finishing before it is handed out again (in-process bus). */
  redispatchAfterMs: number;
  /** How long after its create an import that has not finished becomes `failed`. */
  giveUpAfterMs: number;
  /** How often to look. */
  everyMs: number;
}

export const DEFAULT_RECOVERY: ImportRecoveryOptions = {
  redispatchAfterMs: 2 * 60_000,
  giveUpAfterMs: 15 * 60_000,
  everyMs: 30_000,
};

interface StuckImport {
  uuid: string;
  job_id: string;
  created_ms: number;
  job: unknown;
  last_dispatch_ms: number | null;
}

export class ImportRecovery {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly inProcess: boolean;

  constructor(
    private readonly pool: Pool,
    private readonly context: CreateContext,
    bus: EventBus,
    private readonly logger: Logger,
    private readonly options: ImportRecoveryOptions = DEFAULT_RECOVERY,
  ) {
    this.inProcess = bus instanceof MemoryEventBus;
  }

  /** The start-up pass (everything importing, when the bus is in-process), then the periodic one. */
  async start(): Promise<void> {
    await this.pass(this.inProcess ? 0 : null);
    this.timer = setInterval(() => {
      this.running ??= this.pass(this.inProcess ? this.options.redispatchAfterMs : null)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'import recovery pass failed'))
        .finally(() => {
          this.running = null;
        });
    }, this.options.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * One pass: imports older than the give-up age fail; with `redispatchAfterMs` set, the others whose
   * job was last handed out longer ago than that are handed out again.
   */
  async pass(redispatchAfterMs: number | null): Promise<void> {
    const stuck = await this.findImporting();
    const now = Date.now();
    let redispatched = 0;
    let failed = 0;
    for (const row of stuck) {
      if (now - row.created_ms > this.options.giveUpAfterMs || row.job === null) {
        await completeImport(this.context, {
          diagram_uuid: row.uuid,
          job_id: row.job_id,
          error: {
            code: 'ddl_import_interrupted',
            message:
              'the import could not finish (the importer stopped or kept failing); create the diagram again',
          },
        }).catch((error: unknown) =>
          this.logger.warn({ err: error, diagram: row.uuid }, 'could not fail a stuck import'),
        );
        failed++;
        continue;
      }
      if (redispatchAfterMs === null) continue;
      if (row.last_dispatch_ms !== null && now - row.last_dispatch_ms < redispatchAfterMs) continue;
      await withTransaction(this.pool, (client) =>
        enqueueEvent(client, SCHEMA, IMPORTER_JOBS_SUBJECT, row.job),
      );
      redispatched++;
    }
    if (redispatched + failed > 0)
      this.logger.info({ redispatched, failed }, 'recovered unfinished DDL imports');
  }

  private async findImporting(): Promise<StuckImport[]> {
    const { rows } = await this.pool.query<{
      uuid: string;
      job_id: string;
      created_ms: string;
      job: unknown;
      last_dispatch_ms: string | null;
    }>(
      `SELECT d.uuid, d.import_job_id AS job_id,
              (extract(epoch FROM d.created_at) * 1000)::bigint AS created_ms,
              (SELECT o.payload FROM ${SCHEMA}.outbox o
                WHERE o.subject = $1 AND o.payload->>'job_id' = d.import_job_id::text
                ORDER BY o.position DESC LIMIT 1) AS job,
              (SELECT (extract(epoch FROM max(coalesce(o.published_at, o.created_at))) * 1000)::bigint
                 FROM ${SCHEMA}.outbox o
                WHERE o.subject = $1 AND o.payload->>'job_id' = d.import_job_id::text) AS last_dispatch_ms
         FROM ${SCHEMA}.diagrams d
        WHERE d.status = 'importing' AND d.import_job_id IS NOT NULL
        ORDER BY d.created_at
        LIMIT 1000`,
      [IMPORTER_JOBS_SUBJECT],
    );
    return rows.map((row) => ({
      uuid: row.uuid,
      job_id: row.job_id,
      created_ms: Number(row.created_ms),
      job: row.job,
      last_dispatch_ms: row.last_dispatch_ms === null ? null : Number(row.last_dispatch_ms),
    }));
  }
}
