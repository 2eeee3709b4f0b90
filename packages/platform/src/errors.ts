// The one error type of the system. A service throws a ServiceError carrying the REST error code of the
// spec, a message for the client and the extra members the spec's error table lists; platform carries it
// across gRPC (status code plus trailers) and the gateway turns it back into the spec's JSON error shape.

export const ERROR_CODES = [
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
  'conflict',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Extra members that accompany some error codes (see the spec's Errors section). */
export interface ErrorExtra {
  errors?: { path: string; message: string }[];
  paths?: string[];
  limit_type?: 'tables' | 'private_diagrams';
  limit?: number;
  requested?: number;
  /** With `conflict` for a change made on an older version: the entities changed since, by identity. */
  conflicts?: {
    entity: string;
    table?: string;
    column?: string;
    name?: string;
    change: string;
    reason: string;
  }[];
  /** Not sent to clients: seconds to wait, turned into the Retry-After header. */
  retry_after_seconds?: number;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorExtra;

  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.extra = extra;
  }

  /** The spec's error body: `{"error": {"code", "message", ...extra members}}`. */
  toJSON(): { error: Record<string, unknown> } {
    const { retry_after_seconds: _hidden, ...members } = this.extra;
    return { error: { code: this.code, message: this.message, ...members } };
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/** A request field that failed validation: `invalid_request` naming the field, with the problem in `errors`. */
export function invalidField(path: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `${path} ${problem}`, { errors: [{ path, message: problem }] });
}

/** Refuses text larger than the spec allows with `payload_too_large`; sizes count UTF-8 bytes. */
export function ensureWithinBytes(field: string, text: string, maxBytes: number): void {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    throw new ServiceError(
      'payload_too_large',
      `${field} must be at most ${maxBytes} bytes (${maxBytes / 1024}KB)`,
    );
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids are UUIDs; anything else is checked before it reaches a uuid column. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
