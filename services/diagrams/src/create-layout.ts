// Where a create's layout runs: in place for a small schema (milliseconds), in a worker thread otherwise,
// so that laying out a few hundred tables (seconds under load on two cores) never holds up the service's
// other calls, and in the embedded system (`npm start`) the gateway and every other service with it.
// The threads are piscina's: a queue, a worker replaced when it dies, threads closed when idle.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ServiceError } from '@dss/platform';
import { type Driver, type NormalizedPatch, RejectedPatchInput, WHOLE_SCHEMA } from '@dss/schema';
import { Piscina } from 'piscina';
import { type CreateLayoutAnswer, layOutCreate } from './create-layout-worker';

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
  private readonly pool: Piscina | null;

  constructor(options: CreateLayoutOptions) {
    this.pool =
      options.threads > 0
        ? new Piscina({
            filename: workerEntry(),
            name: 'layOutCreate',
            minThreads: 0,
            maxThreads: options.threads,
            idleTimeout: IDLE_MS,
            resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
          })
        : null;
  }

  /** Validates and lays out a create's normalized patch (see create-layout-worker.ts). */
  async run(driver: Driver, patch: NormalizedPatch): Promise<CreateLayoutAnswer> {
    if (this.pool === null || !offThread(patch)) return layOutCreate({ driver, patch });
    try {
      return (await this.pool.run(
        { driver, patch },
        { signal: AbortSignal.timeout(LAYOUT_TIMEOUT_MS) },
      )) as CreateLayoutAnswer;
    } catch (error) {
      // A layout that ran out of time or memory is the service's failure, never the caller's.
      const timedOut = error instanceof Error && error.name === 'AbortError';
      throw new ServiceError(
        'unavailable',
        timedOut
          ? 'laying out the diagram took too long; try again'
          : 'laying out the diagram failed; try again',
      );
    }
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}

/** Only a patch with enough tables to be worth a thread (a rejected input is answered in place). */
function offThread(patch: NormalizedPatch): boolean {
  if (patch instanceof RejectedPatchInput) return false;
  return Array.isArray(patch.tables) && patch.tables.length >= IN_PLACE_TABLES;
}

/**
 * The compiled worker: the sibling file from dist; from the TypeScript sources (jest) the built copy in
 * dist, which `npm test` builds first.
 */
function workerEntry(): string {
  const sibling = path.join(__dirname, 'create-layout-worker.js');
  if (existsSync(sibling)) return sibling;
  const built = path.resolve(__dirname, '..', 'dist', 'create-layout-worker.js');
  if (existsSync(built)) return built;
  throw new Error(`create layout worker not found (looked for ${sibling} and ${built}); run npx tsc --build`);
}
