// How a ServiceError crosses gRPC. The status code is a real gRPC code (so gRPC-native tooling and
// retries understand it, in the spirit of grpc-gateway's table); the exact REST code and the spec's
// extra members travel in trailers, so the client rebuilds the very same ServiceError. No HTTP
// numbers go into gRPC errors: the gateway owns REST codes → HTTP statuses.
import { Metadata, status } from '@grpc/grpc-js';
import { ERROR_CODES, type ErrorCode, type ErrorExtra, ServiceError } from '../errors';

export const ERROR_CODE_TRAILER = 'dss-error-code';
export const ERROR_EXTRA_TRAILER = 'dss-error-extra';

export const GRPC_STATUS_BY_ERROR_CODE: Readonly<Record<ErrorCode, status>> = {
  invalid_request: status.INVALID_ARGUMENT,
  invalid_schema: status.INVALID_ARGUMENT,
  no_tables: status.INVALID_ARGUMENT,
  unsupported_field: status.INVALID_ARGUMENT,
  payload_too_large: status.INVALID_ARGUMENT,
  not_acceptable: status.INVALID_ARGUMENT,
  request_failed: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  invalid_token: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  insufficient_scope: status.PERMISSION_DENIED,
  editor_required: status.PERMISSION_DENIED,
  plan_required: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  diagram_not_ready: status.FAILED_PRECONDITION,
  plan_limit: status.FAILED_PRECONDITION,
  conflict: status.ALREADY_EXISTS,
  rate_limited: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
  internal: status.INTERNAL,
};

/** The message sent for an error that is not a ServiceError; the details go to the log only. */
export const INTERNAL_ERROR_MESSAGE = 'internal error';

export interface GrpcErrorStatus {
  code: status;
  details: string;
  metadata: Metadata;
}

/** Encodes any thrown value into the status a handler fails with. */
export function toGrpcStatus(error: unknown): GrpcErrorStatus {
  const serviceError =
    error instanceof ServiceError
      ? error
      : databaseUnavailable(error)
        ? new ServiceError('unavailable', 'the database is unavailable; retry shortly', {
            retry_after_seconds: 5,
          })
        : new ServiceError('internal', INTERNAL_ERROR_MESSAGE);
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_TRAILER, serviceError.code);
  if (Object.keys(serviceError.extra).length > 0)
    metadata.set(ERROR_EXTRA_TRAILER, asciiJson(serviceError.extra));
  return {
    code: GRPC_STATUS_BY_ERROR_CODE[serviceError.code],
    details: wellFormed(serviceError.message),
    metadata,
  };
}

/**
 * The message with every unpaired UTF-16 surrogate replaced by U+FFFD. grpc-js percent-encodes the
 * status details with encodeURI, which throws on an unpaired surrogate, and the call is then never
 * answered (the caller waits out its deadline): a message quoting a client's text, or half of an emoji
 * cut at a length limit, must not do that.
 */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * Whether a handler failed because PostgreSQL could not be reached or is shutting down (connection
 * refused or reset, SQLSTATE class 08 connection exceptions, 57P01–57P03, a pool that timed out
 * connecting, the next query on a client whose connection just failed): a dependency outage, answered as `unavailable` (503 with Retry-After), not `internal`.
 */
export function databaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code))
      return true;
    if (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code)) return true;
  }
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated unexpectedly|Connection terminated due to connection timeout|Client has encountered a connection error and is not queryable/.test(
      message,
    )
  );
}

/** The fields of a failed call that decoding needs (grpc-js's ServiceError has them all). */
export interface FailedCall {
  code?: number;
  details?: string;
  metadata?: Metadata;
}

/** Rebuilds the ServiceError a server threw, or classifies a transport failure. */
export function fromGrpcError(error: FailedCall, method: string): ServiceError {
  const code = error.metadata?.get(ERROR_CODE_TRAILER)[0];
  if (typeof code === 'string' && isErrorCode(code))
    return new ServiceError(code, error.details ?? '', readExtra(error.metadata));
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED)
    return new ServiceError('unavailable', `${method} unavailable: ${error.details ?? 'no response'}`);
  const name = error.code === undefined ? 'UNKNOWN' : (status[error.code] ?? String(error.code));
  return new ServiceError('internal', `${method} failed: ${name} ${error.details ?? ''}`.trim());
}

// Text trailers must be printable ASCII; \u-escaping keeps the JSON valid and lossless for any language.
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function readExtra(metadata: Metadata | undefined): ErrorExtra {
  const raw = metadata?.get(ERROR_EXTRA_TRAILER)[0];
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(String(raw));
    return parsed && typeof parsed === 'object' ? (parsed as ErrorExtra) : {};
  } catch {
    return {};
  }
}

function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}
