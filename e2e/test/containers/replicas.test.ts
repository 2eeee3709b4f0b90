// Replicas across containers (scripts/e2e-containers.js runs two of the gateway, diagrams, proposals and
// importer; HAProxy in front of the gateway's, round_robin gRPC channels to the others): one rate limit
// counted across both gateway replicas through Redis, and under a steady load of creates, DDL imports,
// proposals and reads, one replica of each component SIGKILLed in turn and started again. No request
// fails but those in flight when a replica died, every create and proposal answered 201 or 202 is there
// afterwards, and every import finishes. Runs only from scripts/e2e-containers.sh (E2E_CONTAINERS_STACK);
// every replica is running again at the end.
import {
  type Answer,
  type ContainerStack,
  containerStack,
  docker,
  editorTokens,
  replicasOf,
  request,
  waitUntilReady,
} from '../../support/containers';
import { runId } from '../../support/diagrams';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Components with two replicas, killed in this order. */
const REPLICATED = ['gateway', 'diagrams', 'proposals', 'importer'] as const;
/** Per writer and reader: a bound on the loops whatever the clock does. */
const MAX_REQUESTS_PER_LOOP = 400;

interface Outcome {
  what: string;
  answer?: Answer;
  failure?: string;
  startedAt: number;
  endedAt: number;
}

interface Kill {
  component: string;
  container: string;
  /** Just before `docker kill` was run, and when it returned: a request in flight then may fail. */
  at: number;
  done: number;
}

const schemaBody = (n: number) => ({
  name: `Replica load ${n}`,
  driver: 'pgsql',
  schema: { strategy: 'merge', tables: [{ name: `items_${n}`, columns: [{ name: 'id', type: 'bigint' }] }] },
});
const ddlBody = (n: number) => ({
  name: `Replica import ${n}`,
  driver: 'pgsql',
  ddl: `CREATE TABLE customers_${n} (id bigint PRIMARY KEY);
CREATE TABLE orders_${n} (id bigint PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers_${n} (id));`,
});

const dataOf = (answer: Answer) => (JSON.parse(answer.body) as { data: Record<string, unknown> }).data;

