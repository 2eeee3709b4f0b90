// Failures a page turns into an error page of the same layout. A ServiceError from a service becomes the
// matching status; anything else is a bug: logged with its stack, answered with a plain 500 page.
import { isServiceError } from '@dss/platform';

export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly heading: string,
    message: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

export const notFound = () =>
  new PageError(404, 'Not found', 'There is no such page, or you cannot see it with your account.');

export const forbidden = (message = 'You are not allowed to do that.') =>
  new PageError(403, 'Not allowed', message);

const STATUS_OF_CODE: Record<string, number> = {
  not_found: 404,
  forbidden: 403,
  editor_required: 403,
  insufficient_scope: 403,
  invalid_request: 400,
  conflict: 409,
  diagram_not_ready: 409,
  invalid_schema: 422,
  plan_limit: 422,
  payload_too_large: 413,
  unavailable: 503,
};

/** The status a page answers a service error code with (undefined: the code is not expected). */
export function pageStatusOf(code: string): number | undefined {
  return STATUS_OF_CODE[code];
}

/** The PageError a failure of a service call shows as, or null for failures that are bugs. */
export function pageErrorOf(error: unknown): PageError | null {
  if (error instanceof PageError) return error;
  if (!isServiceError(error)) return null;
  if (error.code === 'not_found') return notFound();
  const status = STATUS_OF_CODE[error.code];
  if (!status) return null;
  if (status === 503)
    return new PageError(503, 'Temporarily unavailable', 'A service is not answering. Try again shortly.');
  return new PageError(status, status === 403 ? 'Not allowed' : 'That did not work', error.message);
}
