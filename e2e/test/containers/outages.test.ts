// Outages of the servers the replicas share, each running in a container of the run's own
// (scripts/e2e-containers.js): PostgreSQL SIGKILLed under a load of creates and reads (no fast shutdown:
// the server dies as in a crash) and started again on the same data, which runs crash recovery; and Redis
// down for 30 s, during which the gateway replicas count rate limits in their own memory, as the README
// documents, and after which they count in Redis again. Runs only from scripts/e2e-containers.sh
// (E2E_CONTAINERS_STACK); each server is running again at the end.
import {
  type Answer,
  type ContainerStack,
  containerStack,
  docker,
  editorTokens,
  request,
} from '../../support/containers';
import { runId } from '../../support/diagrams';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The gateway's gRPC deadline (packages/platform DEFAULT_DEADLINE_MS): no answer may take longer. */
const GRPC_DEADLINE_MS = 10_000;
/** Per load loop: a bound whatever the clock does. */
const MAX_REQUESTS_PER_LOOP = 500;
const REDIS_DOWN_MS = 30_000;

const dataOf = (answer: Answer) => (JSON.parse(answer.body) as { data: Record<string, unknown> }).data;

describe('Outages of the shared servers', () => {
  let stack: ContainerStack;
  beforeAll(() => {
    stack = containerStack();
  });

  it('should answer 503 while PostgreSQL is SIGKILLed, recover once it is restarted, and lose nothing it answered 201', async () => {
    const clients = await editorTokens(stack, `outages-postgres-${runId()}`, 3);
    const seed = await request(stack, 'POST', '/diagrams', clients[0]!, {
      name: 'Outage seed',
      driver: 'pgsql',
      schema: { strategy: 'merge', tables: [{ name: 'items', columns: [{ name: 'id', type: 'bigint' }] }] },
    });
    expect(seed.status).toBe(201);
    const seedUuid = dataOf(seed).uuid as string;

    const answers: (Answer & { what: string })[] = [];
    const failures: string[] = [];
    const created: { uuid: string; token: string }[] = [];
    let loading = true;
    // Each client alternates a create and a schema read, about two requests a second.
    const loaders = clients.map(async (own, c) => {
      for (let n = 0; loading && n < MAX_REQUESTS_PER_LOOP; n++) {
        const create = n % 2 === 0;
        try {
          const answer = create
            ? await request(stack, 'POST', '/diagrams', own, {
                name: `Outage ${c}-${n}`,
                driver: 'pgsql',
                schema: {
                  strategy: 'merge',
                  tables: [{ name: `t${c}_${n}`, columns: [{ name: 'id', type: 'bigint' }] }],
                },
              })
            : await request(stack, 'GET', `/diagrams/${seedUuid}/schema`, own);
          answers.push({ ...answer, what: create ? 'create' : 'read' });
          if (create && answer.status === 201)
            created.push({ uuid: dataOf(answer).uuid as string, token: own });
        } catch (error) {
          failures.push(String(error));
        }
        await sleep(500);
      }
    });

    const postgres = stack.infra.postgres;
    await sleep(1_500);
    const killedAt = Date.now();
    await docker(stack, 'kill', '--signal', 'KILL', postgres.container);
    await sleep(4_000);
    await docker(stack, 'start', postgres.container);
    const restartedAt = Date.now();
    // Recovered: a create answered 201 after the restart.
    const recoveryDeadline = restartedAt + 60_000;
    while (
      !answers.some(
        (answer) => answer.what === 'create' && answer.status === 201 && answer.startedAt > restartedAt,
      ) &&
      Date.now() < recoveryDeadline
    )
      await sleep(250);
    const recoveredAt = Date.now();
    // Pools drop the connections the dead server left behind as they use them: settle, then a steady tail.
    await sleep(3_000);
    const tailFrom = Date.now();
    await sleep(3_000);
    loading = false;
    await Promise.all(loaders);
    console.log(
      `postgres: down ${restartedAt - killedAt} ms, recovered ${recoveredAt - restartedAt} ms after the restart; ` +
        `${answers.length} answers, ${answers.filter((a) => a.status === 503).length} of them 503`,
    );

    expect(recoveredAt).toBeLessThan(recoveryDeadline);
    expect(failures).toEqual([]);
    // Only successes and 503 `unavailable` with Retry-After, never a 500, never past the gRPC deadline.
    expect([...new Set(answers.map((answer) => answer.status))].sort()).toEqual([200, 201, 503]);
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unavailable' } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.endedAt).toBeGreaterThanOrEqual(killedAt);
    }
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(GRPC_DEADLINE_MS + 1_000);
    const tail = answers.filter((answer) => answer.startedAt >= tailFrom);
    expect(tail.length).toBeGreaterThan(0);
    expect(tail.filter((answer) => answer.status >= 300).map((answer) => answer.status)).toEqual([]);
    // Nothing answered 201 is lost (crash recovery replays what was committed).
    for (const entry of created) {
      const answer = await request(stack, 'GET', `/diagrams/${entry.uuid}`, entry.token);
      expect({ uuid: entry.uuid, status: answer.status }).toEqual({ uuid: entry.uuid, status: 200 });
    }
  }, 300_000);

  it('should fall back to each replica counting in memory while Redis is down 30 s, and count in Redis again once it is back', async () => {
    const [reader] = await editorTokens(stack, `outages-redis-${runId()}`, 1);
    const read = () => request(stack, 'GET', '/diagrams?limit=1', reader, undefined, '10.78.0.1');
    /** Whether a run of consecutive requests, on both replicas, counted one shared counter down. */
    const countsInRedis = async (): Promise<boolean> => {
      const run: Answer[] = [];
      for (let n = 0; n < 4; n++) run.push(await read());
      if (run.some((answer) => answer.status !== 200)) return false;
      if (new Set(run.map((answer) => answer.replica)).size < 2) return false;
      return run.slice(1).every((answer, i) => answer.remaining === (run[i]!.remaining as number) - 1);
    };
    expect(await countsInRedis()).toBe(true);

    const redis = stack.infra.redis;
    await docker(stack, 'stop', '--time', '1', redis.container);
    const downAt = Date.now();
    const during: Answer[] = [];
    while (Date.now() - downAt < REDIS_DOWN_MS && during.length < MAX_REQUESTS_PER_LOOP) {
      during.push(await read());
      await sleep(500);
    }
    await docker(stack, 'start', redis.container);
    const upAt = Date.now();

    // Every request answered while Redis was down, each counted by the replica that took it.
    expect(during.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
    expect(during.every((answer) => typeof answer.remaining === 'number')).toBe(true);
    const byReplica = (name: string) =>
      during.filter((answer) => answer.replica === name).map((answer) => answer.remaining as number);
    const [first, second] = [byReplica('gateway'), byReplica('gateway-2')];
    expect(first.length).toBeGreaterThan(5);
    expect(second.length).toBeGreaterThan(5);
    // Two counters in memory, one per replica: each counts its own requests down by one…
    for (const counts of [first.slice(2), second.slice(2)])
      expect(counts.slice(1)).toEqual(counts.slice(0, -1).map((value) => value - 1));
    // …so the same count left turns up on both replicas, which one shared counter never shows.
    expect(first.some((value) => second.includes(value))).toBe(true);

    // Back in Redis within the client's reconnect backoff (at most 2 s) plus a few requests.
    let shared = false;
    while (!shared && Date.now() - upAt < 30_000) {
      shared = await countsInRedis();
      if (!shared) await sleep(500);
    }
    console.log(`redis: down ${upAt - downAt} ms, ${during.length} requests answered meanwhile`);
    expect(shared).toBe(true);
    const keys = await docker(
      stack,
      'exec',
      redis.container,
      'redis-cli',
      '-p',
      String(redis.port),
      '--scan',
      '--pattern',
      `${stack.components.gateway!.env.DSS_RATE_LIMIT_KEY_PREFIX}:*`,
    );
    expect(keys.trim().split('\n').filter(Boolean).length).toBeGreaterThan(0);
  }, 240_000);
});
