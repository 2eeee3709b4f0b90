// Benchmark (npm run bench, never a timed test) of the gateway's hot reads, each beside a baseline measured
// in the same run:
//
// 1. GET /v1/diagrams/{uuid}/schema of a 100-table diagram through the gateway of the embedded system, and a
//    bare `node:http` server answering the same bytes with headers of the same shape: the full 200, then
//    If-None-Match (the 304 path). Each pair is measured BENCH_ROUNDS times, alternating; the medians print.
// 2. The staleness of a proven ETag: a change applied through the proposals service, then conditional
//    requests with the old ETag until one answers 200 (the diagram event's way to the gateway).
// 3. GET /v1/diagrams at scale: the first page and a deep cursor page with 1k, 100k and 1M diagrams in the
//    team (list-scale.ts); flat latency is the target. BENCH_LIST_SKIP_1M=1 stops at 100k.
//
// The system (gateway and the services behind it, one process) and the bare server run in this process;
// autocannon runs as a child process (load.ts). Loopback only; rate limits raised by configuration.
// Settings: BENCH_DURATION_SECONDS (5), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3),
// BENCH_LIST_CONNECTIONS (10), BENCH_SEED_DEADLINE_SECONDS (600 per size). PostgreSQL: DSS_TEST_DATABASE_URL,
// else 127.0.0.1:5432 (the system gets a fresh database of its own, dropped at the end).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { createServiceClient } from '@dss/platform';
import { testDatabaseUrl } from '@dss/platform/testing';
import { startTestSystem, TestPeople, type TestMember, type TestSystem } from '@dss/system';
import { type ListScaleRow, measureListAtScale } from './list-scale';
import { type LoadSettings, type Measured, measure, median, positiveInteger } from './load';

