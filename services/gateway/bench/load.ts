// The load generator of the benchmarks: the autocannon CLI in a child process (so it does not share the
// servers' event loop), HTTP/1.1 keep-alive, latency percentiles from its HDR histogram.
import { execFile } from 'node:child_process';

export interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Requests per second over all connections (autocannon --overallRate); unset: as fast as answered. */
  rate?: number;
}

/** The fields of autocannon's `--json` result read here. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  '2xx': number;
  '3xx': number;
}

/** Loads `url` after a warm-up; any error, timeout or answer outside `expected` fails the run. */
export async function measure(
  url: string,
  headers: string[],
  expected: '2xx' | '3xx',
  settings: LoadSettings,
): Promise<Measured> {
  await autocannon(url, headers, settings.warmupSeconds, settings);
  const result = await autocannon(url, headers, settings.seconds, settings);
  const unexpected = result.requests.total - result[expected];
  if (result.errors > 0 || result.timeouts > 0 || unexpected > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${unexpected} responses not ${expected}`,
    );
  }
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

function autocannon(
  url: string,
  headers: string[],
  seconds: number,
  { connections, rate }: LoadSettings,
): Promise<AutocannonResult> {
  const args = [
    require.resolve('autocannon/autocannon.js'),
    '--connections',
    String(connections),
    ...(rate === undefined ? [] : ['--overallRate', String(rate)]),
    '--duration',
    String(seconds),
    '--no-progress',
    '--json',
    ...headers.flatMap((header) => ['--headers', header]),
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`autocannon failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}

export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench: ${name} must be a positive integer, got ${raw}`);
    process.exit(2);
  }
  return value;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
