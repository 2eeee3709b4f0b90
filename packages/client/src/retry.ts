// A fetch that answers a 429 by waiting the Retry-After seconds and sending the request again, a bounded
// number of times. Only 429 is retried: the API refuses it before doing anything, so resending is safe
// even for a create or a propose. Other failures are left to the caller.
import { parseRetryAfter } from './errors';

export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retrying off. Default 3. */
  maxAttempts?: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned (and thrown) at once. Default 60. */
  maxDelaySeconds?: number;
  /** How to wait; tests pass their own. Default: a timer. */
  sleep?: (milliseconds: number) => Promise<void>;
}

export const DEFAULT_RETRY = { maxAttempts: 3, maxDelaySeconds: 60 } as const;

export const sleepFor = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

export function fetchRetryingRateLimits(
  baseFetch: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_RETRY.maxAttempts);
  const maxDelaySeconds = options.maxDelaySeconds ?? DEFAULT_RETRY.maxDelaySeconds;
  const sleep = options.sleep ?? sleepFor;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      // A request body can be read once, so every attempt but the last sends a copy.
      const response = await baseFetch(attempt < maxAttempts ? request.clone() : request);
      if (response.status !== 429 || attempt >= maxAttempts) return response;
      // A 429 without Retry-After waits one second, the smallest wait the API ever asks for.
      const waitSeconds = parseRetryAfter(response.headers.get('retry-after')) ?? 1;
      if (waitSeconds > maxDelaySeconds) return response;
      await response.body?.cancel();
      await sleep(waitSeconds * 1000);
    }
  };
}
