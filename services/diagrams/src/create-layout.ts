// Where a create's layout runs: in place for a small schema (milliseconds), in a worker thread otherwise,
// so that laying out a few hundred tables (seconds under load on two cores) never holds up the service's
// other calls, and in the embedded system (`npm start`) the gateway and every other service with it.
// The threads are platform's WorkerThread: started on the first request, closed when idle, ended (and
// started afresh for the next request) when a layout outlasts its time.
import { existsSync } from 'node:fs';
import { compiledEntry, ServiceError, WorkerThread } from '@dss/platform';
import { type Driver, type NormalizedPatch, RejectedPatchInput, WHOLE_SCHEMA } from '@dss/schema';
import { type CreateLayoutAnswer, type CreateLayoutTask, layOutCreate } from './lay-out-create';

/**
 * Below a whole schema (WHOLE_SCHEMA, 30 tables: dagre, no room step) a layout takes tens of ms in place
 * (29 tables: about 40 ms), less than a thread's cold start; from there the force layout, its refinement and
 * the room step take 0.1 s and up (39 tables: 90-190 ms), which a thread takes off the service's loop.
 */
export const IN_PLACE_TABLES = WHOLE_SCHEMA;
/** A layout still running after this long is stopped (its thread terminated) and the create answers `unavailable`. */
const LAYOUT_TIMEOUT_MS = 50_000;
/** A thread without work for this long is closed; the next large create starts one (~0.2 s). */
const IDLE_MS = 60_000;
/**
 * Heap cap of one layout thread. A 1,000-table create (more than the 500 KB schema limit lets through with
 * seven columns a table) peaks at about 50 MB of heap and 175 MB of process memory; the cap keeps a runaway
 * layout a failed create (`unavailable`) inside the chart's default 384 MiB memory limit, not the pod's OOM
 * kill.
 */
const THREAD_HEAP_MB = 192;

export interface CreateLayoutOptions {
  /** Layout threads; 0 lays out every create in place. */
  threads: number;
}

export class CreateLayouts {
  private readonly threads: WorkerThread<CreateLayoutTask, CreateLayoutAnswer>[];
  private next = 0;

  constructor(options: CreateLayoutOptions) {
    const file = options.threads > 0 ? workerEntry() : '';
    this.threads = Array.from(
      { length: options.threads },
      () =>
        new WorkerThread<CreateLayoutTask, CreateLayoutAnswer>({
          file,
          idleMs: IDLE_MS,
          timeoutMs: LAYOUT_TIMEOUT_MS,
          name: 'the layout thread',
          resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
        }),
    );
  }

  /** Validates and lays out a create's normalized patch (see lay-out-create.ts). */
  async run(driver: Driver, patch: NormalizedPatch): Promise<CreateLayoutAnswer> {
    if (this.threads.length === 0 || !offThread(patch)) return layOutCreate({ driver, patch });
    // In turn: each thread answers its requests one after another.
    const thread = this.threads[this.next++ % this.threads.length]!;
    try {
      return await thread.ask({ driver, patch });
    } catch (error) {
      // A layout that ran out of time or memory is the service's failure, never the caller's.
      const timedOut = error instanceof Error && error.message.endsWith('took too long');
      throw new ServiceError(
        'unavailable',
        timedOut
          ? 'laying out the diagram took too long; try again'
          : 'laying out the diagram failed; try again',
      );
    }
  }

  /** Ends the threads; layouts under way fail. */
  close(): void {
    for (const thread of this.threads) thread.close();
  }
}

/** Only a patch with enough tables to be worth a thread (a rejected input is answered in place). */
function offThread(patch: NormalizedPatch): boolean {
  if (patch instanceof RejectedPatchInput) return false;
  return Array.isArray(patch.tables) && patch.tables.length >= IN_PLACE_TABLES;
}

/** The compiled worker (from the sources under jest, dist's copy, which `npm test` builds first). */
function workerEntry(): string {
  const entry = compiledEntry(__dirname, 'create-layout-worker.js');
  if (!existsSync(entry)) throw new Error(`create layout worker not found at ${entry}; run npx tsc --build`);
  return entry;
}
