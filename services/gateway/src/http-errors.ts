// From the system's one error type to HTTP: the status for each REST error code of the spec, and the
// exact JSON error body. Nothing else in the gateway writes an error response.
import { type ErrorCode, ServiceError } from '@dss/platform';
import type { ServerResponse } from 'node:http';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 422,
  unauthenticated: 401,
  invalid_token: 401,
  forbidden: 403,
  insufficient_scope: 403,
  editor_required: 403,
  plan_required: 403,
  not_found: 404,
  not_acceptable: 406,
  diagram_not_ready: 409,
  payload_too_large: 413,
  invalid_schema: 422,
  no_tables: 422,
  unsupported_field: 422,
  plan_limit: 422,
  rate_limited: 429,
  request_failed: 400,
  conflict: 409,
  unavailable: 503,
  internal: 500,
};

/**
 * An error whose HTTP status is not the default of its code: the spec answers 400 `invalid_request`
 * for a body that is not a JSON object (422 for a field that fails validation), and `request_failed`
 * covers several 4xx statuses. Created only inside the gateway; it never crosses gRPC.
 */
export class HttpError extends ServiceError {
  readonly status: number;

  constructor(status: number, code: ErrorCode, message: string) {
    super(code, message);
    this.status = status;
  }
}

export function statusOf(error: ServiceError): number {
  return error instanceof HttpError ? error.status : STATUS_BY_CODE[error.code];
}

export function sendError(res: ServerResponse, error: ServiceError): void {
  const status = statusOf(error);
  if (error.extra.retry_after_seconds !== undefined)
    res.setHeader('Retry-After', String(error.extra.retry_after_seconds));
  // RFC 6750 §3: a 401 names the scheme it wants.
  if (status === 401) {
    res.setHeader(
      'WWW-Authenticate',
      error.code === 'invalid_token' || /not valid|expired|revoked/.test(error.message)
        ? 'Bearer realm="dss", error="invalid_token"'
        : 'Bearer realm="dss"',
    );
  }
  // As Express's res.json writes it, on any response (also those answered in front of Express).
  const body = JSON.stringify(error.toJSON());
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export const internalError = () =>
  new ServiceError('internal', 'the server failed to handle the request; try again');
