// The transactional outbox end to end: real PostgreSQL, both bus implementations. An event exists on the
// bus exactly when its transaction committed, whatever happens to relays and the bus in between.
import { Pool, type PoolClient } from 'pg';
import type { BusMessage, EventBus } from '../src/bus';
import { enqueueEvent, OutboxRelay, type OutboxRelayOptions, outboxTableSql } from '../src/outbox';
import { createTestDatabase, type TestDatabase } from '../src/testing';
import { type BusFactory, busFactory, recordingLogger, sleep, waitUntil } from './bus-helpers';

const SCHEMA = 'outbox_test';

/** A pool whose idle-connection errors (another suite terminating backends) do not crash the test run. */
function quietPool(connectionString: string): Pool {
  const pool = new Pool({ connectionString });
  pool.on('error', () => undefined);
  return pool;
}

describe.each(['memory', 'nats'] as const)('OutboxRelay (%s bus)', (kind) => {
  let database: TestDatabase;
  let pool: Pool;
  let factory: BusFactory;
  let bus: EventBus;
  let received: BusMessage[];
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = quietPool(database.url);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  beforeEach(async () => {
    await pool.query(
      `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}; ${outboxTableSql(SCHEMA)}`,
    );
    factory = busFactory(kind);
    bus = await factory.create();
    received = [];
    await bus.subscribe('diagrams.>', (message) => void received.push(message));
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    await factory.cleanUp();
  });

  function startRelay(overrides: Partial<OutboxRelayOptions> = {}): OutboxRelay {
    const relay = new OutboxRelay({
      pool,
      schema: SCHEMA,
      bus,
      logger: recordingLogger(),
      pollIntervalMs: 50,
      ...overrides,
    });
    relays.push(relay);
    relay.start();
    return relay;
  }

  async function inTransaction<T>(work: (client: PoolClient) => Promise<T>, outcome = 'COMMIT'): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query(outcome);
      return result;
    } finally {
      client.release();
    }
  }

  const commitEvent = (data: object) =>
    inTransaction((client) => enqueueEvent(client, SCHEMA, 'diagrams.changed', data));

  /** Commits a last event and waits for it: anything published before it has arrived by then. */
  async function flushWithSentinel(): Promise<void> {
    await commitEvent({ sentinel: true });
    await waitUntil('the sentinel arrives', () =>
      received.some((m) => (m.data as { sentinel?: boolean }).sentinel),
    );
    received = received.filter((m) => !(m.data as { sentinel?: boolean }).sentinel);
  }

  it('publishes an event of a committed transaction with the row id as messageId', async () => {
    startRelay();

    const id = await commitEvent({ diagramId: 'd1' });

    await waitUntil('the event arrives', () => received.length === 1);
    expect(received[0]).toMatchObject({ subject: 'diagrams.changed', data: { diagramId: 'd1' }, id });
    // The relay commits the mark just after the bus accepted the event, so the row may lag a moment.
    const row = async () =>
      (await pool.query(`SELECT published_at, attempts FROM ${SCHEMA}.outbox WHERE id = $1`, [id])).rows[0];
    await waitUntil('the row is marked published', async () => (await row()).published_at !== null);
    expect((await row()).attempts).toBe(1);
  });

  it('never publishes the event of a rolled-back transaction', async () => {
    startRelay();

    await inTransaction(
      (client) => enqueueEvent(client, SCHEMA, 'diagrams.changed', { rolledBack: true }),
      'ROLLBACK',
    );
    await flushWithSentinel();

    expect(received).toEqual([]);
  });

  it('wakes on commit through NOTIFY without waiting for the poll', async () => {
    startRelay({ pollIntervalMs: 60_000 });
    await sleep(200); // let the first (empty) poll pass, so only a notification can wake the relay

    await commitEvent({ n: 1 });

    await waitUntil('the event arrives long before the next poll', () => received.length === 1, 5_000);
  });

  it('publishes an event committed while no relay ran once a relay starts, exactly once', async () => {
    const crashed = startRelay();
    await crashed.stop();

    await commitEvent({ n: 1 });
    await sleep(200);
    expect(received).toEqual([]);
    startRelay();

    await waitUntil('the event arrives', () => received.length === 1);
    await flushWithSentinel();
    expect(received.map((m) => m.data)).toEqual([{ n: 1 }]);
  });

  it('publishes once when a relay crashed after publishing but before marking the row', async () => {
    const id = await commitEvent({ n: 1 });
    // What the crashed relay got done: the publish, with the row id as messageId, but not the UPDATE.
    await bus.publish('diagrams.changed', { n: 1 }, { messageId: id });
    await waitUntil('the first publish arrives', () => received.length === 1);

    startRelay();
    await flushWithSentinel();

    expect(received.map((m) => m.id)).toEqual([id]);
    await waitUntil('the row is marked published', async () => {
      const { rows } = await pool.query(`SELECT published_at FROM ${SCHEMA}.outbox WHERE id = $1`, [id]);
      return rows[0].published_at !== null;
    });
  });

  it('keeps events while the bus fails, publishes them in order when it recovers, and logs the outage once', async () => {
    let busDown = true;
    const flakyBus: EventBus = {
      ...bus,
      publish: (subject, data, options) =>
        busDown ? Promise.reject(new Error('bus unavailable')) : bus.publish(subject, data, options),
    };
    const logger = recordingLogger();
    startRelay({ bus: flakyBus, logger, maxBackoffMs: 200 });

    for (const n of [1, 2, 3]) await commitEvent({ n });
    await waitUntil('the relay retried a few times', async () => {
      const { rows } = await pool.query(`SELECT max(attempts) AS attempts FROM ${SCHEMA}.outbox`);
      return rows[0].attempts >= 3;
    });
    busDown = false;

    await waitUntil('all three arrive', () => received.length === 3);
    expect(received.map((m) => m.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const recovered = () => logger.lines.filter((line) => line.message?.includes('publishing again'));
    await waitUntil('the relay logs the recovery', () => recovered().length > 0);
    expect(recovered()).toHaveLength(1);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('publishes each row once when two relays share the table', async () => {
    const publishCalls = new Map<string, number>();
    const countingBus: EventBus = {
      ...bus,
      publish: async (subject, data, options) => {
        const id = options?.messageId ?? '';
        publishCalls.set(id, (publishCalls.get(id) ?? 0) + 1);
        await bus.publish(subject, data, options);
      },
    };
    const secondPool = quietPool(database.url);
    try {
      startRelay({ bus: countingBus, pollIntervalMs: 5, batchSize: 5 });
      startRelay({ bus: countingBus, pollIntervalMs: 5, batchSize: 5, pool: secondPool });

      const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => commitEvent({ n })));

      await waitUntil('all forty arrive', () => received.length === 40);
      await flushWithSentinel();
      expect(new Set(received.map((m) => m.id))).toEqual(new Set(ids));
      expect(received).toHaveLength(40);
      expect([...publishCalls.entries()].filter(([, calls]) => calls !== 1)).toEqual([]);
    } finally {
      await Promise.all(relays.splice(0).map((relay) => relay.stop()));
      await secondPool.end();
    }
  });

  it('publishes events in commit order, within and across transactions', async () => {
    startRelay({ batchSize: 3 });

    await inTransaction(async (client) => {
      for (const n of [1, 2, 3, 4]) await enqueueEvent(client, SCHEMA, 'diagrams.changed', { n });
    });
    for (const n of [5, 6, 7, 8, 9]) await commitEvent({ n });

    await waitUntil('all nine arrive', () => received.length === 9);
    expect(received.map((m) => (m.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('returns how many rows relayOnce published', async () => {
    const relay = new OutboxRelay({ pool, schema: SCHEMA, bus, logger: recordingLogger(), batchSize: 2 });
    for (const n of [1, 2, 3]) await commitEvent({ n });

    expect(await relay.relayOnce()).toBe(2);
    expect(await relay.relayOnce()).toBe(1);
    expect(await relay.relayOnce()).toBe(0);
  });
});

describe('outboxTableSql()', () => {
  it('rejects a schema name that is not a plain identifier', () => {
    expect(() => outboxTableSql('public; DROP TABLE x')).toThrow(/must match/);
    expect(() => outboxTableSql('Accounts')).toThrow(/must match/);
  });
});
