// The gRPC health status of a service follows its readiness, so a gRPC readiness probe (the chart's, on the
// standard grpc.health.v1 service) sees what /readyz sees: a dependency that is down, or a shutdown under
// way. The same check /readyz runs is evaluated on a timer and its outcome set on the named services.
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
