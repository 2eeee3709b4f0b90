// Work done in a worker thread, off a service's event loop: one thread that answers requests one message
// each, started on the first request and ended after an idle time (its memory goes with it), so a process
// that never needs it never holds it; a request that outlasts its time limit ends the thread, and the next
// request starts a fresh one. Both sides are here: WorkerThread for the process that asks, serveRequests for
// the thread's entry file (this module imports nothing but Node's, so an entry that loads it stays small).
// A thread may instead be opened ahead of its first request and kept for the life of the process (idleMs
// null), for work whose first requests in a fresh thread are much slower than the later ones (compiled
// code: the web app's drawing thread, which draws a warm-up before its first request).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, type ResourceLimits, type TransferListItem, Worker } from 'node:worker_threads';

interface Question<Request> {
  id: number;
  request: Request;
}

type Answer<Result> = { id: number; result: Result } | { id: number; error: string };

export interface WorkerThreadOptions {
  /** The thread's compiled entry file (see compiledEntry). */
  file: string;
  /** How long the thread lives without work; null: as long as the process (or until closed). */
  idleMs: number | null;
  /** Given to the thread's entry as `workerData`. */
  workerData?: unknown;
  /** The longest one request may take. */
  timeoutMs: number;
  /** The thread as errors name it: "the rasteriser", "the drawing thread". */
  name: string;
  /** Heap caps of the thread (Node's defaults when absent); past them the thread dies and its requests fail. */
  resourceLimits?: ResourceLimits;
}

interface Pending<Result> {
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class WorkerThread<Request, Result> {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending<Result>>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly options: WorkerThreadOptions) {}

  /** The thread's answer to `request`; `transfer` moves buffers to the thread instead of copying them. */
  ask(request: Request, transfer: readonly TransferListItem[] = []): Promise<Result> {
    const worker = this.start();
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.stop(new Error(`${this.options.name} took too long`)),
        this.options.timeoutMs,
      );
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, request } satisfies Question<Request>, transfer);
    });
  }

  /** Starts the thread now rather than on the first request (its entry can set itself up meanwhile). */
  open(): void {
    this.start();
    if (this.pending.size === 0) this.armIdle();
  }

  /** Ends the thread; requests under way fail. */
  close(): void {
    this.stop(new Error(`${this.options.name} was closed`));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.file, {
      workerData: this.options.workerData,
      ...(this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {}),
    });
    worker.on('message', (answer: Answer<Result>) => {
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.pending.delete(answer.id);
      clearTimeout(job.timer);
      if ('result' in answer) job.resolve(answer.result);
      else job.reject(new Error(`${this.options.name} failed: ${answer.error}`));
      if (this.pending.size === 0) this.armIdle();
    });
    worker.once('error', (error) => this.stop(error));
    worker.once('exit', () => {
      if (this.worker === worker) this.stop();
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private armIdle(): void {
    clearTimeout(this.idle);
    if (this.options.idleMs === null) return;
    this.idle = setTimeout(() => this.stop(), this.options.idleMs);
    this.idle.unref();
  }

  private stop(error: Error = new Error(`${this.options.name} stopped`)): void {
    const worker = this.worker;
    this.worker = null;
    clearTimeout(this.idle);
    for (const [id, job] of this.pending) {
      clearTimeout(job.timer);
      job.reject(error);
      this.pending.delete(id);
    }
    if (worker) void worker.terminate();
  }
}

/**
 * In a thread's entry file: answers every request with `handle`'s result (or its error's message).
 * Requests sent before this is called wait in the thread's port, so an entry may set itself up first.
 * `transferOf` names buffers of a result to move to the asking thread instead of copying them.
 */
export function serveRequests<Request, Result>(
  handle: (request: Request) => Result,
  transferOf: (result: Result) => readonly TransferListItem[] = () => [],
): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', ({ id, request }: Question<Request>) => {
    let result: Result;
    try {
      result = handle(request);
    } catch (error) {
      const answer: Answer<Result> = { id, error: error instanceof Error ? error.message : String(error) };
      return port.postMessage(answer);
    }
    port.postMessage({ id, result } satisfies Answer<Result>, transferOf(result));
  });
}

/**
 * The compiled entry `name` (e.g. "png-worker.js") beside the module in `directory` (its __dirname) when
 * that runs from dist, or the package's dist copy when it runs from the sources (jest).
 */
export function compiledEntry(directory: string, name: string): string {
  const sibling = path.join(directory, name);
  if (fs.existsSync(sibling)) return sibling;
  return path.resolve(directory, '..', 'dist', name);
}
