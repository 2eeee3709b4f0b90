// ImportWaiters on the in-process bus (the NATS bus passes the same contract suite in packages/platform).
import { createLogger, MemoryEventBus } from '@dss/platform';
import { ImportWaiters } from '../src/import-waiters';

const SUBJECT = 'diagrams.import.finished';
const A = '6f1c2a8e-3b7d-4c55-9a0e-1d2b3c4d5e6f';
const B = '0a9b8c7d-6e5f-4a3b-8c1d-2e3f4a5b6c7d';

describe('ImportWaiters', () => {
  let bus: MemoryEventBus;
  let waiters: ImportWaiters;

  beforeEach(async () => {
    bus = new MemoryEventBus({ logger: createLogger('test', { level: 'silent' }) });
    waiters = new ImportWaiters();
    await waiters.start(bus, SUBJECT);
  });
  afterEach(async () => {
    await waiters.stop();
    await bus.close();
  });

  /** Whether `promise` settles before `ms` of real time pass. */
  const settlesWithin = (promise: Promise<unknown>, ms: number) =>
    Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  it('should wake a watch when its diagram’s import-finished event arrives', async () => {
    const watch = waiters.watch(A);
    const waiting = watch.wait(5_000);
    await bus.publish(SUBJECT, { diagram_uuid: A, status: 'ready' });
    expect(await settlesWithin(waiting, 2000)).toBe(true);
    watch.close();
  });

  it('should keep an event that arrives between two waits, so the next wait returns at once', async () => {
    const watch = waiters.watch(A);
    await bus.publish(SUBJECT, { diagram_uuid: A, status: 'failed' });
    expect(await settlesWithin(watch.wait(5_000), 2000)).toBe(true);
    watch.close();
  });

  it('should leave a watch of another diagram asleep until its own time passes', async () => {
    const watch = waiters.watch(B);
    const waiting = watch.wait(1000);
    await bus.publish(SUBJECT, { diagram_uuid: A, status: 'ready' });
    expect(await settlesWithin(waiting, 300)).toBe(false);
    watch.close();
  });

  it('should wake every watch of one diagram (two identical creates waiting together)', async () => {
    const first = waiters.watch(A);
    const second = waiters.watch(A);
    const both = Promise.all([first.wait(5_000), second.wait(5_000)]);
    await bus.publish(SUBJECT, { diagram_uuid: A, status: 'ready' });
    expect(await settlesWithin(both, 2000)).toBe(true);
    first.close();
    second.close();
  });

  it('should not wake a closed watch, nor one after stop()', async () => {
    const closed = waiters.watch(A);
    closed.close();
    await bus.publish(SUBJECT, { diagram_uuid: A, status: 'ready' });
    expect(await settlesWithin(closed.wait(1000), 300)).toBe(false);

    const watch = waiters.watch(A);
    await waiters.stop();
    await bus.publish(SUBJECT, { diagram_uuid: A, status: 'ready' });
    expect(await settlesWithin(watch.wait(1000), 300)).toBe(false);
    watch.close();
  });
});
