// Runs convertDdl in a worker thread per job, with a memory cap and a time limit.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { convertDdl } from '@dss/ddl';

export type Conversion = Awaited<ReturnType<typeof convertDdl>>;

/** The outcome of one job: a conversion result, or a timeout (the worker was terminated). */
export type ConversionOutcome = { kind: 'converted'; result: Conversion } | { kind: 'timeout' };

/**
 * The compiled worker entry. From dist this is the sibling file; from the TypeScript sources (jest) it is
 * the built copy in dist, which `npm test` builds first.
 */
export function workerEntry(): string {
  const sibling = path.join(__dirname, 'convert-worker.js');
  if (existsSync(sibling)) return sibling;
  const built = path.resolve(__dirname, '..', 'dist', 'convert-worker.js');
  if (existsSync(built)) return built;
  throw new Error(
    `importer worker entry not found (looked for ${sibling} and ${built}); run npx tsc --build`,
  );
}

export interface ConversionLimits {
  timeoutMs: number;
  maxOldGenerationSizeMb?: number;
}

/**
 * Converts `ddl` in a fresh worker. Resolves with the converter's result or `timeout`; rejects when the
 * worker crashed (out of memory, an exception outside convertDdl), so the job is redelivered.
 */
export function runConversion(
  driver: string,
  ddl: string,
  limits: ConversionLimits,
): Promise<ConversionOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerEntry(), {
      workerData: { driver, ddl },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb ?? 1024 },
    });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => resolve({ kind: 'timeout' })), limits.timeoutMs);
    worker.once('message', (message: { result?: Conversion; crash?: string }) => {
      if (message.result) settle(() => resolve({ kind: 'converted', result: message.result! }));
      else settle(() => reject(new Error(`conversion crashed: ${message.crash ?? 'unknown error'}`)));
    });
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`conversion worker exited with code ${code} before answering`))),
    );
  });
}
