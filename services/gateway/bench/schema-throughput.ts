// Benchmark (npm run bench, never a timed test): GET /v1/diagrams/{uuid}/schema of a 100-table diagram
// through the gateway of the embedded system, beside a bare `node:http` server answering the same bytes
// with headers of the same shape, both loaded by autocannon at 50 connections in the same run. A second
// pair of runs sends If-None-Match (the 304 path). Loopback only; rate limits raised by configuration.
//
// The system (gateway plus the services behind it, one process) and the bare server run in this process;
// autocannon runs as a child process, so the load generator does not share the servers' event loop (it
// does share the machine's cores). Settings: BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (2),
// BENCH_CONNECTIONS (50). PostgreSQL: DSS_TEST_DATABASE_URL, else 127.0.0.1:5432.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { testDatabaseUrl } from '@dss/platform/testing';
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';

const DURATION_SECONDS = positiveInteger('BENCH_DURATION_SECONDS', 10);
const WARMUP_SECONDS = positiveInteger('BENCH_WARMUP_SECONDS', 2);
const CONNECTIONS = positiveInteger('BENCH_CONNECTIONS', 50);
const TABLES = 100;
const RAISED_LIMIT = '10000000';

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
}

/** The fields of autocannon's `--json` result this benchmark reads. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  '2xx': number;
  '3xx': number;
  non2xx: number;
}

async function main(): Promise<void> {
  let system: TestSystem;
  try {
    system = await startTestSystem({
      DSS_RATE_LIMIT_IP_PER_MIN: RAISED_LIMIT,
      DSS_RATE_LIMIT_READ_PER_MIN: RAISED_LIMIT,
      DSS_RATE_LIMIT_SCHEMA_PER_MIN: RAISED_LIMIT,
      DSS_RATE_LIMIT_WRITE_PER_MIN: RAISED_LIMIT,
    });
  } catch (error) {
    const url = new URL(testDatabaseUrl());
    url.password = url.password ? '***' : '';
    console.error(
      `bench: cannot start the system on a fresh PostgreSQL database at ${url.toString()} ` +
        `(${(error as Error).message}); set DSS_TEST_DATABASE_URL or run PostgreSQL on 127.0.0.1:5432`,
    );
    process.exitCode = 1;
    return;
  }
  let bare: http.Server | undefined;
  try {
    const token = await issueToken(system);
    const uuid = await createDiagram(system.apiUrl, token);
    const schemaUrl = `${system.apiUrl}/diagrams/${uuid}/schema`;
    const reference = await fetch(schemaUrl, { headers: { authorization: `Bearer ${token}` } });
    if (reference.status !== 200) throw new Error(`GET /schema answered ${reference.status}`);
    const bytes = Buffer.from(await reference.arrayBuffer());
    const etag = reference.headers.get('etag')!;
    bare = await startBareServer(bytes, reference.headers);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1/diagrams/${uuid}/schema`;

    console.log(
      `GET /schema of a ${TABLES}-table diagram: ${bytes.length} bytes of JSON; ` +
        `${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${DURATION_SECONDS} s measured per run; ` +
        `node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'})`,
    );
    const auth = `authorization=Bearer ${token}`;
    const rows: [string, Measured, Measured][] = [];
    rows.push([
      '200 (full body)',
      await measure(schemaUrl, [auth], '2xx'),
      await measure(bareUrl, [auth], '2xx'),
    ]);
    const conditional = [auth, `if-none-match=${etag}`];
    rows.push([
      '304 (If-None-Match)',
      await measure(schemaUrl, conditional, '3xx'),
      await measure(bareUrl, conditional, '3xx'),
    ]);
    printTable(rows);
  } finally {
    await new Promise<void>((resolve) => (bare ? bare.close(() => resolve()) : resolve()));
    await system.stop();
  }
}

/** A team on the team plan (250 tables), one editor and a token with write access, through gRPC. */
async function issueToken(system: TestSystem): Promise<string> {
  const people = new TestPeople(system.grpc.accounts);
  try {
    return (await people.member({ team: 'bench', role: 'editor', write: true })).token;
  } finally {
    people.close();
  }
}

/**
 * A realistic 100-table patch: ten columns per table (key, names, money, flags, times, a comment), an
 * index, and relationships — each table points at the one before it and at a shared `accounts` table.
 */
