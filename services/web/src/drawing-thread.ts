// One worker thread (drawing-worker.ts) that draws diagrams for the drawer of new versions, one at a time.
// It starts on the first drawing and ends after DRAWING_THREAD_IDLE_MS without one, so a process that never
// sees a large diagram never holds a second copy of the renderer; a drawing that takes longer than
// DRAWING_TIMEOUT_MS ends the thread (the next drawing starts a fresh one).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DrawingAnswer, DrawingRequest } from './drawing-worker';
import type { UntitledDrawing } from './drawings';

/** How long the thread lives without work. */
export const DRAWING_THREAD_IDLE_MS = 60_000;
/** The longest one drawing may take (a 300-table drawing takes 1–2 s). */
export const DRAWING_TIMEOUT_MS = 30_000;

interface Pending {
  resolve: (drawing: UntitledDrawing) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class DrawingThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idle: NodeJS.Timeout | undefined;

  /** The drawing of the document in `body` (GetFullDocument's), made in the thread. */
  draw(body: string): Promise<UntitledDrawing> {
    const worker = this.start();
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.stop(new Error('the drawing took too long')), DRAWING_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, body } satisfies DrawingRequest);
    });
  }

  /** Ends the thread; drawings under way fail. */
  close(): void {
    this.stop(new Error('the drawing thread was closed'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile());
    worker.on('message', (answer: DrawingAnswer) => {
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.pending.delete(answer.id);
      clearTimeout(job.timer);
      if ('drawing' in answer) job.resolve(answer.drawing);
      else job.reject(new Error(`drawing failed: ${answer.error}`));
      if (this.pending.size === 0) {
        this.idle = setTimeout(() => this.stop(), DRAWING_THREAD_IDLE_MS);
        this.idle.unref();
      }
    });
    worker.once('error', (error) => this.stop(error));
    worker.once('exit', () => {
      if (this.worker === worker) this.stop(new Error('the drawing thread stopped'));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stop(error: Error = new Error('the drawing thread stopped')): void {
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

/** The compiled worker entry: the sibling file in dist, or dist's copy when running from the sources (jest). */
function workerFile(): string {
  const sibling = path.join(__dirname, 'drawing-worker.js');
  if (fs.existsSync(sibling)) return sibling;
  return path.resolve(__dirname, '..', 'dist', 'drawing-worker.js');
}
