// The thread that draws diagrams for the drawer of new versions (drawing-worker.ts), one at a time, and a
// drawing that takes longer than DRAWING_TIMEOUT_MS ends it (the next drawing starts a fresh one).
//
// Warm (DSS_WEB_DRAWING_WARM_UP, the default): the thread starts with the web app, draws a warm-up
// (WARM_UP_DRAWINGS generated diagrams of WARM_UP_TABLES tables) before it takes its first request, and lives
// as long as the process. A fresh thread's first drawings run on V8's first tiers of compiled code: the
// generated 300-table version took 2.1–2.5 s as a fresh thread's first drawing and 0.4–0.9 s as its fifth
// (Node 20, the shared 2-core machine, each a new parse of the document as the drawer gives it; web README
// "Drawing thread warmed up at start"), and the first view of a version that comes while it is drawn waits
// for it. The price is the thread's memory for the life of the process and one to two seconds of one core
// at start (0.8 s quiet, 1.9–2.7 s at load 4–8).
// Not warm: the thread starts on the first drawing and ends after DRAWING_THREAD_IDLE_MS without one (a
// process that never sees a large diagram never holds a second copy of the renderer); the test system's.
import { compiledEntry, WorkerThread } from '@dss/platform';
import type { VersionDrawings } from './drawings';

/** How long a thread that is not warm lives without work. */
export const DRAWING_THREAD_IDLE_MS = 60_000;
/** The longest one drawing may take (a 300-table drawing takes 1–2 s). */
export const DRAWING_TIMEOUT_MS = 30_000;
/** The warm-up: this many generated diagrams (other seeds each), of this many tables with 12 columns. */
export const WARM_UP_DRAWINGS = 3;
export const WARM_UP_TABLES = 150;

/** Asked with a GetFullDocument body; answers its document's drawings (drawings.ts, drawVersion). */
export type DrawingThread = WorkerThread<string, VersionDrawings>;

/** What drawing-worker.ts is given as workerData. */
export interface DrawingThreadData {
  warmUp: { drawings: number; tables: number } | null;
}

/** The drawing thread; `warm`: started now, warmed up, kept (see above). */
export function drawingThread(warm: boolean): DrawingThread {
  const thread: DrawingThread = new WorkerThread({
    file: compiledEntry(__dirname, 'drawing-worker.js'),
    idleMs: warm ? null : DRAWING_THREAD_IDLE_MS,
    timeoutMs: DRAWING_TIMEOUT_MS,
    name: 'the drawing thread',
    workerData: {
      warmUp: warm ? { drawings: WARM_UP_DRAWINGS, tables: WARM_UP_TABLES } : null,
    } satisfies DrawingThreadData,
  });
  if (warm) thread.open();
  return thread;
}
