// PostgreSQL stopped and started again under load. The whole system runs on a PostgreSQL of its own (the
// embedded server in a temporary data directory, never the machine's shared one), four clients keep reading
// diagrams' schemas and creating small diagrams from schema patches, and the server is stopped (fast
// shutdown) for about 3 s and started again on the same data and port. During the outage every failing
// answer is 503 `unavailable` in the spec's error shape with Retry-After (never a 500, never a request left
// hanging) and /readyz says not ready; once readiness is back, every request succeeds again; and every
// create that was answered 201 or 202 exists afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_DEADLINE_MS } from '@dss/platform';
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';
import { type Json, tablesPatch } from '../support/diagrams';
import { type ScratchPostgres, startScratchPostgres } from '../support/scratch-postgres';
import { isExternalStack } from '../support/stack';
import { assertMatchesOpenApi } from '../support/openapi-validator';

const CLIENTS = 4;
/** Per client: a bound on the loop whatever the clock does. */
const MAX_REQUESTS_PER_CLIENT = 2_000;
/** A request still unanswered this long after the gateway's gRPC deadline counts as hung. */
const HUNG_AFTER_MS = DEFAULT_DEADLINE_MS + 5_000;
const LOAD_BEFORE_MS = 1_500;
const OUTAGE_MS = 3_000;
const SETTLE_MS = 500;
const LOAD_AFTER_MS = 3_000;

type Phase = 'before' | 'stopping' | 'outage' | 'restarting' | 'settling' | 'after' | 'done';

interface Outcome {
  phase: Phase;
  kind: 'read' | 'create';
  /** The HTTP status, or 0 when no answer came (connection error or hung request). */
  status: number;
  code?: string;
  retryAfter?: string | null;
  failure?: string;
  /** The diagram a create answered 201/202 with. */
  created?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `test` holds (at most `timeoutMs`); answers whether it did. */
async function until(test: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test().catch(() => false)) return true;
    await sleep(100);
  }
  return false;
}

