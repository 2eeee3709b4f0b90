// Benchmark (npm run bench, never a timed test): DDL import of a generated dump per dialect (generate-ddl.ts,
// just under the API's 200KB limit), two ways in one process:
//   parse alone      convertDdl(driver, ddl) on this thread, the parsers already loaded;
//   create-to-ready  POST /v1/diagrams {ddl} through the gateway of the embedded system (startTestSystem:
//                    gateway, diagrams with its outbox, in-process bus, importer with its warm conversion
//                    worker), polling GET /v1/diagrams/{uuid} until `ready` when the answer is 202.
// BENCH_PARSE_THREADS (1) sets the importer's DSS_IMPORT_PARSE_THREADS. One untimed run of each first
// (loads the parsers, warms the importer's worker), then BENCH_RUNS (5) timed runs; medians. Memory: this process's RSS high-water mark (process.resourceUsage().maxRSS) after each
// phase; the conversion worker shares the process, capped by DSS_IMPORT_MAX_HEAP_MB. Targets from the issue:
// create-to-ready ≤ 1.5 × parse alone, and ready ≤ 1 s for every dialect.
// PostgreSQL: DSS_TEST_DATABASE_URL, else 127.0.0.1:5432.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { convertDdl } from '@dss/ddl';
import { createServiceClient } from '@dss/platform';
import { startTestSystem, type TestSystem } from '@dss/system';
import { type BenchDriver, generateBenchDdl } from './generate-ddl';
import { median } from '@dss/schema/dist/bench/measure';

const RUNS = positiveInteger('BENCH_RUNS', 5);
/** DSS_IMPORT_PARSE_THREADS of the embedded importer (parse alone always runs on one thread). */
const PARSE_THREADS = positiveInteger('BENCH_PARSE_THREADS', 1);
const DRIVERS: BenchDriver[] = ['mysql', 'pgsql', 'sqlsrv'];
const READY_TARGET_MS = 1000;
const RATIO_TARGET = 1.5;

interface Row {
  driver: BenchDriver;
  bytes: number;
  tables: number;
  relationships: number;
  parseMs: number;
  parseRssMb: number;
  readyMs: number;
  statuses: string;
}

async function main(): Promise<void> {
  const inputs = DRIVERS.map((driver) => ({ driver, ...generateBenchDdl(driver) }));
  const rows: Row[] = [];
  for (const input of inputs) {
    const first = await convertDdl(input.driver, input.ddl);
    if (!first.ok) throw new Error(`${input.driver}: the generated DDL does not convert: ${first.message}`);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      await convertDdl(input.driver, input.ddl);
      times.push(performance.now() - started);
    }
    rows.push({
      driver: input.driver,
      bytes: Buffer.byteLength(input.ddl),
      tables: first.document.tables.length,
      relationships: first.document.relationships.length,
      parseMs: median(times),
      parseRssMb: maxRssMb(),
      readyMs: Number.NaN,
      statuses: '',
    });
  }

  const system = await startTestSystem({
    DSS_IMPORT_WARM_UP: 'true',
    DSS_IMPORT_PARSE_THREADS: String(PARSE_THREADS),
    DSS_IMPORT_TIMEOUT_MS: '120000',
    DSS_IMPORT_ACK_WAIT_MS: '180000',
  });
  try {
    const token = await enterpriseToken(system);
    for (const [index, input] of inputs.entries()) {
      const row = rows[index] as Row;
      await createToReady(system, token, input.driver, input.ddl);
      const times: number[] = [];
      const statuses = new Set<number>();
      for (let run = 0; run < RUNS; run++) {
        const measured = await createToReady(system, token, input.driver, input.ddl);
        times.push(measured.ms);
        statuses.add(measured.firstStatus);
      }
      row.readyMs = median(times);
      row.statuses = [...statuses].sort().join('/');
    }
  } finally {
    await system.stop();
  }
  const peakMb = maxRssMb();

  console.log(
    `DDL import, ${RUNS} runs per figure (median), importer parse threads ${PARSE_THREADS}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}, Node ${process.version}`,
  );
  console.log(
    'dialect | DDL | tables | relationships | parse alone | create-to-ready (POST status) | ratio (≤ 1.5) | ready ≤ 1 s | RSS peak after parsing',
  );
  for (const row of rows) {
    const ratio = row.readyMs / row.parseMs;
    console.log(
      [
        row.driver,
        `${(row.bytes / 1024).toFixed(0)}KB`,
        row.tables,
        row.relationships,
        `${row.parseMs.toFixed(0)} ms`,
        `${row.readyMs.toFixed(0)} ms (${row.statuses})`,
        `${ratio.toFixed(2)} ${ratio <= RATIO_TARGET ? 'met' : 'MISSED'}`,
        row.readyMs <= READY_TARGET_MS ? 'met' : 'MISSED',
        `${row.parseRssMb} MB`,
      ].join(' | '),
    );
  }
  console.log(
    `RSS peak of the process at the end (parsers here + the embedded system and its warm conversion worker): ${peakMb} MB`,
  );
}

/** POSTs the DDL and waits until the diagram is ready; milliseconds from the request to `ready`. */
async function createToReady(
  system: TestSystem,
  token: string,
  driver: BenchDriver,
  ddl: string,
): Promise<{ ms: number; firstStatus: number }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // A fresh name per run: an identical request would be answered as a replay of the first diagram.
  const body = JSON.stringify({ name: `bench ${driver} ${randomUUID()}`, driver, ddl });
  const started = performance.now();
  const response = await fetch(`${system.apiUrl}/diagrams`, { method: 'POST', headers, body });
  const created = (await response.json()) as { data?: { uuid: string; status: string; error?: unknown } };
  if (!created.data) throw new Error(`${driver}: POST /diagrams answered ${response.status}`);
  let status = created.data.status;
  while (status === 'importing') {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const polled = await fetch(`${system.apiUrl}/diagrams/${created.data.uuid}`, { headers });
    status = ((await polled.json()) as { data: { status: string } }).data.status;
  }
  const ms = performance.now() - started;
  if (status !== 'ready') throw new Error(`${driver}: the import ended ${status}`);
  return { ms, firstStatus: response.status };
}

async function enterpriseToken(system: TestSystem): Promise<string> {
  const accounts = createServiceClient('Accounts', system.grpc.accounts);
  try {
    const team = `bench${randomUUID().slice(0, 8)}`;
    const email = `bench@${team}.test`;
    await accounts.CreateTeam({ slug: team, name: 'DDL bench', plan: 'enterprise' });
    await accounts.CreateUser({ email, name: 'Bench' });
    await accounts.AddMember({ team_slug: team, user_email: email, role: 'editor' });
    return (await accounts.IssueToken({ team_slug: team, user_email: email, name: 'bench', write: true }))
      .token;
  } finally {
    accounts.close();
  }
}

function maxRssMb(): number {
  // maxRSS is in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function positiveInteger(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
