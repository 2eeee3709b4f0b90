// What a tool answers. Failures are tool results with `isError: true` (not protocol errors), so the model
// reads them and can correct its call: the first line is the REST error code and message, then one line per
// problem (`path: message`) for invalid_schema and the like.
import { DssApiError, DssWaitTimeoutError } from '@dss/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * A structured answer: the object as `structuredContent` (checked against the tool's outputSchema) and,
 * for clients that read only text, the same as compact JSON (a model reads it as well as indented JSON, at
 * about 60% of the tokens).
 */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export function errorResult(code: string, message: string, lines: string[] = []): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: [`${code}: ${message}`, ...lines].join('\n') }] };
}

/** A thrown error as a tool result; the `code` label is returned for metrics. */
export function resultOfError(error: unknown): { result: CallToolResult; code: string } {
  if (error instanceof DssApiError) return { result: apiErrorResult(error), code: error.code };
  if (error instanceof DssWaitTimeoutError) {
    const result = errorResult('timeout', `${error.message}; call again later to see the outcome`);
    return { result, code: 'timeout' };
  }
  // fetch failed: the API is not reachable (ECONNREFUSED, ENOTFOUND…). By name, not instanceof: fetch's
  // errors may come from another realm (jest's sandbox, for one).
  const failed = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (failed?.name === 'TypeError' && failed.message === 'fetch failed') {
    const reason = failed.cause?.code ?? failed.cause?.message ?? 'network error';
    const result = errorResult('unavailable', `the Diagram Schema Service API is not reachable (${reason})`);
    return { result, code: 'unavailable' };
  }
  return { result: errorResult('internal', 'the MCP server failed to handle the call'), code: 'internal' };
}

function apiErrorResult(error: DssApiError): CallToolResult {
  const lines: string[] = [];
  for (const problem of error.errors ?? []) lines.push(`${problem.path || '(patch)'}: ${problem.message}`);
  for (const path of error.paths ?? []) lines.push(`${path}: remove it (positions are computed on create)`);
  if (error.limit_type !== undefined) {
    const requested = error.requested === undefined ? '' : `, requested ${error.requested}`;
    lines.push(`limit_type: ${error.limit_type}, limit ${error.limit ?? '?'}${requested}`);
  }
  if (error.retryAfterSeconds !== undefined) lines.push(`retry after ${error.retryAfterSeconds} seconds`);
  return errorResult(error.code, error.message, lines);
}
