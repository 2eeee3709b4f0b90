// The thread that draws diagrams for the drawer of new versions (drawing-worker.ts), one at a time: a
// WorkerThread, so it starts on the first drawing and ends after DRAWING_THREAD_IDLE_MS without one (a
// process that never sees a large diagram never holds a second copy of the renderer), and a drawing that
// takes longer than DRAWING_TIMEOUT_MS ends it (the next drawing starts a fresh one).
import { compiledEntry, WorkerThread } from '@dss/platform';
import type { UntitledDrawing } from './drawings';

/** How long the thread lives without work. */
export const DRAWING_THREAD_IDLE_MS = 60_000;
/** The longest one drawing may take (a 300-table drawing takes 1–2 s). */
export const DRAWING_TIMEOUT_MS = 30_000;

/** Asked with a GetFullDocument body; answers its document's drawing. */
export type DrawingThread = WorkerThread<string, UntitledDrawing>;

export function drawingThread(): DrawingThread {
  return new WorkerThread({
    file: compiledEntry(__dirname, 'drawing-worker.js'),
    idleMs: DRAWING_THREAD_IDLE_MS,
    timeoutMs: DRAWING_TIMEOUT_MS,
    name: 'the drawing thread',
  });
}
