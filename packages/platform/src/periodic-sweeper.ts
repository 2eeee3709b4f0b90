// One periodic background pass (the Trash, proposal-expiry and audit-retention sweepers): runs `pass` every
// `intervalMs` without keeping the process alive, reports a failed pass to `onError` and tries again at the
// next tick; stop() clears the timer and waits for a pass already under way.
export interface PeriodicSweeper {
  stop(): Promise<void>;
}

export function startPeriodicSweeper(
  pass: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): PeriodicSweeper {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = pass().catch(onError);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
