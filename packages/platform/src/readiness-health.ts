// The gRPC health status of a service follows its readiness, so a gRPC readiness probe (the chart's, on the
// standard grpc.health.v1 service) sees what /readyz sees: a dependency that is down, or a shutdown under
// way. The same check /readyz runs is evaluated on a timer and its outcome set on the named services.
import type { Readiness } from './admin';
import type { EventBus } from './bus';
import type { GrpcServer } from './grpc';

export interface ReadinessFollower {
  /** Evaluates the check now and sets the status (also runs on the timer). */
  refresh(): Promise<void>;
  /** Stops the timer and marks the services not ready (the first shutdown step). */
  stop(): void;
}

export function followReadiness(
  check: () => Promise<{ ok: boolean }>,
  target: Pick<GrpcServer, 'setReady'>,
  intervalMs: number,
): ReadinessFollower {
  let stopped = false;
  const refresh = async () => {
    const ok = await check().then(
      (readiness) => readiness.ok,
      () => false,
    );
    if (!stopped) target.setReady(ok);
  };
  const timer = setInterval(() => void refresh(), intervalMs);
  timer.unref();
  void refresh();
  return {
    refresh,
    stop() {
      stopped = true;
      clearInterval(timer);
      target.setReady(false);
    },
  };
}

/**
 * A process's readiness: every check of its own (its database, …) passes and it is not shutting down. The
 * bus is reported (`bus`) but not required: events go through the transactional outbox and wait there
 * while NATS is down, the importer's jobs wait in JetStream, and the gateway checks tokens with accounts
 * instead of its cache. Failing readiness on it would take every pod out of its Service during a NATS
 * outage, and the whole API with them, for nothing the outbox does not already cover.
 */
export function processReadiness(
  ownChecks: () => Promise<Record<string, boolean>>,
  bus: Pick<EventBus, 'isHealthy'>,
  isShuttingDown: () => boolean,
  /** The service's own reported-only states, which a fallback covers (the gateway's Redis). */
  reported: () => Record<string, boolean> = () => ({}),
): () => Promise<Readiness> {
  return async () => {
    const own = await ownChecks();
    const ok = !isShuttingDown() && Object.values(own).every(Boolean);
    return { ok, checks: { ...own, ...reported(), bus: bus.isHealthy() } };
  };
}
