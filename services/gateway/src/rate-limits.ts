// Rate limits of the spec: per IP for every request (before authentication), then per token and
// operation class. rate-limiter-flexible keeps the counters in Redis when REDIS_URL is set (shared by
// every gateway replica), else in this process's memory. A Redis outage falls back to memory instead
// of failing requests.
import { ServiceError } from '@dss/platform';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

export const OPERATION_CLASSES = ['read', 'schema', 'write'] as const;
export type OperationClass = (typeof OPERATION_CLASSES)[number];

export interface RateLimitSettings {
  ipPerMinute: number;
  readPerMinute: number;
  schemaPerMinute: number;
  writePerMinute: number;
}

export interface Consumption {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window frees a request; set when not allowed. */
  retryAfterSeconds?: number;
}

export interface RateLimits {
  consumeIp(ip: string): Promise<Consumption>;
  consumeToken(tokenId: string, operation: OperationClass): Promise<Consumption>;
  /** Gives back one request of a token's class (a write that was not accepted). */
  refundToken(tokenId: string, operation: OperationClass): Promise<void>;
}

export function createRateLimits(
  settings: RateLimitSettings,
  options: { redis?: Redis; keyPrefix?: string } = {},
) {
  const prefix = options.keyPrefix ?? 'dss:rl';
  const make = (name: string, points: number): RateLimiterAbstract => {
    const common = { keyPrefix: `${prefix}:${name}`, points, duration: 60 };
    if (!options.redis) return new RateLimiterMemory(common);
    return new RateLimiterRedis({
      ...common,
      storeClient: options.redis,
      insuranceLimiter: new RateLimiterMemory(common),
    });
  };
  const ip = make('ip', settings.ipPerMinute);
  const byClass: Record<OperationClass, RateLimiterAbstract> = {
    read: make('read', settings.readPerMinute),
    schema: make('schema', settings.schemaPerMinute),
    write: make('write', settings.writePerMinute),
  };
  return {
    consumeIp: (address: string) => consume(ip, address),
    consumeToken: (tokenId: string, operation: OperationClass) => consume(byClass[operation], tokenId),
    refundToken: async (tokenId: string, operation: OperationClass) => {
      await byClass[operation].reward(tokenId, 1).catch(() => undefined);
    },
  } satisfies RateLimits;
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<Consumption> {
  try {
    const result = await limiter.consume(key);
    return { allowed: true, limit: limiter.points, remaining: result.remainingPoints };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    return { allowed: false, limit: limiter.points, remaining: 0, retryAfterSeconds };
  }
}

export function rateLimited(consumption: Consumption, scope: string): ServiceError {
  return new ServiceError(
    'rate_limited',
    `too many requests: at most ${consumption.limit} per minute ${scope}`,
    {
      retry_after_seconds: consumption.retryAfterSeconds ?? 1,
    },
  );
}
