// Prometheus metrics per service: one registry each (embedded mode runs several services in one process
// and the admin server merges their registries), every name prefixed `dss_`, every series labelled with
// the service. Metric factories are memoised by name so wiring code can ask for a metric where it needs it.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const METRIC_PREFIX = 'dss_';

/** Seconds; from 1 ms to 10 s, the range of an RPC or a query. */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  service: string;
  registry: Registry;
  counter<L extends string>(name: string, help: string, labelNames?: readonly L[]): Counter<L>;
  histogram<L extends string>(
    name: string,
    help: string,
    labelNames?: readonly L[],
    buckets?: number[],
  ): Histogram<L>;
  gauge<L extends string>(name: string, help: string, labelNames?: readonly L[]): Gauge<L>;
}

export interface MetricsOptions {
  /**
   * Also collect the process metrics (CPU, memory, event loop, GC). Default true; in embedded mode only
   * one service needs them, since every service shares the process.
   */
  processMetrics?: boolean;
}

export function createMetrics(service: string, options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

  const created = new Map<string, Counter<string> | Histogram<string> | Gauge<string>>();
  function memoised<M extends Counter<string> | Histogram<string> | Gauge<string>>(
    name: string,
    kind: new (...args: never[]) => M,
    make: (fullName: string) => M,
  ): M {
    const fullName = name.startsWith(METRIC_PREFIX) ? name : `${METRIC_PREFIX}${name}`;
    const existing = created.get(fullName);
    if (existing) {
      if (!(existing instanceof kind)) throw new Error(`metric ${fullName} already exists with another type`);
      return existing as M;
    }
    const metric = make(fullName);
    created.set(fullName, metric);
    return metric;
  }

  return {
    service,
    registry,
    counter: (name, help, labelNames = []) =>
      memoised(
        name,
        Counter,
        (fullName) => new Counter({ name: fullName, help, labelNames, registers: [registry] }),
      ),
    histogram: (name, help, labelNames = [], buckets = DURATION_BUCKETS) =>
      memoised(
        name,
        Histogram,
        (fullName) => new Histogram({ name: fullName, help, labelNames, buckets, registers: [registry] }),
      ),
    gauge: (name, help, labelNames = []) =>
      memoised(
        name,
        Gauge,
        (fullName) => new Gauge({ name: fullName, help, labelNames, registers: [registry] }),
      ),
  };
}
