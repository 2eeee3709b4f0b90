// The sender: leases due deliveries, signs and posts them, and logs each attempt. Failures are retried
// with exponential backoff until the delivery's window ends; an endpoint that failed every attempt for the
// window is disabled with a notice. Runs beside the intake and never on a request's path.
import { randomUUID } from 'node:crypto';
import { type Logger, type Metrics, OutageLog } from '@dss/platform';
import type { Pool } from 'pg';
import { type AllowList, checkTarget, TargetRefused } from './outbound-guard';
import * as repo from './repository';
import type { SecretKeys } from './secret-keys';
import { isSuccess, type SendResult, SEND_TIMEOUT_MS, sendWebhook } from './sender';
import { signingSecrets, webhookHeaders } from './signing';

const BATCH = 16;
/** Longer than one request may take, so a live sender never loses its lease. */
const LEASE_SECONDS = Math.ceil(SEND_TIMEOUT_MS / 1000) + 5;
const MAX_RETRY_DELAY_MS = 3_600_000;

export interface DispatcherDeps {
  pool: Pool;
  logger: Logger;
  metrics: Metrics;
  allowList: AllowList;
  /** Decrypts the endpoints' secrets to sign with. */
  secretKeys: SecretKeys;
  retryBaseMs: number;
  retryWindowSeconds: number;
  pollIntervalMs: number;
}

/** Delay after the n-th failed attempt (1-based): base, 2 x base, 4 x base, … up to an hour. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.min(attempt - 1, 30), MAX_RETRY_DELAY_MS);
}

export function startDispatcher(deps: DispatcherDeps) {
  const { pool, logger, metrics } = deps;
  const sent = metrics.counter('webhook_deliveries_total', 'Webhook delivery attempts, by outcome', [
    'outcome',
  ]);
  const latency = metrics.histogram('webhook_delivery_duration_seconds', 'Time a receiver took to answer');
  const disabled = metrics.counter(
    'webhook_endpoints_disabled_total',
    'Endpoints disabled after sustained failure',
  );
  const lag = metrics.gauge('webhook_delivery_lag_seconds', 'How long the oldest due delivery has waited');
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;

  async function attempt(
    delivery: repo.DeliveryRow,
    endpoint: repo.EndpointRow,
    leaseId: string,
  ): Promise<void> {
    let result: SendResult;
    const attemptedAt = new Date();
    try {
      const target = await checkTarget(endpoint.url, deps.allowList);
      const now = new Date();
      const headers = webhookHeaders(
        delivery.id,
        delivery.payload,
        signingSecrets(endpoint, now, deps.secretKeys),
        now,
      );
      result = await sendWebhook(target, headers, delivery.payload);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      result = { statusCode: null, error: `target refused: ${error.message}`, latencyMs: 0, excerpt: '' };
    }
    const ok = isSuccess(result);
    sent.inc({ outcome: ok ? 'succeeded' : 'failed' });
    latency.observe(result.latencyMs / 1000);
    await repo.insertAttempt(pool, {
      delivery_id: delivery.id,
      status_code: result.statusCode,
      error: result.error,
      latency_ms: result.latencyMs,
      response_excerpt: result.excerpt,
      manual: delivery.manual_requested,
      attempted_at: attemptedAt,
    });
    if (ok) {
      await repo.markSucceeded(pool, delivery.id, leaseId);
      await repo.endpointSucceeded(pool, endpoint.id);
      return;
    }
    const delay = retryDelayMs(delivery.attempt_count + 1, deps.retryBaseMs);
    const givenUp = await repo.markFailedAttempt(pool, delivery.id, leaseId, delay);
    const failure = {
      attemptedAt,
      windowSeconds: deps.retryWindowSeconds,
      givenUpDelivery: givenUp ? delivery.id : null,
    };
    if (await repo.endpointFailed(pool, endpoint.id, failure)) {
      disabled.inc();
      logger.warn({ endpoint: endpoint.id }, 'webhook endpoint disabled after sustained failure');
    }
  }

  async function tick(): Promise<number> {
    const leaseId = randomUUID();
    const due = await repo.leaseDue(pool, BATCH, LEASE_SECONDS, leaseId);
    if (due.length === 0) return 0;
    const endpoints = await repo.endpointsById(pool, [...new Set(due.map((row) => row.endpoint_id))]);
    // Each leased delivery heads its own endpoint and diagram, so they may go out side by side.
    await Promise.all(
      due.map((delivery) => {
        const endpoint = endpoints.get(delivery.endpoint_id);
        return endpoint ? attempt(delivery, endpoint, leaseId) : Promise.resolve();
      }),
    );
    return due.length;
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake) {
        pendingWake = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wakeUp = null;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
    });

  // A database outage fails every poll the same way: logged when it begins and then once per quiet period,
  // not with a stack per poll.
  const failures = new OutageLog(logger, 'webhook dispatch failed; retrying');
  const loop = (async () => {
    while (!stopped) {
      try {
        lag.set(await repo.oldestDueAgeSeconds(pool));
        if ((await tick()) === BATCH) continue;
      } catch (error) {
        const { message, code } = error as { message?: string; code?: string };
        if (!stopped) failures.failed({ error: message, ...(code ? { code } : {}) });
      }
      if (!stopped) await sleep(deps.pollIntervalMs);
    }
  })();

  return {
    /** New deliveries were stored, or one was requeued: look now. */
    wake() {
      if (wakeUp) wakeUp();
      else pendingWake = true;
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await loop;
    },
  };
}

export type Dispatcher = ReturnType<typeof startDispatcher>;
