// Timing helpers for the benchmark: warm-up runs first (so the JIT has compiled the code), then the median
// of the measured runs, which a single slow run (a GC pause, a busy machine) does not move. The minimum is
// reported too: on a shared machine it is the figure least disturbed by other processes.

export interface Measurement {
  label: string;
  medianMs: number;
  minMs: number;
  runs: number;
}

/** The median of `values` (in any order; not changed): every benchmark's figure. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summarize(label: string, times: number[]): Measurement {
  times.sort((a, b) => a - b);
  return { label, medianMs: median(times), minMs: times[0]!, runs: times.length };
}

function timeOnce(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

function warmUp(runs: number, work: () => unknown): void {
  const warmUps = Math.max(3, Math.floor(runs / 5));
  for (let i = 0; i < warmUps; i++) work();
}

export function measure(label: string, runs: number, work: () => unknown): Measurement {
  warmUp(runs, work);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(timeOnce(work));
  return summarize(label, times);
}

/** CPU time of the whole process (every thread: V8 collects garbage on helper threads too), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface PairMeasurement {
  work: Measurement;
  baseline: Measurement;
  /** Median CPU time per run: a process waiting for a core uses none, so load moves it less. */
  workCpuMs: number;
  baselineCpuMs: number;
}

/**
 * Measures `work` and `baseline` alternately, run after run, so both see the same machine load: on a busy
 * shared machine, measuring them minutes apart can move the ratio more than any change to the code does.
 */
export function measurePair(
  label: string,
  runs: number,
  work: () => unknown,
  baselineLabel: string,
  baseline: () => unknown,
): PairMeasurement {
  warmUp(runs, work);
  warmUp(runs, baseline);
  const times: [number[], number[]] = [[], []];
  const cpu: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [slot, step] of [baseline, work].entries()) {
      const cpuStart = cpuMs();
      times[slot]!.push(timeOnce(step));
      cpu[slot]!.push(cpuMs() - cpuStart);
    }
  }
  const medianOf = (values: number[]) => median(values.sort((a, b) => a - b));
  return {
    work: summarize(label, times[1]),
    baseline: summarize(baselineLabel, times[0]),
    workCpuMs: medianOf(cpu[1]),
    baselineCpuMs: medianOf(cpu[0]),
  };
}

export function formatRow(measurement: Measurement, baseline: Measurement): string {
  const ratio = measurement.medianMs / baseline.medianMs;
  const time = (ms: number) => ms.toFixed(2).padStart(8);
  return (
    `${measurement.label.padEnd(46)} ${time(measurement.medianMs)} ms (min ${time(measurement.minMs)})` +
    `  ${ratio.toFixed(2).padStart(6)} × JSON.parse`
  );
}
