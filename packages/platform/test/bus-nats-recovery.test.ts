// The NATS bus must survive its server going away: readiness turns false, the connection retries
// forever, and publishing, fan-out and work queues work again once the server is back. The test runs
// its own nats-server (on a free port, with its own storage) so it can stop and restart it.
import { type BusMessage, createEventBus, type EventBus } from '../src/bus';
import { OwnNats } from '../src/testing';
import { recordingLogger, waitUntil } from './bus-helpers';

describe('EventBus (nats) › recovery', () => {
  let nats: OwnNats;
  let bus: EventBus | undefined;

  beforeAll(async () => {
    nats = await OwnNats.start();
  });

  afterAll(async () => {
    await bus?.close();
    await nats.destroy();
  });

  it('publishes and consumes again after the NATS server restarts', async () => {
    const logger = recordingLogger();
    bus = await createEventBus({ natsUrl: nats.url, logger, name: 'recovery-test' });
    const events: BusMessage[] = [];
    const jobs: BusMessage[] = [];
    await bus.subscribe('diagrams.changed', (message) => void events.push(message));
    await bus.consume('importers', 'importer.jobs', async (message) => void jobs.push(message));
    await bus.publish('diagrams.changed', { phase: 'before' });
    await bus.publish('importer.jobs', { phase: 'before' });
    await waitUntil('both arrive before the restart', () => events.length === 1 && jobs.length === 1);

    await nats.stop();
    await waitUntil('readiness reports the outage', () => !bus!.isHealthy());
    await expect(bus.publish('diagrams.changed', { phase: 'outage' })).rejects.toThrow();
    await nats.resume();
    await waitUntil('the bus reconnects', () => bus!.isHealthy(), 15_000);

    await bus.publish('diagrams.changed', { phase: 'after' });
    await bus.publish('importer.jobs', { phase: 'after' });

    await waitUntil('the subscriber receives again', () => events.length === 2, 15_000);
    await waitUntil('the queue consumer receives again', () => jobs.length === 2, 15_000);
    expect(events.map((m) => m.data)).toEqual([{ phase: 'before' }, { phase: 'after' }]);
    expect(jobs.map((m) => m.data)).toEqual([{ phase: 'before' }, { phase: 'after' }]);
    expect(logger.lines.filter((line) => line.message?.includes('disconnected'))).toHaveLength(1);
  });

  it('recreates its streams and queue consumer when the server comes back without its storage', async () => {
    await bus?.close();
    await nats.stop();
    await nats.resume();
    bus = await createEventBus({ natsUrl: nats.url, logger: recordingLogger() });
    const jobs: BusMessage[] = [];
    await bus.consume('importers', 'importer.jobs', async (message) => void jobs.push(message));
    await bus.publish('importer.jobs', { phase: 'before' });
    await waitUntil('the job arrives before the restart', () => jobs.length === 1);

    await nats.stop();
    await waitUntil('readiness reports the outage', () => !bus!.isHealthy());
    await nats.resumeWithoutStorage();
    await waitUntil('the bus reconnects', () => bus!.isHealthy(), 15_000);
    await bus.publish('importer.jobs', { phase: 'after' });

    await waitUntil('the queue consumer receives again', () => jobs.length === 2, 15_000);
    expect(jobs.map((m) => m.data)).toEqual([{ phase: 'before' }, { phase: 'after' }]);
  });
});
