import { createLifecycle, createLogger, SHUTDOWN_ORDER } from '@dss/platform';
import { startTsChild } from './support/ts-child';

const logger = createLogger('lifecycle-test', { level: 'silent' });

describe('createLifecycle()', () => {
  describe('.shutdown()', () => {
    it('should fail readiness first, wait the drain period, then run the steps in order', async () => {
      const events: string[] = [];
      const lifecycle = createLifecycle(logger, { drainMs: 50, exit: () => undefined });
      const started = Date.now();
      let drainedAt = 0;
      lifecycle.onShutdown('database', () => void events.push('database'), SHUTDOWN_ORDER.database);
      lifecycle.onShutdown(
        'grpc',
        async () => {
          drainedAt = Date.now() - started;
          events.push('grpc');
        },
        SHUTDOWN_ORDER.grpc,
      );
      lifecycle.onShutdown('health', () => void events.push('health'), SHUTDOWN_ORDER.readiness);
      lifecycle.onShutdown('tracing', () => void events.push('tracing'), SHUTDOWN_ORDER.tracing);

      expect(lifecycle.isShuttingDown()).toBe(false);
      const done = lifecycle.shutdown('test');
      expect(lifecycle.isShuttingDown()).toBe(true);
      expect(await done).toBe(true);
      expect(events).toEqual(['health', 'grpc', 'database', 'tracing']);
      expect(drainedAt).toBeGreaterThanOrEqual(45);
    });

    it('should move past a hung or failing step and report the failure', async () => {
      const events: string[] = [];
      const lifecycle = createLifecycle(logger, { drainMs: 0, stepTimeoutMs: 30, exit: () => undefined });
      lifecycle.onShutdown('hangs', () => new Promise<void>(() => undefined), 1);
      lifecycle.onShutdown(
        'throws',
        () => {
          throw new Error('boom');
        },
        2,
      );
      lifecycle.onShutdown('after', () => void events.push('after'), 3);
      expect(await lifecycle.shutdown('test')).toBe(false);
      expect(events).toEqual(['after']);
    });
  });

  describe('.handleSignals()', () => {
    function startChild(stepMs: number) {
      return startTsChild(`
        const { createLifecycle } = source('lifecycle.ts');
        const logger = { info() {}, warn() {}, error() {}, debug() {} };
        const lifecycle = createLifecycle(logger, { drainMs: 0 });
        lifecycle.onShutdown('slow', () => new Promise((resolve) => setTimeout(() => {
          console.log('slow done');
          resolve();
        }, ${stepMs})), 10);
        lifecycle.handleSignals();
        console.log('ready');
        setInterval(() => {}, 1000);
      `);
    }

    it('should run the steps and exit 0 on SIGTERM', async () => {
      const { child, printed, exited, stdout } = startChild(50);
      await printed('ready');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout()).toContain('slow done');
    });

    it('should exit at once on a second signal', async () => {
      const { child, printed, exited, stdout } = startChild(5000);
      await printed('ready');
      const sent = Date.now();
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 100));
      child.kill('SIGINT');
      expect(await exited).toBe(1);
      expect(Date.now() - sent).toBeLessThan(3000);
      expect(stdout()).not.toContain('slow done');
    });
  });
});
