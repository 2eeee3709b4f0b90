// Turning a tool's `patch` or `ddl` argument into what a tool sends or links: a patch checked locally with
// the same normalisation and validation as the API (so visualize_schema needs no account), or DDL converted
// with the importer's converter (@dss/ddl's ConversionPool: a worker thread with a time limit and a heap
// cap, so a large script cannot stall the server) and written back as a patch.
import { type DiagramDocument, documentToPatch, type Driver, normalize, validate } from '@dss/schema';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ConversionOutcome, ConversionPool } from '@dss/ddl';
import { lineRoomStep } from '@dss/diagram-svg';
import type { McpConfig } from './config';
import { errorResult } from './tool-results';

export type LocalPatch =
  | { ok: true; patch: object; warnings: string[] }
  | { ok: false; result: CallToolResult };

/** Exactly one of patch and ddl, or the tool error that says so. */
export function exactlyOne(patch: unknown, ddl: string | undefined): CallToolResult | null {
  if ((patch === undefined) === (ddl === undefined))
    return errorResult('invalid_request', 'send exactly one of `patch` and `ddl`');
  return null;
}

/** Validates a patch for an empty diagram of `driver`, as the /draw page will render it. */
export function checkPatchLocally(patch: object, driver: Driver): LocalPatch {
  const normalized = normalize(patch);
  const validated = validate(normalized.patch, null, driver, 'propose');
  if (!validated.ok)
    return {
      ok: false,
      result: errorResult(
        validated.code,
        validated.message,
        validated.problems.map((problem) => `${problem.path || '(patch)'}: ${problem.message}`),
      ),
    };
  return {
    ok: true,
    patch,
    warnings: normalized.warnings.map((w) => `${w.path || '(patch)'}: ${w.message}`),
  };
}

/**
 * The process's one DDL conversion worker: loading the parsers costs more than most conversions, so it
 * stays up between calls; calls wait their turn. Started on first use, not warmed (it would hold the
 * warm SQL Server parser's few hundred MB in every MCP process).
 */
export function ddlConversionPool(config: Pick<McpConfig, 'ddlTimeoutMs' | 'ddlMaxHeapMb'>): ConversionPool {
  return new ConversionPool({
    size: 1,
    timeoutMs: config.ddlTimeoutMs,
    maxOldGenerationSizeMb: config.ddlMaxHeapMb,
    warmUp: false,
    // As the importer's: a large schema's lines get room where the routed drawing lacks it.
    finishLayout: lineRoomStep,
  });
}

/** Converts DDL the way the importer does, and writes the document as a patch that keeps its layout. */
export async function patchFromDdl(ddl: string, driver: Driver, pool: ConversionPool): Promise<LocalPatch> {
  let outcome: ConversionOutcome;
  try {
    outcome = await pool.convert(driver, ddl);
  } catch (error) {
    // The worker died (over its heap cap) or the server is shutting down; the next call gets a new one.
    const message = `the conversion stopped (${(error as Error).message}); send fewer tables at a time`;
    return { ok: false, result: errorResult('ddl_internal_error', message) };
  }
  if (outcome.kind === 'timeout') {
    const message = `the DDL could not be converted within ${pool.timeoutMs / 1000} s; send fewer tables at a time`;
    return { ok: false, result: errorResult('ddl_timeout', message) };
  }
  const converted = outcome.result;
  if (!converted.ok) return { ok: false, result: errorResult(converted.code, converted.message) };
  const document = JSON.parse(converted.document_json) as DiagramDocument;
  return {
    ok: true,
    patch: documentToPatch(document, { positions: true }),
    // One line each: where, and what was skipped or changed (the first 100, then how many more).
    warnings: [
      ...converted.warnings.map((w) => `line ${w.line}, column ${w.column}: ${w.message}`),
      ...(converted.warnings_total > converted.warnings.length
        ? [`… and ${converted.warnings_total - converted.warnings.length} more`]
        : []),
    ],
  };
}
