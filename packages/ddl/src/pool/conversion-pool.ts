// A pool of long-lived conversion workers (worker_threads). Each worker runs one conversion at a time
// under a heap cap; a conversion over the time limit gets its worker terminated (and replaced), a crash
// (out of memory, exit) rejects the job, so it is redelivered, and the worker is replaced. Workers stay
// up between jobs because loading the parsers and warming ANTLR's caches costs more than most
// conversions: a fresh worker per job paid it every time (the first SQL Server parse in a thread is
// several times slower than the next).
import { Worker } from 'node:worker_threads';
import type { DdlDriver, SourceFormat } from '../result';
import type { ConversionRequest, ConvertWorkerData, LayoutFinish } from './convert-worker';

export type { LayoutFinish } from './convert-worker';
import { YOUNG_GENERATION_MB } from './limits';
import { type Conversion, type ConversionOutcome, workerEntry } from './run-conversion';

export interface ConversionPoolOptions {
  size: number;
  timeoutMs: number;
  maxOldGenerationSizeMb: number;
  /**
   * Convert a sample of these dialects when a worker starts, before its first job (`true`: all three,
   * `false`: none). A dialect not warmed up loads its parser on its first job.
   */
  warmUp: boolean | DdlDriver[];
  /** Close the SQL Server parser thread after this long without work (default 5 min; 0: keep it). */
  sqlsrvIdleMs?: number;
  /** Threads per worker parsing a SQL Server script's tables or a MySQL script's statements (itself plus helpers). */
  parseThreads?: number;
  /**
   * A last step of the layout, run by the workers on each converted document: the function `name` that the
   * module `module` exports, from document to document. The services pass @dss/diagram-svg's
   * `makeRoomForLines` (room for the lines where the routed drawing lacks it), a step that needs the router,
   * which this package cannot depend on (the router's package depends on this one).
   */
  finishLayout?: LayoutFinish;
}

interface Job {
  id: number;
  driver: DdlDriver;
  ddl: string;
  format: SourceFormat;
  resolve: (outcome: ConversionOutcome) => void;
  reject: (error: Error) => void;
}

interface Slot {
  /** null after a crash, a timeout or at start without warm-up: a worker is started when a job needs it. */
  worker: Worker | null;
  job: Job | null;
  timer?: NodeJS.Timeout;
  /** Resolved when the worker has finished its warm-up (or died). */
  ready: Promise<void>;
}

export class ConversionPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  private readonly warmUpDrivers: DdlDriver[];

  constructor(private readonly options: ConversionPoolOptions) {
    this.warmUpDrivers =
      options.warmUp === true ? ['pgsql', 'mysql', 'sqlsrv'] : options.warmUp === false ? [] : options.warmUp;
    for (let i = 0; i < options.size; i++) {
      const slot: Slot = { worker: null, job: null, ready: Promise.resolve() };
      this.slots.push(slot);
      // Warm workers start now, so the first job finds the parsers loaded.
      if (this.warmUpDrivers.length > 0) this.start(slot);
    }
  }

  /** The time limit of one conversion. */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** Jobs running in a worker now. */
  get busy(): number {
    return this.slots.filter((slot) => slot.job !== null).length;
  }

  /** Jobs waiting for a free worker. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves when every started worker has finished its warm-up (for benchmarks and tests). */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  /** Converts a script: SQL DDL, or DBML (`format: 'dbml'`) imported as the DDL it is written as. */
  convert(driver: DdlDriver, ddl: string, format: SourceFormat = 'sql'): Promise<ConversionOutcome> {
    if (this.closed) return Promise.reject(new Error('the conversion pool is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, driver, ddl, format, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the conversion pool is closed');
    for (const job of this.waiting.splice(0)) job.reject(error);
    await Promise.all(this.slots.map((slot) => this.stop(slot, error)));
  }

  private start(slot: Slot): Worker {
    const worker = new Worker(workerEntry(), {
      workerData: {
        role: 'converter',
        warmUp: this.warmUpDrivers,
        sqlsrvIdleMs: this.options.sqlsrvIdleMs ?? 300_000,
        parseThreads: this.options.parseThreads ?? 1,
        maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb,
        ...(this.options.finishLayout ? { finishLayout: this.options.finishLayout } : {}),
      } satisfies ConvertWorkerData,
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
    });
    let markReady!: () => void;
    slot.worker = worker;
    slot.ready = new Promise((resolve) => (markReady = resolve));
    worker.on('message', (message: { ready?: true; id?: number; result?: Conversion; crash?: string }) => {
      if (message.ready) {
        // Idle and warm: it no longer keeps the process alive.
        if (!slot.job) worker.unref();
        return markReady();
      }
      const job = slot.job;
      if (!job || message.id !== job.id) return;
      this.release(slot);
      if (message.result) job.resolve({ kind: 'converted', result: message.result });
      else job.reject(new Error(`conversion crashed: ${message.crash ?? 'unknown error'}`));
      this.dispatch();
    });
    const died = (error: Error) => {
      markReady();
      if (slot.worker !== worker) return;
      void this.stop(slot, error).then(() => this.dispatch());
    };
    worker.once('error', died);
    worker.once('exit', (code) =>
      died(new Error(`conversion worker exited with code ${code} before answering`)),
    );
    // A worker keeps the process alive while it warms up or converts, not while it idles.
    if (this.warmUpDrivers.length === 0) worker.unref();
    return worker;
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (slot.job) continue;
      const job = this.waiting.shift()!;
      const worker = slot.worker ?? this.start(slot);
      slot.job = job;
      worker.ref();
      // The time limit is the conversion's: it starts once the worker has finished its warm-up.
      void slot.ready.then(() => {
        if (slot.job !== job) return;
        slot.timer = setTimeout(() => {
          this.release(slot);
          job.resolve({ kind: 'timeout' });
          void this.stop(slot).then(() => this.dispatch());
        }, this.options.timeoutMs);
      });
      const request: ConversionRequest = { id: job.id, driver: job.driver, ddl: job.ddl, format: job.format };
      worker.postMessage(request);
    }
  }

  private release(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.job = null;
    slot.worker?.unref();
  }

  /** Terminates a slot's worker, failing its job (if any) with `error`; the next job starts a fresh one. */
  private async stop(slot: Slot, error: Error = new Error('conversion worker stopped')): Promise<void> {
    const { worker, job } = slot;
    slot.worker = null;
    if (job) {
      this.release(slot);
      job.reject(error);
    }
    if (worker) {
      worker.removeAllListeners('message');
      await worker.terminate();
    }
  }
}