describe('Replicas across containers', () => {
  let stack: ContainerStack;
  beforeAll(() => {
    stack = containerStack();
  });

  it('should count one rate limit across both gateway replicas (Redis)', async () => {
    const [reader] = await editorTokens(stack, `replicas-limits-${runId()}`, 1);
    const answers: Answer[] = [];
    // One client address, one token: both limits count every request, whichever replica answers.
    for (let n = 0; n < 12; n++)
      answers.push(await request(stack, 'GET', '/diagrams?limit=1', reader, undefined, '10.77.0.1'));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((answer) => answer.replica))).toEqual(new Set(['gateway', 'gateway-2']));
    const remaining = answers.map((answer) => answer.remaining);
    expect(remaining.every((value) => typeof value === 'number')).toBe(true);
    // One counter: each answer has one fewer left than the one before, on whichever replica it was.
    expect(remaining.slice(1)).toEqual(remaining.slice(0, -1).map((value) => (value as number) - 1));
  }, 120_000);

  it('should fail only the requests in flight on a replica SIGKILLed and lose no accepted write, for one replica of each of gateway, diagrams, proposals and importer in turn', async () => {
    // Three writers and two readers, each with a token of its own.
    const tokens = await editorTokens(stack, `replicas-load-${runId()}`, 5);
    const writers = tokens.slice(0, 3);
    const readers = tokens.slice(3);
    const seed = await request(stack, 'POST', '/diagrams', writers[0]!, schemaBody(0));
    expect(seed.status).toBe(201);
    const seedUuid = dataOf(seed).uuid as string;

    const outcomes: Outcome[] = [];
    const created: { uuid: string; token: string; ddl: boolean }[] = [];
    const proposed: { uuid: string; token: string }[] = [];
    let loading = true;
    const attempt = async (what: string, send: () => Promise<Answer>): Promise<Answer | undefined> => {
      const startedAt = Date.now();
      try {
        const answer = await send();
        outcomes.push({ what, answer, startedAt, endedAt: answer.endedAt });
        return answer;
      } catch (error) {
        outcomes.push({ what, failure: String(error), startedAt, endedAt: Date.now() });
        return undefined;
      }
    };
    // Each writer: a create from a schema patch, a DDL import, a proposal on its latest diagram, one a
    // second (under the per-token write limit for the whole run).
    const writing = writers.map(async (own, w) => {
      let latest = seedUuid;
      for (let n = 0; loading && n < MAX_REQUESTS_PER_LOOP; n++) {
        const id = w * 1000 + n + 1;
        if (n % 3 === 2) {
          const answer = await attempt('propose', () =>
            request(stack, 'POST', `/diagrams/${latest}/proposals`, own, {
              title: `Column ${id}`,
              message: 'Under replica kills.',
              schema: {
                strategy: 'additive',
                tables: [{ name: 'extra', columns: [{ name: `c${id}`, type: 'int' }] }],
              },
            }),
          );
          if (answer?.status === 201) proposed.push({ uuid: dataOf(answer).uuid as string, token: own });
        } else {
          const ddl = n % 3 === 1;
          const answer = await attempt(ddl ? 'import' : 'create', () =>
            request(stack, 'POST', '/diagrams', own, ddl ? ddlBody(id) : schemaBody(id)),
          );
          if (answer && [201, 202].includes(answer.status)) {
            const uuid = dataOf(answer).uuid as string;
            created.push({ uuid, token: own, ddl });
            if (!ddl) latest = uuid;
          }
        }
        await sleep(1_000);
      }
    });
    // Two readers of the seed diagram's schema, three reads a second each (under the schema limit).
    const reading = readers.map(async (own) => {
      for (let n = 0; loading && n < MAX_REQUESTS_PER_LOOP; n++) {
        await attempt('read', () => request(stack, 'GET', `/diagrams/${seedUuid}/schema`, own));
        await sleep(300);
      }
    });

    const kills: Kill[] = [];
    await sleep(1_500);
    for (const component of REPLICATED) {
      const victim = replicasOf(stack, component)[0]!;
      const at = Date.now();
      await docker(stack, 'kill', '--signal', 'KILL', victim.container);
      kills.push({ component, container: victim.container, at, done: Date.now() });
      // The survivor carries the load alone for a while, then the killed replica comes back.
      await sleep(2_000);
      await docker(stack, 'start', victim.container);
      await waitUntilReady(victim);
      await sleep(1_500);
    }
    loading = false;
    await Promise.all([...writing, ...reading]);

    const succeeded = (outcome: Outcome) =>
      outcome.answer !== undefined && [200, 201, 202].includes(outcome.answer.status);
    const failures = outcomes.filter((outcome) => !succeeded(outcome));
    const describe = (outcome: Outcome) =>
      `${outcome.what} at +${outcome.startedAt - kills[0]!.at} ms..+${outcome.endedAt - kills[0]!.at} ms: ${
        outcome.failure ?? `${outcome.answer?.status} ${outcome.answer?.body.slice(0, 200)}`
      }`;
    // A failure is a request that was in flight when a replica died: started before the kill returned,
    // ended after it began. Anything else failing would be a request the replicas lost.
    const inFlightAtAKill = (outcome: Outcome) =>
      kills.some((kill) => outcome.startedAt <= kill.done && outcome.endedAt >= kill.at);
    expect(failures.filter((outcome) => !inFlightAtAKill(outcome)).map(describe)).toEqual([]);
    // …answered as a lost upstream: 502 from the load balancer, or 503 `unavailable` from the gateway.
    for (const failure of failures) expect([502, 503]).toContain(failure.answer?.status);
    console.log(
      `replicas: ${outcomes.length} requests, ${failures.length} failed (in flight at a kill): ${kills
        .map(
          (kill) =>
            `${kill.component} ${failures.filter((f) => f.startedAt <= kill.done && f.endedAt >= kill.at).length}`,
        )
        .join(', ')}`,
    );
    expect(outcomes.filter(succeeded).length).toBeGreaterThan(40);
    expect(created.filter((entry) => entry.ddl).length).toBeGreaterThan(3);
    expect(proposed.length).toBeGreaterThan(3);

    // Nothing accepted is lost: every diagram and proposal answered 201/202 reads back, and every import
    // finishes (a job the killed importer held comes back to a live one).
    const deadline = Date.now() + 60_000;
    const unfinished = new Set(created.map((entry) => entry.uuid));
    while (unfinished.size > 0 && Date.now() < deadline) {
      for (const entry of created.filter((e) => unfinished.has(e.uuid))) {
        const answer = await request(stack, 'GET', `/diagrams/${entry.uuid}`, entry.token);
        expect({ uuid: entry.uuid, status: answer.status }).toEqual({ uuid: entry.uuid, status: 200 });
        if (dataOf(answer).status !== 'importing') unfinished.delete(entry.uuid);
      }
      if (unfinished.size > 0) await sleep(2_000);
    }
    expect([...unfinished]).toEqual([]);
    for (const entry of created) {
      const answer = await request(stack, 'GET', `/diagrams/${entry.uuid}`, entry.token);
      expect({ uuid: entry.uuid, status: dataOf(answer).status }).toEqual({
        uuid: entry.uuid,
        status: 'ready',
      });
    }
    for (const proposal of proposed) {
      const answer = await request(stack, 'GET', `/proposals/${proposal.uuid}`, proposal.token);
      expect({ uuid: proposal.uuid, status: answer.status }).toEqual({ uuid: proposal.uuid, status: 200 });
    }
  }, 480_000);
});
