// The conversion worker's entry file and a one-off conversion in a worker of its own.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ConvertResult, DdlDriver } from '../result';
import { ConversionPool } from './conversion-pool';

/** The converter's result, with the document as its JSON text (written in the worker thread). */
export type Conversion =
  | (Omit<Extract<ConvertResult, { ok: true }>, 'document'> & { document_json: string })
  | Extract<ConvertResult, { ok: false }>;

/** The outcome of one job: a conversion result, or a timeout (the worker was terminated). */
export type ConversionOutcome = { kind: 'converted'; result: Conversion } | { kind: 'timeout' };

/**
 * The compiled worker entry. From dist this is the sibling file; from the TypeScript sources (jest) it is
 * the built copy in dist, which `npm test` builds first.
 */
export function workerEntry(): string {
  const sibling = path.join(__dirname, 'convert-worker.js');
  if (existsSync(sibling)) return sibling;
  const built = path.resolve(__dirname, '..', '..', 'dist', 'pool', 'convert-worker.js');
  if (existsSync(built)) return built;
  throw new Error(
    `DDL conversion worker entry not found (looked for ${sibling} and ${built}); run npx tsc --build`,
  );
}

export interface ConversionLimits {
  timeoutMs: number;
  maxOldGenerationSizeMb?: number;
}

/**
 * Converts `ddl` in a fresh worker of its own (a one-worker pool, no warm-up). Resolves with the
 * converter's result or `timeout`; rejects when the worker crashed (out of memory, an exception outside
 * convertDdl), so the job is redelivered. The service uses a long-lived ConversionPool instead.
 */
export async function runConversion(
  driver: string,
  ddl: string,
  limits: ConversionLimits,
): Promise<ConversionOutcome> {
  const pool = new ConversionPool({
    size: 1,
    timeoutMs: limits.timeoutMs,
    maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb ?? 1024,
    warmUp: false,
  });
  try {
    return await pool.convert(driver as DdlDriver, ddl);
  } finally {
    await pool.close();
  }
}
