// Every accepted import finishes, in every run mode: one contract, run against the one-process system
// (`npm start`, in-process bus, jobs recovered from PostgreSQL at start) and against the cluster's
// processes on NATS JetStream (jobs redelivered). 20 DDL imports are accepted, the whole system is killed
// (SIGKILL) or stopped (SIGTERM) while most are still queued, and started again on the same database:
// all 20 end `ready`, and an identical retry of a request whose import was cut off answers a diagram
// that finishes too (never one left `importing` for good).
import { isExternalStack } from '../support/stack';
import { startOneProcessSystem } from '../support/one-process';
import { startProcessStack } from '../support/processes';
import { teamMemberToken } from '../support/stack';

const IMPORTS = 20;
const HIGH_LIMITS = {
  DSS_RATE_LIMIT_IP_PER_MIN: '100000',
  DSS_RATE_LIMIT_READ_PER_MIN: '100000',
  DSS_RATE_LIMIT_SCHEMA_PER_MIN: '100000',
  DSS_RATE_LIMIT_WRITE_PER_MIN: '100000',
  // Answer 202 at once: the imports queue up behind the one worker, which is what a kill must not lose.
  DSS_IMPORT_WAIT_MS: '0',
};

/** A system that can be stopped as a whole and started again on the same database. */
interface RestartableSystem {
  baseUrl: string;
  token: string;
  /** Stops every process with `signal`; answers each exit code (null when ended by the signal). */
  kill(signal: NodeJS.Signals): Promise<(number | null)[]>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

const runModes: [string, () => Promise<RestartableSystem>][] = [
  [
    'the one-process system (npm start, in-process bus)',
    async () => {
      const system = await startOneProcessSystem(HIGH_LIMITS);
      return {
        baseUrl: system.baseUrl,
        token: system.token,
        kill: async (signal) => [(await system.kill(signal)).code],
        restart: () => system.restart(),
        destroy: () => system.destroy(),
      };
    },
  ],
  [
    'the cluster processes on NATS JetStream',
    async () => {
      const stack = await startProcessStack({
        gateway: HIGH_LIMITS,
        // A job whose worker was killed comes back after 5 s rather than the default minute.
        importer: { DSS_IMPORT_ACK_WAIT_MS: '5000' },
      });
      const token = await teamMemberToken(stack, {
        team: 'durability',
        email: 'importer@durability.test',
        plan: 'enterprise',
        write: true,
      });
      return {
        baseUrl: stack.baseUrl,
        token,
        kill: async (signal) => Object.values(await stack.kill(signal)),
        restart: () => stack.restart(),
        destroy: () => stack.stop(),
      };
    },
  ],
];

/** A PostgreSQL script of `tables` tables, each with a key, a few columns and a foreign key to the previous. */
function ddlScript(tables: number): string {
  return Array.from({ length: tables }, (_v, i) => {
    const reference = i > 0 ? `,\n  parent_id bigint REFERENCES table_${i - 1} (id)` : '';
    return `CREATE TABLE table_${i} (
  id bigserial PRIMARY KEY,
  name varchar(200) NOT NULL,
  note text,
  amount numeric(12, 2) DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  flags integer[]${reference}
);
CREATE INDEX table_${i}_name ON table_${i} (name);`;
  }).join('\n');
}

interface Sent {
  body: string;
  uuid: string;
}

/**
 * One request, sent again (at most ATTEMPTS times, 250 ms apart) when its connection was closed before any
 * answer: on a loaded machine the client can pick a kept-alive socket just as the server closes it for
 * idleness (undici's "other side closed"), or, after a restart, one of the pool's sockets to the process
 * that was stopped, not yet seen closed (55 reads at once can meet several in a row: 3 attempts failed so
 * in CI at load 10). Neither says anything about the system. Safe for every request here: reads, and
 * creates, which an identical retry replays. A server that is down refuses the new connection, which is not
 * retried.
 */
const ATTEMPTS = 8;

async function api(system: RestartableSystem, path: string, init: RequestInit = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${system.baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${system.token}`, 'content-type': 'application/json' },
      });
      const text = await response.text();
      return { status: response.status, body: JSON.parse(text) as { data: Record<string, unknown> } };
    } catch (error) {
      if (attempt >= ATTEMPTS || !closedBeforeAnswer(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Whether fetch failed because the connection closed before an answer (not refused, not timed out). */
function closedBeforeAnswer(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return error instanceof TypeError && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
}

async function createImport(
  system: RestartableSystem,
  body: string,
): Promise<{ status: number; uuid: string }> {
  const { status, body: answer } = await api(system, '/diagrams', { method: 'POST', body });
  if (![200, 201, 202].includes(status))
    throw new Error(`create answered ${status}: ${JSON.stringify(answer)}`);
  return { status, uuid: String(answer.data.uuid) };
}

async function statusOf(system: RestartableSystem, uuid: string): Promise<string> {
  const { status, body } = await api(system, `/diagrams/${uuid}`);
  if (status !== 200) throw new Error(`GET /diagrams/${uuid} answered ${status}: ${JSON.stringify(body)}`);
  return `${body.data.status}${body.data.error ? ` (${JSON.stringify(body.data.error)})` : ''}`;
}

async function statuses(system: RestartableSystem, uuids: string[]): Promise<Map<string, string>> {
  const entries = await Promise.all(uuids.map(async (uuid) => [uuid, await statusOf(system, uuid)] as const));
  return new Map(entries);
}

/** Polls until no diagram is `importing` (at most `timeoutMs`); answers the last statuses. */
async function untilSettled(system: RestartableSystem, uuids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await statuses(system, uuids);
    if (![...now.values()].includes('importing') || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const describeOnOwnStack = isExternalStack() ? describe.skip : describe;

describeOnOwnStack.each(runModes)(
  'Accepted imports across a whole-system kill and restart: %s',
  (_mode, start) => {
    let system: RestartableSystem;
    const ddl = ddlScript(60);
    let round = 0;

    beforeAll(async () => {
      system = await start();
    }, 180_000);
    afterAll(async () => {
      await system?.destroy();
    });

    it.each(['SIGKILL', 'SIGTERM'] as const)(
      'ends all 20 imports ready after %s and a restart, and an identical retry of a cut-off import finishes',
      async (signal) => {
        round++;
        // Distinct names: identical requests would be replays of one diagram.
        const bodies = Array.from({ length: IMPORTS }, (_v, i) =>
          JSON.stringify({ name: `Round ${round} import ${i}`, driver: 'pgsql', ddl }),
        );
        const sent: Sent[] = [];
        for (let at = 0; at < bodies.length; at += 10) {
          const batch = bodies.slice(at, at + 10);
          const created = await Promise.all(batch.map((body) => createImport(system, body)));
          created.forEach((answer, i) => {
            sent.push({ body: batch[i]!, uuid: answer.uuid });
          });
        }
        const beforeKill = await statuses(
          system,
          sent.map((s) => s.uuid),
        );
        const cutOff = sent.filter((s) => beforeKill.get(s.uuid) === 'importing');
        // The scenario means something only if imports were still queued when the system went down.
        expect(cutOff.length).toBeGreaterThan(0);

        const exits = await system.kill(signal);
        if (signal === 'SIGTERM') expect(exits.every((code) => code === 0)).toBe(true);
        await system.restart();

        // Retried at once, before recovery can have finished them: the answer's diagram must finish too.
        const retried = await Promise.all(cutOff.slice(0, 5).map((s) => createImport(system, s.body)));
        const uuids = [...sent.map((s) => s.uuid), ...retried.map((r) => r.uuid)];
        const settled = await untilSettled(system, uuids, 120_000);
        const notReady = [...settled].filter(([, status]) => status !== 'ready');
        expect({ cutOff: cutOff.length, notReady }).toEqual({ cutOff: cutOff.length, notReady: [] });
      },
      300_000,
    );
  },
);