async function request(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  json?: unknown,
): Promise<{ status: number; headers: Headers; body: Json | undefined } | { failure: string }> {
  try {
    const response = await fetch(`${baseUrl}${pathAndQuery}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(HUNG_AFTER_MS),
    });
    const text = await response.text();
    const body =
      (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
    // The spec's shape, errors included: every answer is checked against the OpenAPI description.
    assertMatchesOpenApi(
      method,
      `${new URL(baseUrl).pathname}${pathAndQuery}`,
      response.status,
      response.headers,
      body ?? text,
    );
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    return { failure: (error as Error).message };
  }
}

const describeOnOwnStack = isExternalStack() ? describe.skip : describe;

describeOnOwnStack('A PostgreSQL outage under load', () => {
  let dataDir: string;
  let postgres: ScratchPostgres | undefined;
  let system: TestSystem | undefined;
  let people: TestPeople | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'dss-outage-pg-'));
    postgres = await startScratchPostgres(path.join(dataDir, 'data'));
    system = await startTestSystem({ DATABASE_URL: postgres.url });
    people = new TestPeople(system.grpc.accounts);
  }, 120_000);

  afterAll(async () => {
    people?.close();
    await system?.stop().catch(() => undefined);
    await postgres?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 unavailable with Retry-After while it is down, reports not ready, then succeeds again and loses no create', async () => {
    const running = system!;
    const baseUrl = running.apiUrl;
    const readyz = `http://127.0.0.1:${running.adminPort}/readyz`;
    const { token } = await people!.member({ team: 'outage', plan: 'enterprise', write: true });
    const seeded: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const created = await request(baseUrl, token, 'POST', '/diagrams', {
        name: `seed ${i}`,
        schema: tablesPatch(3),
      });
      if (!('status' in created) || created.status !== 201)
        throw new Error(`seeding answered ${JSON.stringify(created)}`);
      seeded.push(String(created.body!.data.uuid));
    }

    let phase: Phase = 'before';
    const outcomes: Outcome[] = [];
    const client = async (n: number) => {
      for (let i = 0; i < MAX_REQUESTS_PER_CLIENT && phase !== 'done'; i++) {
        const at: Phase = phase;
        const kind = i % 2 === 0 ? 'read' : 'create';
        const answer =
          kind === 'read'
            ? await request(baseUrl, token, 'GET', `/diagrams/${seeded[n]}/schema`)
            : await request(baseUrl, token, 'POST', '/diagrams', {
                name: `client ${n} create ${i}`,
                schema: tablesPatch(2),
              });
        if ('failure' in answer) {
          outcomes.push({ phase: at, kind, status: 0, failure: answer.failure });
          continue;
        }
        const error = answer.body?.error as Json | undefined;
        outcomes.push({
          phase: at,
          kind,
          status: answer.status,
          code: error?.code,
          retryAfter: answer.headers.get('retry-after'),
          created:
            kind === 'create' && (answer.status === 201 || answer.status === 202)
              ? String(answer.body!.data.uuid)
              : undefined,
        });
        await sleep(20);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_v, n) => client(n)));

    await sleep(LOAD_BEFORE_MS);
    phase = 'stopping';
    await postgres!.stop();
    phase = 'outage';
    const outageStarted = Date.now();
    let readinessDuringOutage: { status: number; body: Json } | undefined;
    const sawNotReady = await until(async () => {
      const response = await fetch(readyz);
      readinessDuringOutage = { status: response.status, body: (await response.json()) as Json };
      return response.status === 503;
    }, OUTAGE_MS * 3);
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - outageStarted)));

    phase = 'restarting';
    postgres = await startScratchPostgres(path.join(dataDir, 'data'), postgres!.port);
    const readyAgain = await until(async () => (await fetch(readyz)).status === 200, 30_000);
    phase = 'settling';
    await sleep(SETTLE_MS);
    phase = 'after';
    await sleep(LOAD_AFTER_MS);
    phase = 'done';
    await load;

    const count = (filter: (o: Outcome) => boolean) => outcomes.filter(filter).length;
    const summary = (['before', 'stopping', 'outage', 'restarting', 'settling', 'after'] as const).map(
      (p) =>
        `${p}: ${count((o) => o.phase === p)} requests, ${count((o) => o.phase === p && o.status === 503)} × 503`,
    );
    process.stdout.write(`database outage load: ${summary.join('; ')}\n`);

    // Readiness said no while the database was down, naming a database check, and yes again after.
    expect(sawNotReady).toBe(true);
    const checks = readinessDuringOutage!.body.checks as Record<string, unknown>;
    expect(
      Object.entries(checks).filter(([name, ok]) => name.endsWith('_postgres') && ok === false).length,
    ).toBeGreaterThan(0);
    expect(readyAgain).toBe(true);

    // Every answer was a success or a 503 `unavailable` with Retry-After; none was a 500, none hung.
    const wrong = outcomes.filter(
      (o) =>
        !(o.status >= 200 && o.status < 300) &&
        !(o.status === 503 && o.code === 'unavailable' && /^[1-9]\d*$/.test(o.retryAfter ?? '')),
    );
    expect(wrong).toEqual([]);
    // The outage was seen: reads and creates were refused with 503 while the server was down.
    expect(count((o) => o.phase === 'outage' && o.kind === 'read' && o.status === 503)).toBeGreaterThan(0);
    expect(count((o) => o.phase === 'outage' && o.kind === 'create' && o.status === 503)).toBeGreaterThan(0);

    // Once readiness was back (and a short settle), no errors at all.
    const after = outcomes.filter((o) => o.phase === 'after');
    expect(after.length).toBeGreaterThan(CLIENTS * 2);
    expect(after.filter((o) => o.status < 200 || o.status >= 300)).toEqual([]);

    // Nothing lost: every diagram a create was answered with can be read.
    const created = outcomes.flatMap((o) => (o.created ? [o.created] : []));
    expect(created.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const uuid of created) {
      const answer = await request(baseUrl, token, 'GET', `/diagrams/${uuid}`);
      if (!('status' in answer) || answer.status !== 200) missing.push(uuid);
    }
    expect(missing).toEqual([]);
  }, 120_000);
});
