// A process's readiness, and the gRPC health status that follows it.
import { followReadiness, processReadiness } from '../src/readiness-health';

describe('processReadiness', () => {
  const bus = (healthy: boolean) => ({ isHealthy: () => healthy });

  it('should be ready when its own checks pass, reporting the bus beside them', async () => {
    const readiness = processReadiness(
      async () => ({ diagrams_postgres: true }),
      bus(true),
      () => false,
    );
    expect(await readiness()).toEqual({ ok: true, checks: { diagrams_postgres: true, bus: true } });
  });

  it('should stay ready while the bus is down (events wait in the outbox), and say the bus is down', async () => {
    const readiness = processReadiness(
      async () => ({ diagrams_postgres: true }),
      bus(false),
      () => false,
    );
    expect(await readiness()).toEqual({ ok: true, checks: { diagrams_postgres: true, bus: false } });
  });

  it('should stay ready when a reported-only state is down (a fallback covers it), and show it', async () => {
    const readiness = processReadiness(
      async () => ({ accounts: true }),
      bus(true),
      () => false,
      () => ({ redis: false }),
    );
    expect(await readiness()).toEqual({ ok: true, checks: { accounts: true, redis: false, bus: true } });
  });

  it('should not be ready when one of its own checks fails or while it shuts down', async () => {
    expect(
      (
        await processReadiness(
          async () => ({ db: false }),
          bus(true),
          () => false,
        )()
      ).ok,
    ).toBe(false);
    expect(
      (
        await processReadiness(
          async () => ({ db: true }),
          bus(true),
          () => true,
        )()
      ).ok,
    ).toBe(false);
  });
});

describe('followReadiness', () => {
  it('should set each readiness outcome on the target, a failing check as not ready, and not ready at stop', async () => {
    const outcomes: boolean[] = [];
    let next: Promise<{ ok: boolean }> = Promise.resolve({ ok: true });
    const follower = followReadiness(() => next, { setReady: (ready) => outcomes.push(ready) }, 60_000);
    await follower.refresh();
    next = Promise.resolve({ ok: false });
    await follower.refresh();
    next = Promise.reject(new Error('database down'));
    await follower.refresh();
    follower.stop();
    await follower.refresh();
    expect(outcomes).toEqual([true, true, false, false, false]);
  });
});
