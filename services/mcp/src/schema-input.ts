// Turning a tool's `patch` or `ddl` argument into what a tool sends or links: a patch checked locally with
// the same normalisation and validation as the API (so visualize_schema needs no account), or DDL converted
// with the importer's converter (in a worker thread, see ddl-converter.ts) and written back as a patch.
import { documentToPatch, type Driver, normalize, validate } from '@dss/schema';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DdlConverter } from './ddl-converter';
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

/** Converts DDL the way the importer does, and writes the document as a patch that keeps its layout. */
export async function patchFromDdl(
  ddl: string,
  driver: Driver,
  converter: DdlConverter,
): Promise<LocalPatch> {
  const outcome = await converter.convert(driver, ddl);
  if (outcome.kind === 'timeout') {
    const message = `the DDL could not be converted within ${converter.timeoutMs / 1000} s; send fewer tables at a time`;
    return { ok: false, result: errorResult('ddl_timeout', message) };
  }
  if (outcome.kind === 'crashed') {
    const message = `the conversion stopped (${outcome.message}); send fewer tables at a time`;
    return { ok: false, result: errorResult('ddl_internal_error', message) };
  }
  const converted = outcome.result;
  if (!converted.ok) return { ok: false, result: errorResult(converted.code, converted.message) };
  return {
    ok: true,
    patch: documentToPatch(converted.document, { positions: true }),
    warnings: converted.warnings,
  };
}
