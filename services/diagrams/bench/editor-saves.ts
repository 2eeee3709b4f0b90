// Benchmark (npm run bench -w @dss/diagrams, never a timed test): server-side cost of the web editor's saves
// through diagrams.ApplyPatch (source `editor`) on a generated diagram of BENCH_TABLES (300) tables, each
// save adding one column, against the proposal apply of the same patch measured in the same run:
//   proposal apply     source `proposal`: one new version per save (the baseline)
//   editor, new        editor saves alternating between two people: one new version per save
//   editor, amend      one person's consecutive saves: each amends the session's version
//   editor, rebased    a save made on the version before the current one (another table changed between)
//   10 editors         10 people saving on 10 diagrams at once (BENCH_CONCURRENT rounds each): p95
// Medians and 95th percentiles of BENCH_RUNS (20) saves after two untimed ones. The target is the
// browser's "Saved" within 2 s at p95 with 10 editors at once; this is the server's share of it.
// PostgreSQL: DSS_TEST_DATABASE_URL, else 127.0.0.1:5432.
import { randomUUID } from 'node:crypto';
import {
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  type ServiceClient,
} from '@dss/platform';
import { createTestDatabase } from '@dss/platform/testing';
import { readDiagramsConfig, startDiagramsService } from '@dss/diagrams';
import { median } from '@dss/schema/dist/bench/measure';

const TABLES = positiveInteger('BENCH_TABLES', 300);
const RUNS = positiveInteger('BENCH_RUNS', 20);
const CONCURRENT_ROUNDS = positiveInteger('BENCH_CONCURRENT', 10);

type Client = ServiceClient<'Diagrams'>;

interface Person {
  token_id: string;
  user_id: string;
  user_email: string;
  user_name: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  role: string;
  write: boolean;
  plan: string;
  caps: Record<string, number>;
  expires_at: string;
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const logger = createLogger('bench', { level: 'silent' });
  const bus = await createEventBus({ logger });
  const service = await startDiagramsService({
    config: readDiagramsConfig({ DATABASE_URL: database.url, DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:0' }),
    logger,
    metrics: createMetrics('diagrams'),
    bus,
  });
  const client = createServiceClient('Diagrams', `127.0.0.1:${service.grpc.port}`);
  try {
    const team = person();
    const other = {
      ...person(),
      team_id: team.team_id,
      team_slug: team.team_slug,
      team_name: team.team_name,
    };
    const rows: [string, number[]][] = [];

    rows.push([
      'proposal apply',
      await series(client, team, async (uuid, n) => save(client, uuid, team, n, 'proposal')),
    ]);
    rows.push([
      'editor, new version',
      await series(client, team, async (uuid, n) =>
        save(client, uuid, n % 2 === 0 ? team : other, n, 'editor'),
      ),
    ]);
    rows.push([
      'editor, amend',
      await series(client, team, async (uuid, n) => save(client, uuid, team, n, 'editor')),
    ]);
    rows.push([
      'editor, rebased',
      await series(
        client,
        team,
        async (uuid, n) => {
          const versions = await client.ListVersions({ principal: team, uuid });
          await save(client, uuid, other, n, 'editor', versions.versions[0]!.uuid, 't1');
          return save(client, uuid, team, n, 'editor', versions.versions[0]!.uuid, 't0');
        },
        true,
      ),
    ]);
    rows.push(['10 editors at once', await concurrent(client)]);

    console.log(`editor saves on a ${TABLES}-table diagram (${RUNS} timed saves each; ms)`);
    console.log('case                    median     p95');
    for (const [name, times] of rows)
      console.log(
        `${name.padEnd(22)} ${median(times).toFixed(1).padStart(7)} ${percentile(times, 0.95).toFixed(1).padStart(7)}`,
      );
  } finally {
    client.close();
    await service.stop();
    await bus.close();
    await database.drop();
  }
}

/** A fresh diagram, two untimed saves, then RUNS timed ones (`timeLast`: only the last call of each step). */
async function series(
  client: Client,
  owner: Person,
  step: (uuid: string, n: number) => Promise<number>,
  timeLast = false,
): Promise<number[]> {
  const uuid = await newDiagram(client, owner);
  const times: number[] = [];
  for (let n = 0; n < RUNS + 2; n++) {
    const started = performance.now();
    const lastMs = await step(uuid, n);
    if (n >= 2) times.push(timeLast ? lastMs : performance.now() - started);
  }
  return times;
}

async function concurrent(client: Client): Promise<number[]> {
  const people = Array.from({ length: 10 }, () => person());
  const diagrams = await Promise.all(people.map((owner) => newDiagram(client, owner)));
  const times: number[] = [];
  await Promise.all(
    people.map(async (owner, index) => {
      for (let n = 0; n < CONCURRENT_ROUNDS; n++)
        times.push(await save(client, diagrams[index]!, owner, n, 'editor'));
    }),
  );
  return times;
}

/** One save adding column c<n> (to `table`); resolves to its duration in ms. */
async function save(
  client: Client,
  uuid: string,
  who: Person,
  n: number,
  source: string,
  base = '',
  table = 't0',
): Promise<number> {
  const patch = {
    strategy: 'merge',
    tables: [{ name: table, columns: [{ name: `c${n}_${randomUUID().slice(0, 6)}`, type: 'text' }] }],
  };
  const started = performance.now();
  await client.ApplyPatch({
    diagram_uuid: uuid,
    team_id: who.team_id,
    user_id: who.user_id,
    patch_json: JSON.stringify(patch),
    source,
    source_id: source === 'proposal' ? randomUUID() : '',
    base_version_uuid: base,
  });
  return performance.now() - started;
}

async function newDiagram(client: Client, owner: Person): Promise<string> {
  const tables = Array.from({ length: TABLES }, (_, i) => ({
    name: `t${i}`,
    columns: [
      { name: 'id', type: 'bigint', is_primary_key: true },
      { name: 'name', type: 'varchar(100)' },
      ...(i > 0 ? [{ name: 'parent_id', type: 'bigint' }] : []),
    ],
  }));
  const relationships = tables.slice(1).map((_, i) => ({
    type: 'many-to-one',
    source_table: `t${i + 1}`,
    source_column: 'parent_id',
    target_table: `t${Math.floor(i / 3)}`,
    target_column: 'id',
  }));
  const created = await client.CreateDiagram({
    principal: { ...owner, token_id: randomUUID() },
    name: `Bench ${randomUUID().slice(0, 8)}`,
    driver: 'pgsql',
    schema_json: JSON.stringify({ strategy: 'merge', tables, relationships }),
  });
  return created.diagram!.uuid;
}

function person(): Person {
  return {
    token_id: '',
    user_id: randomUUID(),
    user_email: 'bench@example.test',
    user_name: 'Bench',
    team_id: randomUUID(),
    team_slug: 'bench',
    team_name: 'Bench',
    role: 'editor',
    write: true,
    plan: 'team',
    caps: {},
    expires_at: '',
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

function positiveInteger(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
