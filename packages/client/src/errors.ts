// Every non-2xx answer becomes one DssApiError carrying the spec's error code, its message and the extra
// members the spec lists for some codes, so callers branch on `code` and never parse a body themselves.
import type { ErrorDetail, PatchProblem } from './types';

/**
 * The error codes of the spec's error table. A copy of part of @dss/platform's list (the client stays
 * standalone); test/error-codes.test.ts fails when the two drift apart.
 */
export const DSS_ERROR_CODES = [
  'invalid_request',
  'unauthenticated',
  'invalid_token',
  'forbidden',
  'insufficient_scope',
  'editor_required',
  'plan_required',
  'not_found',
  'not_acceptable',
  'diagram_not_ready',
  'payload_too_large',
  'invalid_schema',
  'no_tables',
  'unsupported_field',
  'plan_limit',
  'rate_limited',
  'request_failed',
] as const;

/**
 * A spec code, or another string: a 5xx (`internal`, `unavailable`) or `unexpected_response` when the
 * body was not the spec's error shape (a proxy's HTML page, for example).
 */
export type DssErrorCode = (typeof DSS_ERROR_CODES)[number] | (string & {});

export class DssApiError extends Error {
  override readonly name = 'DssApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  readonly code: DssErrorCode;
  /** With `invalid_schema` (and sometimes `invalid_request`): the problems found, at most 15. */
  readonly errors?: PatchProblem[];
  /** With `unsupported_field`: where the patch carries canvas positions or sizes. */
  readonly paths?: string[];
  /** With `plan_limit`: which cap was hit, the cap and (for tables) what the request asked for. */
  readonly limit_type?: 'tables' | 'private_diagrams';
  readonly limit?: number;
  readonly requested?: number;
  /** With `rate_limited`: the Retry-After header, in seconds. */
  readonly retryAfterSeconds?: number;
  /** The whole `error` member as received, including members this version does not know. */
  readonly detail: ErrorDetail & Record<string, unknown>;

  constructor(status: number, detail: ErrorDetail & Record<string, unknown>, retryAfterSeconds?: number) {
    super(detail.message);
    this.status = status;
    this.code = detail.code;
    this.detail = detail;
    this.errors = detail.errors;
    this.paths = detail.paths;
    this.limit_type = detail.limit_type;
    this.limit = detail.limit;
    this.requested = detail.requested;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isDssApiError(value: unknown, code?: DssErrorCode): value is DssApiError {
  return value instanceof DssApiError && (code === undefined || value.code === code);
}

/** The DssApiError for a non-2xx answer whose body openapi-fetch already read (JSON-parsed when it could). */
export function errorFromResponse(response: Response, body: unknown): DssApiError {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const detail = (body as { error?: unknown } | undefined)?.error;
  if (isErrorDetail(detail)) return new DssApiError(response.status, detail, retryAfter);
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new DssApiError(
    response.status,
    {
      code: 'unexpected_response',
      message: `HTTP ${response.status} without the API's error shape${text ? `: ${text}` : ''}`,
    },
    retryAfter,
  );
}

function isErrorDetail(value: unknown): value is ErrorDetail & Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string';
}

/** Retry-After in seconds (the API sends delta-seconds); an HTTP date is turned into seconds from now. */
export function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
