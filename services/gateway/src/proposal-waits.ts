// Long-polls of a proposal (GET /proposals/{uuid}?wait=N) wake on the `proposals.changed` events the
// proposals service publishes through its outbox, never by asking the database in a loop: one subscription
// per gateway, and a set of waiters per proposal. The transitions that wake a waiter are the ones an agent
// waits for: a decision (applied, declined, expired), a comment, a request for changes.
import type { EventBus } from '@dss/platform';

export const WAKING_TRANSITIONS: ReadonlySet<string> = new Set([
  'applied',
  'declined',
  'expired',
  'commented',
  'changes_requested',
]);

/** The longest wait a client may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 60;

export interface ProposalWaiter {
  /** Resolves with true when a waking event arrived, false when `ms` passed or the waiter was cancelled. */
  until(ms: number): Promise<boolean>;
  cancel(): void;
}

export interface ProposalWaits {
  /** Registered before the proposal is read, so an event between the read and the wait is not missed. */
  register(uuid: string): ProposalWaiter;
  /** While the bus is down events may be missed; a waiter would then sleep blind, so callers answer at once. */
  eventsFlowing(): boolean;
  stop(): Promise<void>;
}

export async function watchProposalEvents(bus: EventBus): Promise<ProposalWaits> {
  const waiters = new Map<string, Set<(woken: boolean) => void>>();
  let stopped = false;
  const subscription = await bus.subscribe('proposals.changed', (message) => {
    const data = message.data as { proposal_uuid?: unknown; transition?: unknown } | null;
    if (typeof data?.proposal_uuid !== 'string' || !WAKING_TRANSITIONS.has(String(data.transition))) return;
    for (const wake of waiters.get(data.proposal_uuid.toLowerCase()) ?? []) wake(true);
  });
  return {
    register(uuid) {
      const key = uuid.toLowerCase();
      let settle: (woken: boolean) => void = () => undefined;
      let timer: NodeJS.Timeout | undefined;
      let woken = false;
      const done = new Promise<boolean>((resolve) => {
        settle = (value) => {
          woken ||= value;
          resolve(value);
        };
      });
      const set = waiters.get(key) ?? new Set();
      set.add(settle);
      waiters.set(key, set);
      const remove = () => {
        clearTimeout(timer);
        set.delete(settle);
        if (set.size === 0 && waiters.get(key) === set) waiters.delete(key);
      };
      return {
        async until(ms) {
          if (woken) return true;
          if (stopped) return false;
          timer = setTimeout(() => settle(false), ms);
          const outcome = await done;
          remove();
          return outcome;
        },
        cancel() {
          settle(false);
          remove();
        },
      };
    },
    eventsFlowing: () => !stopped && bus.isHealthy(),
    /** Ends every wait at once (each answers with the proposal as it is), so shutting down is not held up. */
    async stop() {
      stopped = true;
      for (const set of waiters.values()) for (const wake of set) wake(false);
      waiters.clear();
      await subscription.unsubscribe();
    },
  };
}
