// Faults across containers, as a cluster sees them: an importer killed while it converts (its jobs come back
// to the restarted worker through JetStream, none lost), every replica of the diagrams service restarted under
// a steady read load (the gateway answers 503 `unavailable` with Retry-After while none is up, within its
// gRPC deadline),
// and the gateway stopped with SIGTERM under load (requests it accepted complete). Runs only from
// scripts/e2e-containers.sh (E2E_CONTAINERS_STACK); the gateway goes last, and each fault leaves the
// container running again.
import {
  type ContainerStack,
  containerStack,
  docker,
  editorTokens,
  replicasOf,
  request,
  type Answer,
  waitUntilReady,
} from '../../support/containers';
import { runId } from '../../support/diagrams';

/** The gateway's gRPC deadline (packages/platform DEFAULT_DEADLINE_MS): no answer may take longer. */
const GRPC_DEADLINE_MS = 10_000;
/**
 * The longest a gateway channel waits before it reconnects to a restarted service (packages/platform
 * RECONNECT_BACKOFF_MS.max): a service ready again is reached within this, plus a connection's set-up.
 */
const RECONNECT_WITHIN_MS = 1_000 + 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Faults across containers', () => {
  let stack: ContainerStack;
  beforeAll(() => {
    stack = containerStack();
  });

  it('should finish all 50 DDL imports when the importer is killed and restarted among them', async () => {
    const [writer] = await editorTokens(stack, `faults-importer-${runId()}`, 1);
    const importer = stack.components.importer!;
    const ddl = (n: number) =>
      `CREATE TABLE customers_${n} (id bigint PRIMARY KEY, email varchar(255) UNIQUE);
CREATE TABLE orders_${n} (id bigint PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers_${n} (id));`;
    const uuids: string[] = [];
    const create = async (n: number) => {
      const answer = await request(stack, 'POST', '/diagrams', writer, {
        name: `Import ${n}`,
        driver: 'pgsql',
        ddl: ddl(n),
      });
      expect({ n, status: [201, 202].includes(answer.status) ? 'created' : answer.body }).toEqual({
        n,
        status: 'created',
      });
      uuids.push((JSON.parse(answer.body) as { data: { uuid: string } }).data.uuid);
    };
    // Ten at a time; the importer is killed (SIGKILL: a dead worker, no drain) once the first ten are in.
    const batches: Promise<void>[] = [];
    for (let batch = 0; batch < 5; batch++) {
      batches.push(
        Promise.all(Array.from({ length: 10 }, (_, i) => create(batch * 10 + i))).then(() => undefined),
      );
      if (batch === 0) {
        await sleep(300);
        await docker(stack, 'kill', '--signal', 'KILL', importer.container);
      }
      if (batch === 2) await docker(stack, 'start', importer.container);
    }
    await Promise.all(batches);
    await waitUntilReady(importer);
    expect(uuids).toHaveLength(50);

    // Every one ends ready; the killed worker's jobs come back after three missed in-progress acks (15 s),
    // not after the importer's 60 s ack wait.
    // The team's list names each diagram's status: one read a second, well inside the read limit.
    const deadline = Date.now() + 45_000;
    const statuses = new Map<string, string>();
    for (;;) {
      const answer = await request(stack, 'GET', '/diagrams?limit=100', writer);
      expect(answer.status).toBe(200);
      for (const item of (JSON.parse(answer.body) as { data: { uuid: string; status: string }[] }).data)
        statuses.set(item.uuid, item.status);
      const settled = uuids.filter((uuid) => (statuses.get(uuid) ?? 'importing') !== 'importing').length;
      if (settled === uuids.length || Date.now() > deadline) break;
      await sleep(1_000);
    }
    const counts: Record<string, number> = {};
    for (const uuid of uuids) {
      const status = statuses.get(uuid) ?? 'unknown';
      counts[status] = (counts[status] ?? 0) + 1;
    }
    expect(counts).toEqual({ ready: 50 });
  }, 300_000);

  it('should answer 503 unavailable with Retry-After within the deadline while every diagrams replica restarts, then 200 again', async () => {
    // Three readers of the team, each with a token of its own: ten schema reads a second each stay under
    // the per-token schema limit for the whole restart.
    const readers = await editorTokens(stack, `faults-diagrams-${runId()}`, 3);
    const reader = readers[0]!;
    const created = await request(stack, 'POST', '/diagrams', reader, {
      name: 'Read under load',
      driver: 'pgsql',
      schema: { strategy: 'merge', tables: [{ name: 'items', columns: [{ name: 'id', type: 'bigint' }] }] },
    });
    expect(created.status).toBe(201);
    const uuid = (JSON.parse(created.body) as { data: { uuid: string } }).data.uuid;
    const diagrams = replicasOf(stack, 'diagrams');

    const answers: Answer[] = [];
    const failures: string[] = [];
    let loading = true;
    const loaders = readers.map(async (own) => {
      while (loading) {
        try {
          answers.push(await request(stack, 'GET', `/diagrams/${uuid}/schema`, own));
        } catch (error) {
          failures.push(String(error));
        }
        await sleep(100);
      }
    });
    await sleep(1_000);
    const stoppedAt = Date.now();
    await Promise.all(diagrams.map((replica) => docker(stack, 'stop', '--time', '10', replica.container)));
    await sleep(2_000);
    await Promise.all(diagrams.map((replica) => docker(stack, 'start', replica.container)));
    await Promise.all(diagrams.map((replica) => waitUntilReady(replica)));
    const readyAt = Date.now();
    await sleep(3_000);
    loading = false;
    await Promise.all(loaders);

    expect(failures).toEqual([]);
    const unavailable = answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) {
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unavailable' } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Only 200 and 503, never a hang past the gRPC deadline; failures only while diagrams was down.
    expect([...new Set(answers.map((answer) => answer.status))].sort()).toEqual([200, 503]);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(GRPC_DEADLINE_MS + 1_000);
    for (const answer of unavailable) {
      expect(answer.startedAt).toBeGreaterThanOrEqual(stoppedAt - GRPC_DEADLINE_MS);
      expect(answer.startedAt).toBeLessThanOrEqual(readyAt + RECONNECT_WITHIN_MS);
    }
    const after = answers.filter((answer) => answer.startedAt > readyAt + RECONNECT_WITHIN_MS);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((answer) => answer.status === 200)).toBe(true);
  }, 300_000);

  it('should complete the requests it accepted when the gateway gets SIGTERM under load, and exit 0', async () => {
    // Four readers of the team with tokens of their own, twenty schema reads a second each: under the
    // per-token schema limit through the 2 s drain.
    const readers = await editorTokens(stack, `faults-gateway-${runId()}`, 4);
    const reader = readers[0]!;
    const created = await request(stack, 'POST', '/diagrams', reader, {
      name: 'Drain',
      driver: 'pgsql',
      schema: { strategy: 'merge', tables: [{ name: 'items', columns: [{ name: 'id', type: 'bigint' }] }] },
    });
    expect(created.status).toBe(201);
    const uuid = (JSON.parse(created.body) as { data: { uuid: string } }).data.uuid;
    const gateway = stack.components.gateway!;

    const answers: Answer[] = [];
    const refused: string[] = [];
    const broken: string[] = [];
    let loading = true;
    const loaders = readers.map(async (own) => {
      while (loading) {
        try {
          answers.push(await request(stack, 'GET', `/diagrams/${uuid}/schema`, own));
          await sleep(50);
        } catch (error) {
          // Refused, or reset while connecting (the kernel had queued the connection when the listener
          // closed): the request was never sent, so it never reached the gateway. Anything else (a reset or a
          // closed socket mid-answer) is a request it dropped.
          const failure = error as NodeJS.ErrnoException;
          const neverSent = failure.code === 'ECONNREFUSED' || failure.syscall === 'connect';
          (neverSent ? refused : broken).push(`${failure.code}: ${failure.message}`);
          if (neverSent) await sleep(100);
        }
      }
    });
    await sleep(1_000);
    await docker(stack, 'kill', '--signal', 'TERM', gateway.container);
    const exitCode = (await docker(stack, 'wait', gateway.container)).trim();
    loading = false;
    await Promise.all(loaders);

    expect(exitCode).toBe('0');
    expect(broken).toEqual([]);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.status)).toEqual([]);

    await docker(stack, 'start', gateway.container);
    await waitUntilReady(gateway);
  }, 300_000);
});