const SCHEMA_LOAD: LoadSettings = {
  connections: positiveInteger('BENCH_CONNECTIONS', 50),
  warmupSeconds: positiveInteger('BENCH_WARMUP_SECONDS', 2),
  seconds: positiveInteger('BENCH_DURATION_SECONDS', 5),
};
const LIST_LOAD: LoadSettings = {
  connections: positiveInteger('BENCH_LIST_CONNECTIONS', 10),
  warmupSeconds: 1,
  seconds: SCHEMA_LOAD.seconds,
};
/** The throughput at which the issue measured the 200 path's tail (945 req/s, p99 116 ms): the paced row. */
const PACED_RATE = positiveInteger('BENCH_PACED_RATE', 945);
const ROUNDS = positiveInteger('BENCH_ROUNDS', 3);
const SEED_DEADLINE_SECONDS = positiveInteger('BENCH_SEED_DEADLINE_SECONDS', 600);
const LIST_SIZES = process.env.BENCH_LIST_SKIP_1M === '1' ? [1_000, 100_000] : [1_000, 100_000, 1_000_000];
const STALENESS_SAMPLES = 20;
const TABLES = 100;
const RAISED_LIMIT = '10000000';

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
    const member = await teamMember(system);
    const token = member.token;
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
        `${SCHEMA_LOAD.connections} connections, ${SCHEMA_LOAD.warmupSeconds} s warm-up then ` +
        `${SCHEMA_LOAD.seconds} s measured per run, ${ROUNDS} rounds (medians); ` +
        `node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), ` +
        `load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    const auth = `authorization=Bearer ${token}`;
    const conditional = [auth, `if-none-match=${etag}`];
    const rows: [string, Measured, Measured][] = [
      ['200 (full body)', ...(await measurePair(schemaUrl, bareUrl, [auth], '2xx'))],
      [
        `200 at ${PACED_RATE} req/s`,
        ...(await measurePair(schemaUrl, bareUrl, [auth], '2xx', { ...SCHEMA_LOAD, rate: PACED_RATE })),
      ],
      ['304 (If-None-Match)', ...(await measurePair(schemaUrl, bareUrl, conditional, '3xx'))],
    ];
    printSchemaTable(rows);

    await measureStaleness(system, member, uuid);

    console.log('');
    console.log(
      `GET /v1/diagrams?limit=100 of one team: first page and a page 90% deep (cursor); ` +
        `${LIST_LOAD.connections} connections, ${LIST_LOAD.seconds} s measured each; rows added with COPY`,
    );
    console.log(
      `${'diagrams'.padStart(9)}  ${'seeded in'.padStart(9)}  ${'first page'.padEnd(36)}  ${'deep page'.padEnd(36)}`,
    );
    const listRows = await measureListAtScale({
      databaseUrl: system.env.DATABASE_URL!,
      apiUrl: system.apiUrl,
      token,
      teamDiagramUuid: uuid,
      sizes: LIST_SIZES,
      seedDeadlineSeconds: SEED_DEADLINE_SECONDS,
      load: LIST_LOAD,
      onRow: printListRow,
    });
    printListFlatness(listRows);
  } finally {
    await new Promise<void>((resolve) => (bare ? bare.close(() => resolve()) : resolve()));
    await system.stop();
  }
}

/** A team on the team plan (250 tables), one editor and a token with write access, through gRPC. */
async function teamMember(system: TestSystem): Promise<TestMember> {
  const people = new TestPeople(system.grpc.accounts);
  try {
    return await people.member({ team: 'bench', role: 'editor', write: true });
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

/** Gateway and bare server, alternating, ROUNDS times each; the median of each figure. */
async function measurePair(
  gatewayUrl: string,
  bareUrl: string,
  headers: string[],
  expected: '2xx' | '3xx',
  load: LoadSettings = SCHEMA_LOAD,
): Promise<[Measured, Measured]> {
  const gateway: Measured[] = [];
  const bare: Measured[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    gateway.push(await measure(gatewayUrl, headers, expected, load));
    bare.push(await measure(bareUrl, headers, expected, load));
  }
  return [medianOf(gateway), medianOf(bare)];
}

function medianOf(runs: Measured[]): Measured {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    total: median(runs.map((run) => run.total)),
  };
}

/**
 * How long a proven ETag outlives a change: apply a one-column proposal, then ask with the old ETag every
 * millisecond until the answer is 200. The bound when events are lost is DSS_ETAG_PROOF_MS (5 s).
 */
async function measureStaleness(system: TestSystem, member: TestMember, uuid: string): Promise<void> {
  const proposals = createServiceClient('Proposals', system.grpc.proposals);
  const headers = { authorization: `Bearer ${member.token}` };
  const schemaUrl = `${system.apiUrl}/diagrams/${uuid}/schema`;
  const samples: number[] = [];
  try {
    for (let i = 0; i < STALENESS_SAMPLES; i++) {
      const etag = (await fetch(schemaUrl, { headers })).headers.get('etag')!;
      const proven = await fetch(schemaUrl, { headers: { ...headers, 'if-none-match': etag } });
      if (proven.status !== 304) throw new Error(`the conditional request answered ${proven.status}`);
      const proposal = await fetch(`${system.apiUrl}/diagrams/${uuid}/proposals`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Add column ${i}`,
          message: 'staleness benchmark',
          schema: {
            strategy: 'additive',
            tables: [{ name: 'accounts', columns: [{ name: `extra_${i}`, type: 'integer' }] }],
          },
        }),
      });
      const proposalUuid = ((await proposal.json()) as { data: { uuid: string } }).data.uuid;
      await proposals.ApplyProposal({ uuid: proposalUuid, user_id: member.userId, team_id: '', reason: '' });
      const applied = performance.now();
      for (let attempt = 0; ; attempt++) {
        const answer = await fetch(schemaUrl, { headers: { ...headers, 'if-none-match': etag } });
        await answer.arrayBuffer();
        if (answer.status === 200) break;
        if (attempt > 10_000) throw new Error('the change was not seen after 10,000 conditional requests');
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      samples.push(performance.now() - applied);
    }
  } finally {
    proposals.close();
  }
  console.log('');
  console.log(
    `Proven-ETag staleness (change applied -> first 200 for the old ETag), ${STALENESS_SAMPLES} changes: ` +
      `median ${median(samples).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms ` +
      `(bound if events are lost: DSS_ETAG_PROOF_MS, default 5000 ms)`,
  );
}

function printSchemaTable(rows: [string, Measured, Measured][]): void {
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

function printListRow(row: ListScaleRow): void {
  const cell = (m: Measured) =>
    `${Math.round(m.requestsPerSecond).toString().padStart(6)} req/s  p50 ${m.p50.toFixed(0).padStart(3)} ms  p99 ${m.p99.toFixed(0).padStart(3)} ms`;
  console.log(
    `${row.diagrams.toLocaleString('en').padStart(9)}  ${`${row.seedSeconds.toFixed(1)} s`.padStart(9)}  ` +
      `${cell(row.firstPage)}  ${cell(row.deepPage)}  (deep page after row ${row.depth.toLocaleString('en')})`,
  );
}

/** The largest list against the smallest: latency ratios near 1 mean the list stays flat. */
function printListFlatness(rows: ListScaleRow[]): void {
  const small = rows[0]!;
  const large = rows[rows.length - 1]!;
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  console.log(
    `${large.diagrams.toLocaleString('en')} vs ${small.diagrams.toLocaleString('en')} diagrams, p50 latency ratio: ` +
      `first page ${ratio(large.firstPage.p50, small.firstPage.p50)}, deep page ${ratio(large.deepPage.p50, small.deepPage.p50)}; ` +
      `req/s ratio: first page ${ratio(large.firstPage.requestsPerSecond, small.firstPage.requestsPerSecond)}, ` +
      `deep page ${ratio(large.deepPage.requestsPerSecond, small.deepPage.requestsPerSecond)}`,
  );
}

main().catch((error: unknown) => {
  console.error(`bench: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
