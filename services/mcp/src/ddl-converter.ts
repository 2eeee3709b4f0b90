// visualize_schema's DDL conversion, off the main thread: a large SQL Server script can parse for seconds
// and take a few hundred MB, which on the main thread would stall every other request of the HTTP server.
// One long-lived worker thread (loading the parsers and warming ANTLR costs more than most conversions)
// under a heap cap converts one script at a time; others wait their turn. A conversion over the time limit
// has its worker terminated; a worker that dies (over the heap cap) fails its conversion; either way the next
// conversion starts a fresh worker. The importer's ConversionPool (services/importer) does the same with
// several workers, warm-up and parse threads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { convertDdl, DdlDriver } from '@dss/ddl';
import type { DdlWorkerRequest } from './ddl-worker';

export type DdlConversion = Awaited<ReturnType<typeof convertDdl>>;

export type DdlOutcome =
  | { kind: 'converted'; result: DdlConversion }
  | { kind: 'timeout' }
  | { kind: 'crashed'; message: string };

export interface DdlConverterOptions {
  timeoutMs: number;
  maxHeapMb: number;
}

interface Job {
  id: number;
  driver: DdlDriver;
  ddl: string;
  resolve: (outcome: DdlOutcome) => void;
}

interface WorkerMessage {
  ready?: true;
  id?: number;
  result?: DdlConversion;
  crash?: string;
}

/** The compiled worker entry: the sibling file in dist, or from the sources (jest) the built copy. */
function workerEntry(): string {
  const sibling = path.join(__dirname, 'ddl-worker.js');
  if (existsSync(sibling)) return sibling;
  const built = path.resolve(__dirname, '..', 'dist', 'ddl-worker.js');
  if (existsSync(built)) return built;
  throw new Error(`MCP worker entry not found (looked for ${sibling} and ${built}); run npx tsc --build`);
}

export class DdlConverter {
  private worker: Worker | null = null;
  /** Resolved when the current worker has loaded the parsers (or died). */
  private ready: Promise<void> = Promise.resolve();
  private current: Job | null = null;
  private readonly waiting: Job[] = [];
  private timer?: NodeJS.Timeout;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: DdlConverterOptions) {}

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  convert(driver: DdlDriver, ddl: string): Promise<DdlOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'crashed', message: 'the DDL converter is closed' });
    return new Promise((resolve) => {
      this.waiting.push({ id: this.nextId++, driver, ddl, resolve });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing: DdlOutcome = { kind: 'crashed', message: 'the server is shutting down' };
    for (const job of this.waiting.splice(0)) job.resolve(closing);
    if (this.current) this.finish(this.current, closing);
    await this.discardWorker();
  }

  private next(): void {
    if (this.closed || this.current || this.waiting.length === 0) return;
    const job = this.waiting.shift() as Job;
    this.current = job;
    const worker = this.worker ?? this.start();
    worker.ref();
    // The time limit is the conversion's: it starts once the worker has loaded the parsers.
    void this.ready.then(() => {
      if (this.current !== job) return;
      this.timer = setTimeout(() => {
        this.finish(job, { kind: 'timeout' });
        void this.discardWorker();
        this.next();
      }, this.options.timeoutMs);
    });
    worker.postMessage({ id: job.id, driver: job.driver, ddl: job.ddl } satisfies DdlWorkerRequest);
  }

  private start(): Worker {
    const worker = new Worker(workerEntry(), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    let markReady!: () => void;
    this.worker = worker;
    this.ready = new Promise((resolve) => (markReady = resolve));
    worker.on('message', (message: WorkerMessage) => {
      if (message.ready) return markReady();
      const job = this.current;
      if (!job || message.id !== job.id) return;
      this.finish(
        job,
        message.result
          ? { kind: 'converted', result: message.result }
          : { kind: 'crashed', message: message.crash ?? 'unknown error' },
      );
      this.next();
    });
    const died = (error: Error) => {
      markReady();
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.current) this.finish(this.current, { kind: 'crashed', message: error.message });
      this.next();
    };
    worker.once('error', died);
    worker.once('exit', (code) => died(new Error(`the conversion worker exited with code ${code}`)));
    return worker;
  }

  private finish(job: Job, outcome: DdlOutcome): void {
    if (this.current !== job) return;
    clearTimeout(this.timer);
    this.current = null;
    // An idle worker does not keep the process alive.
    this.worker?.unref();
    job.resolve(outcome);
  }

  private async discardWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
