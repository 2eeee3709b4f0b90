// What every request gets, whether Express routes it or a quick answer takes it (quick-answers.ts): its id,
// the default headers, and the limits counted once.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Consumption } from './rate-limits';

/** The client's X-Request-Id when it is a plain token of at most 128 characters, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
}

/**
 * Every API answer is personal and current: not stored by caches (`no-store`; answers with an ETag say
 * `private, no-cache` instead, so clients revalidate), and never sniffed into another content type.
 */
export function setSafeDefaults(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
}

export interface CountedLimits {
  ip: Consumption;
  token?: Consumption;
}

const countedLimits = new WeakMap<IncomingMessage, CountedLimits>();

/** Marks the limits as counted for this request, so the chain does not count them again. */
export function setCountedLimits(req: IncomingMessage, counted: CountedLimits): void {
  countedLimits.set(req, counted);
}

/** The limits counted before the request reached the chain (by a quick answer), if any. */
export function countedLimitsOf(req: IncomingMessage): CountedLimits | undefined {
  return countedLimits.get(req);
}
