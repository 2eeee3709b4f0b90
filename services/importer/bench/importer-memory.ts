// Benchmark (npm run bench, never a timed test): the importer *process*'s memory. For each dialect a fresh
// importer (`dist/main.js`, in-process bus, its own ports, default configuration unless BENCH_WARM_UP sets
// DSS_IMPORT_WARM_UP) is started and left to settle: idle RSS. Then the generated 200KB dump of that
// dialect (generate-ddl.ts) is converted twice through Importer.ParseDdl over gRPC (the same conversion
// workers as jobs): the time of each, and the process's RSS high-water mark (VmHWM) = peak. For SQL Server
// the process is then left idle past DSS_IMPORT_SQLSRV_IDLE_MS (BENCH_SQLSRV_IDLE_MS, 5 s here) and its RSS
// read again: what stays after the SQL Server parser thread is closed. Targets from the issue: idle ≤ 150MB,
// peak ≤ 300MB on any 200KB script.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServiceClient } from '@dss/platform';
import { freePort } from '@dss/platform/testing';
import { type BenchDriver, generateBenchDdl } from './generate-ddl';

const DRIVERS: BenchDriver[] = ['pgsql', 'mysql', 'sqlsrv'];
const IDLE_MS = Number(process.env['BENCH_SQLSRV_IDLE_MS'] ?? 5000);

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the RSS has not moved by more than 2MB for 3 s (warm-up over), at most 60 s. */
async function settle(pid: number): Promise<number> {
  let last = status(pid, 'VmRSS');
  let stableSince = Date.now();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await sleep(250);
    const now = status(pid, 'VmRSS');
    if (Math.abs(now - last) > 2) stableSince = Date.now();
    last = now;
    if (Date.now() - stableSince >= 3000) break;
  }
  return last;
}

async function start(): Promise<{ child: ChildProcess; address: string }> {
  const grpcPort = await freePort();
  const adminPort = await freePort();
  const address = `127.0.0.1:${grpcPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DSS_IMPORTER_GRPC_ADDR: address,
    DSS_ADMIN_PORT: String(adminPort),
    DSS_DIAGRAMS_GRPC_ADDR: `127.0.0.1:${await freePort()}`,
    DSS_IMPORT_SQLSRV_IDLE_MS: String(IDLE_MS),
    LOG_LEVEL: 'warn',
  };
  delete env['NATS_URL'];
  if (process.env['BENCH_WARM_UP'] !== undefined) env['DSS_IMPORT_WARM_UP'] = process.env['BENCH_WARM_UP'];
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'dist', 'main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Ready when the admin endpoint answers.
  for (let i = 0; i < 200; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${adminPort}/healthz`);
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return { child, address };
}

async function main(): Promise<void> {
  console.log(
    `importer process memory (warm-up: ${process.env['BENCH_WARM_UP'] ?? 'default, pgsql,mysql'}; SQL Server idle close: ${IDLE_MS} ms)`,
  );
  console.log(
    'dialect | DDL | idle RSS | 1st ParseDdl | 2nd ParseDdl | peak RSS (VmHWM) | RSS after the idle close',
  );
  console.log('---|---|---|---|---|---|---');
  for (const driver of DRIVERS) {
    const { ddl } = generateBenchDdl(driver);
    const { child, address } = await start();
    const pid = child.pid as number;
    try {
      const idle = await settle(pid);
      // A cold SQL Server conversion on a loaded machine can take tens of seconds.
      const importer = createServiceClient('Importer', address, { deadlineMs: 120_000 });
      const times: number[] = [];
      for (let run = 0; run < 2; run++) {
        const started = performance.now();
        const answer = await importer.ParseDdl({ driver, ddl });
        times.push(performance.now() - started);
        if (answer.error_code) throw new Error(`${driver}: ${answer.error_code}: ${answer.error_message}`);
      }
      importer.close();
      const peak = status(pid, 'VmHWM');
      let after = '—';
      if (driver === 'sqlsrv') {
        await sleep(IDLE_MS + 2000);
        after = `${status(pid, 'VmRSS')} MB`;
      }
      console.log(
        `${driver} | ${Math.round(Buffer.byteLength(ddl) / 1024)}KB | ${idle} MB | ${Math.round(times[0] as number)} ms | ` +
          `${Math.round(times[1] as number)} ms | ${peak} MB | ${after}`,
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
