// Timing helpers for the benchmark: warm-up runs first (so the JIT has compiled the code), then the median
// of the measured runs, which a single slow run (a GC pause, a busy machine) does not move.

export interface Measurement {
  label: string;
  medianMs: number;
  runs: number;
}

export function measure(label: string, runs: number, work: () => unknown): Measurement {
  const warmUps = Math.max(3, Math.floor(runs / 5));
  for (let i = 0; i < warmUps; i++) work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const middle = Math.floor(times.length / 2);
  const medianMs = times.length % 2 === 1 ? times[middle]! : (times[middle - 1]! + times[middle]!) / 2;
  return { label, medianMs, runs };
}

export function formatRow(measurement: Measurement, baseline: Measurement): string {
  const ratio = measurement.medianMs / baseline.medianMs;
  return `${measurement.label.padEnd(46)} ${measurement.medianMs.toFixed(2).padStart(9)} ms  ${ratio.toFixed(2).padStart(7)} × JSON.parse`;
}
