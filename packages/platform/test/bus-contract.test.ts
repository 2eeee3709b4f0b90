// One behaviour suite for both EventBus implementations: embedded mode and the cluster must not differ.
import type { BusMessage, EventBus } from '../src/bus';
import { type BusFactory, busFactory, sleep, waitUntil } from './bus-helpers';

describe.each(['memory', 'nats'] as const)('EventBus (%s)', (kind) => {
  let factory: BusFactory;
  let bus: EventBus;

  beforeEach(async () => {
    factory = busFactory(kind);
    bus = await factory.create();
  });

  afterEach(async () => {
    await factory.cleanUp();
  });

  function collector() {
    const messages: BusMessage[] = [];
    return { messages, handler: (message: BusMessage) => void messages.push(message) };
  }

  describe('.subscribe()', () => {
    it('delivers the data and subject of a message published after subscribing', async () => {
      const received = collector();
      await bus.subscribe('diagrams.changed', received.handler);

      await bus.publish('diagrams.changed', { diagramId: 'd1', version: 2 });

      await waitUntil('the message arrives', () => received.messages.length === 1);
      expect(received.messages[0]).toEqual({
        subject: 'diagrams.changed',
        data: { diagramId: 'd1', version: 2 },
        id: null,
        deliveryCount: 1,
      });
    });

    it('matches * to one token and > to one or more tokens', async () => {
      const oneToken = collector();
      const manyTokens = collector();
      await bus.subscribe('diagrams.*', oneToken.handler);
      await bus.subscribe('diagrams.>', manyTokens.handler);

      await bus.publish('diagrams.import.finished', { n: 1 });
      await bus.publish('proposals.changed', { n: 2 });
      await bus.publish('diagrams.changed', { n: 3 });

      await waitUntil('both diagram events reach >', () => manyTokens.messages.length === 2);
      await waitUntil('the last event reaches *', () => oneToken.messages.length === 1);
      expect(manyTokens.messages.map((m) => m.subject)).toEqual([
        'diagrams.import.finished',
        'diagrams.changed',
      ]);
      // In-order delivery: had * matched the earlier diagrams.import.finished, it would have come first.
      expect(oneToken.messages.map((m) => m.subject)).toEqual(['diagrams.changed']);
    });

    it('gives every subscriber every message, in publish order (fan-out)', async () => {
      const first = collector();
      const second = collector();
      await bus.subscribe('proposals.changed', first.handler);
      await bus.subscribe('proposals.changed', second.handler);

      for (const n of [1, 2, 3]) await bus.publish('proposals.changed', { n });

      await waitUntil(
        'both subscribers have three',
        () => first.messages.length === 3 && second.messages.length === 3,
      );
      expect(first.messages.map((m) => m.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(second.messages.map((m) => m.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('delivers a repeated messageId once', async () => {
      const received = collector();
      await bus.subscribe('accounts.token.revoked', received.handler);

      await bus.publish('accounts.token.revoked', { tokenId: 'a' }, { messageId: 'm-1' });
      await bus.publish('accounts.token.revoked', { tokenId: 'a' }, { messageId: 'm-1' });
      await bus.publish('accounts.token.revoked', { tokenId: 'b' }, { messageId: 'm-2' });

      await waitUntil('the second id arrives', () => received.messages.some((m) => m.id === 'm-2'));
      expect(received.messages.map((m) => m.id)).toEqual(['m-1', 'm-2']);
    });

    it('stops delivering after unsubscribe', async () => {
      const leaving = collector();
      const staying = collector();
      const subscription = await bus.subscribe('diagrams.changed', leaving.handler);
      await bus.subscribe('diagrams.changed', staying.handler);
      await bus.publish('diagrams.changed', { n: 1 });
      await waitUntil('the first message arrives', () => leaving.messages.length === 1);

      await subscription.unsubscribe();
      await bus.publish('diagrams.changed', { n: 2 });

      await waitUntil('the remaining subscriber has both', () => staying.messages.length === 2);
      expect(leaving.messages.map((m) => m.data)).toEqual([{ n: 1 }]);
    });

    it('refuses a subject that no stream holds', async () => {
      await expect(bus.publish('nowhere.at.all', {})).rejects.toThrow(/no stream holds/);
    });
  });

  describe('.consume()', () => {
    it('hands each message to exactly one of two consumers of a queue', async () => {
      const handledBy: Record<string, number[]> = { a: [], b: [] };
      const handler = (name: 'a' | 'b') => async (message: BusMessage) => {
        await sleep(10);
        handledBy[name].push((message.data as { n: number }).n);
      };
      await bus.consume('importers', 'importer.jobs', handler('a'));
      await bus.consume('importers', 'importer.jobs', handler('b'));

      const published = Array.from({ length: 20 }, (_, n) => n);
      for (const n of published) await bus.publish('importer.jobs', { n });

      const all = () => [...handledBy.a, ...handledBy.b];
      await waitUntil('all twenty are handled', () => all().length >= 20);
      await sleep(300); // room for a wrong second delivery to show up
      expect(all().sort((x, y) => x - y)).toEqual(published);
      expect(handledBy.a.length).toBeGreaterThan(0);
      expect(handledBy.b.length).toBeGreaterThan(0);
    });

    it('redelivers a message whose handler throws, with deliveryCount 2', async () => {
      const deliveries: number[] = [];
      await bus.consume('importers', 'importer.jobs', async (message) => {
        deliveries.push(message.deliveryCount);
        if (message.deliveryCount === 1) throw new Error('transient failure');
      });

      await bus.publish('importer.jobs', { job: 1 });

      await waitUntil('the retry arrives', () => deliveries.length === 2);
      await sleep(300);
      expect(deliveries).toEqual([1, 2]);
    });

    it('redelivers a message whose handler does not finish within ackWaitMs', async () => {
      const deliveries: { count: number; at: number }[] = [];
      const start = Date.now();
      await bus.consume(
        'importers',
        'importer.jobs',
        async (message) => {
          deliveries.push({ count: message.deliveryCount, at: Date.now() - start });
          if (message.deliveryCount === 1) await sleep(3_000);
        },
        { ackWaitMs: 1_000 },
      );

      await bus.publish('importer.jobs', { job: 1 });

      await waitUntil('the redelivery arrives', () => deliveries.length === 2, 5_000);
      expect(deliveries.map((d) => d.count)).toEqual([1, 2]);
      // Redelivered after the ack deadline, not after the slow handler finally returned.
      expect(deliveries[1].at).toBeGreaterThanOrEqual(900);
      expect(deliveries[1].at).toBeLessThan(2_900);
    });

    it('keeps a message with its slow handler while in-progress acks (heartbeatMs) say it is still working', async () => {
      // On NATS the server's ack_wait becomes 3 x heartbeatMs (600 ms): without the in-progress acks this
      // 1.5 s handler would see its message redelivered to the consumer's free second slot.
      const deliveries: number[] = [];
      let finished = false;
      await bus.consume(
        'importers',
        'importer.jobs',
        async (message) => {
          deliveries.push(message.deliveryCount);
          await sleep(1_500);
          finished = true;
        },
        { ackWaitMs: 10_000, heartbeatMs: 200, concurrency: 2 },
      );

      await bus.publish('importer.jobs', { job: 1 });

      await waitUntil('the slow handler finishes', () => finished, 5_000);
      await sleep(800);
      expect(deliveries).toEqual([1]);
    });

    it('calls onDeadLetter once after maxDeliver failed deliveries and then stops delivering', async () => {
      const deliveries: number[] = [];
      const deadLetters: BusMessage[] = [];
      await bus.consume(
        'importers',
        'importer.jobs',
        async (message) => {
          deliveries.push(message.deliveryCount);
          throw new Error('poison message');
        },
        { maxDeliver: 3, onDeadLetter: async (message) => void deadLetters.push(message) },
      );

      await bus.publish('importer.jobs', { job: 'poison' });

      await waitUntil('the dead-letter callback runs', () => deadLetters.length === 1);
      await sleep(800); // longer than the retry backoff: a fourth delivery would show up
      expect(deliveries).toEqual([1, 2, 3]);
      expect(deadLetters).toHaveLength(1);
      expect(deadLetters[0]).toMatchObject({
        subject: 'importer.jobs',
        data: { job: 'poison' },
        deliveryCount: 3,
      });
    });

    it('delivers messages published before any consumer existed once one starts', async () => {
      for (const n of [1, 2, 3]) await bus.publish('importer.jobs', { n });
      const handled: unknown[] = [];

      await bus.consume('importers', 'importer.jobs', async (message) => void handled.push(message.data));

      await waitUntil('the waiting jobs are handled', () => handled.length === 3);
      expect(handled).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('stops handing messages to a consumer after unsubscribe', async () => {
      const handled: unknown[] = [];
      const subscription = await bus.consume(
        'importers',
        'importer.jobs',
        async (m) => void handled.push(m.data),
      );
      await bus.publish('importer.jobs', { n: 1 });
      await waitUntil('the first job is handled', () => handled.length === 1);

      await subscription.unsubscribe();
      await bus.publish('importer.jobs', { n: 2 });
      const later: unknown[] = [];
      await bus.consume('importers', 'importer.jobs', async (m) => void later.push(m.data));

      await waitUntil('the next consumer takes the second job', () => later.length === 1);
      expect(handled).toEqual([{ n: 1 }]);
      expect(later).toEqual([{ n: 2 }]);
    });
  });

  it('refuses a second queue on job subjects another queue already consumes', async () => {
    await bus.consume('importers', 'importer.jobs', async () => undefined);

    await expect(bus.consume('other-importers', 'importer.>', async () => undefined)).rejects.toThrow();
  });

  describe('.close()', () => {
    it('waits for a handler that is running to finish', async () => {
      let started = false;
      let finished = false;
      await bus.consume('importers', 'importer.jobs', async () => {
        started = true;
        await sleep(300);
        finished = true;
      });
      await bus.publish('importer.jobs', { job: 1 });
      await waitUntil('the handler starts', () => started);

      await bus.close();

      expect(finished).toBe(true);
      expect(bus.isHealthy()).toBe(false);
      await expect(bus.publish('importer.jobs', {})).rejects.toThrow(/closed/);
    });
  });

  describe('.isHealthy()', () => {
    it('is true while the bus is open', () => {
      expect(bus.isHealthy()).toBe(true);
    });
  });
});
