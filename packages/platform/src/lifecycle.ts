// Ordered graceful shutdown, after podinfo: on SIGTERM/SIGINT first fail readiness so load balancers
// stop sending work, wait a short drain period for them to notice, then stop the parts in order (gRPC
// servers, the bus, the database pool, tracing). Each step has a timeout so one hung dependency cannot
// keep the pod in Terminating; a second signal exits at once.
import { env } from './config';
import type { Logger } from './logging';

/** Conventional step orders; lower runs first. */
export const SHUTDOWN_ORDER = {
  /** Flip gRPC health to NOT_SERVING and the like; runs before the drain wait. */
  readiness: 0,
  http: 10,
  grpc: 20,
  workers: 30,
  bus: 40,
  database: 50,
  tracing: 60,
} as const;

export interface LifecycleOptions {
  /** Wait between failing readiness and stopping servers; default DSS_SHUTDOWN_DRAIN_MS or 2000. */
  drainMs?: number;
  /** Longest a single step may take; default 10000. */
  stepTimeoutMs?: number;
  /** How the process ends; tests pass their own. */
  exit?: (code: number) => void;
}

export interface Lifecycle {
  /** Registers a shutdown step. Steps run in ascending `order`; equal orders run in registration order. */
  onShutdown(name: string, fn: () => Promise<void> | void, order: number): void;
  /** True from the first signal on; readiness checks report not ready. */
  isShuttingDown(): boolean;
  /** Installs SIGTERM/SIGINT handlers that shut down and exit (0 when every step succeeded, else 1). */
  handleSignals(): void;
  /** Runs the shutdown sequence once (later calls return the same promise); resolves true if all steps succeeded. */
  shutdown(reason: string): Promise<boolean>;
}

interface Step {
  name: string;
  fn: () => Promise<void> | void;
  order: number;
  sequence: number;
}

export function createLifecycle(logger: Logger, options: LifecycleOptions = {}): Lifecycle {
  const drainMs =
    options.drainMs ?? env.int('DSS_SHUTDOWN_DRAIN_MS', { default: 2000, min: 0, max: 600_000 });
  const stepTimeoutMs = options.stepTimeoutMs ?? 10_000;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const steps: Step[] = [];
  let running: Promise<boolean> | undefined;

  async function runSteps(reason: string): Promise<boolean> {
    logger.info({ reason, drainMs }, 'shutting down');
    const ordered = [...steps].sort((a, b) => a.order - b.order || a.sequence - b.sequence);
    let succeeded = true;
    let drained = false;
    for (const step of ordered) {
      if (!drained && step.order > SHUTDOWN_ORDER.readiness) {
        await sleep(drainMs);
        drained = true;
      }
      succeeded = (await runStep(step)) && succeeded;
    }
    logger.info({ succeeded }, 'shutdown complete');
    return succeeded;
  }

  async function runStep(step: Step): Promise<boolean> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), stepTimeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(step.fn), timeout]);
      if (outcome === 'timeout') {
        logger.error({ step: step.name, timeoutMs: stepTimeoutMs }, 'shutdown step timed out; moving on');
        return false;
      }
      logger.debug({ step: step.name, ms: Date.now() - started }, 'shutdown step done');
      return true;
    } catch (error) {
      logger.error({ step: step.name, err: error }, 'shutdown step failed; moving on');
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  const lifecycle: Lifecycle = {
    onShutdown(name, fn, order) {
      steps.push({ name, fn, order, sequence: steps.length });
    },
    isShuttingDown: () => running !== undefined,
    shutdown(reason) {
      running ??= runSteps(reason);
      return running;
    },
    handleSignals() {
      const onSignal = (signal: NodeJS.Signals) => {
        if (running) {
          logger.warn({ signal }, 'second signal: exiting now');
          exit(1);
          return;
        }
        lifecycle.shutdown(signal).then(
          (ok) => exit(ok ? 0 : 1),
          () => exit(1),
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    },
  };
  return lifecycle;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