function hundredTablePatch() {
  const names = Array.from({ length: TABLES }, (_, i) =>
    i === 0 ? 'accounts' : `entity_${String(i).padStart(3, '0')}`,
  );
  const tables = names.map((name, i) => ({
    name,
    comment: `Records of ${name.replace('_', ' ')}`,
    columns: [
      { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
      ...(i === 0 ? [] : [{ name: 'account_id', type: 'bigint', is_nullable: false, is_index: true }]),
      ...(i <= 1 ? [] : [{ name: 'parent_id', type: 'bigint' }]),
      { name: 'code', type: 'varchar', length: 32, is_unique_key: true, is_nullable: false },
      { name: 'title', type: 'varchar', length: 255, is_nullable: false },
      { name: 'description', type: 'text' },
      { name: 'amount', type: 'integer', default: '0' },
      { name: 'is_active', type: 'boolean', default: 'true', is_nullable: false },
      { name: 'created_at', type: 'timestamp', is_nullable: false },
      { name: 'updated_at', type: 'timestamp' },
    ],
    indexes: [{ name: `${name}_title_idx`, type: 'index', columns: ['title'] }],
  }));
  const relationships = names.slice(1).flatMap((name, index) => [
    {
      type: 'many-to-one',
      source_table: name,
      source_column: 'account_id',
      target_table: 'accounts',
      target_column: 'id',
    },
    ...(index === 0
      ? []
      : [
          {
            type: 'many-to-one',
            source_table: name,
            source_column: 'parent_id',
            target_table: names[index]!,
            target_column: 'id',
          },
        ]),
  ]);
  return { strategy: 'merge', tables, relationships };
}

async function createDiagram(apiUrl: string, token: string): Promise<string> {
  const response = await fetch(`${apiUrl}/diagrams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Benchmark', driver: 'pgsql', schema: hundredTablePatch() }),
  });
  const body = (await response.json()) as { data: { uuid: string; table_count: number } };
  if (response.status !== 201 || body.data.table_count !== TABLES) {
    throw new Error(`creating the diagram answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.data.uuid;
}

/**
 * The bare baseline: the same bytes with the same headers' shape (Content-Type, ETag, Vary, the rate-limit
 * pair, X-Request-Id, Content-Length), and 304 for a matching If-None-Match. No routing, no authentication.
 */
function startBareServer(body: Buffer, reference: Headers): Promise<http.Server> {
  const etag = reference.get('etag')!;
  let counter = 0;
  const server = http.createServer((req, res) => {
    res.setHeader('X-Request-Id', `bare-${++counter}`);
    res.setHeader('Vary', reference.get('vary') ?? 'Accept');
    res.setHeader('X-RateLimit-Limit', reference.get('x-ratelimit-limit') ?? RAISED_LIMIT);
    res.setHeader('X-RateLimit-Remaining', reference.get('x-ratelimit-remaining') ?? RAISED_LIMIT);
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader('Content-Type', reference.get('content-type')!);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function measure(url: string, headers: string[], expected: '2xx' | '3xx'): Promise<Measured> {
  await autocannon(url, headers, WARMUP_SECONDS);
  const result = await autocannon(url, headers, DURATION_SECONDS);
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

/** Runs the autocannon CLI in a child process and reads its JSON result. */
function autocannon(url: string, headers: string[], seconds: number): Promise<AutocannonResult> {
  const args = [
    require.resolve('autocannon/autocannon.js'),
    '--connections',
    String(CONNECTIONS),
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

function printTable(rows: [string, Measured, Measured][]): void {
  const cell = (m: Measured) =>
    `${Math.round(m.requestsPerSecond).toString().padStart(7)} req/s  p50 ${m.p50.toFixed(0).padStart(3)} ms  p99 ${m.p99.toFixed(0).padStart(3)} ms`;
  console.log('');
  console.log(
    `${'response'.padEnd(20)}  ${'gateway'.padEnd(38)}  ${'bare node:http'.padEnd(38)}  gateway/bare`,
  );
  for (const [label, gateway, bare] of rows) {
    const ratio = gateway.requestsPerSecond / bare.requestsPerSecond;
    console.log(`${label.padEnd(20)}  ${cell(gateway)}  ${cell(bare)}  ${ratio.toFixed(2)}`);
  }
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench: ${name} must be a positive integer, got ${raw}`);
    process.exit(2);
  }
  return value;
}

main().catch((error: unknown) => {
  console.error(`bench: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
