// Wakes the DDL creates that wait for their import (ARCHITECTURE.md, "Create from DDL": the create
// waits a bounded time for the "import finished" event). One bus subscription per process; each waiting
// create watches its diagram from before its first read, so an event that arrives between a read and
// the next wait is kept, not missed. The diagram row stays the truth: a waiter re-reads it after every
// wake, and also on a slow timer, so a bus that is down only makes the answer later.
import { type BusSubscription, type EventBus, Wakeup } from '@dss/platform';

export interface ImportWatch {
  /** Resolves after `ms`, or at once when the import finished since the last wait. */
  wait(ms: number): Promise<void>;
  close(): void;
}

export class ImportWaiters {
  private readonly watching = new Map<string, Set<Wakeup>>();
  private subscription: BusSubscription | null = null;

  /** Subscribes to `subject` (the import-finished events, `{diagram_uuid}`) on the bus. */
  async start(bus: EventBus, subject: string): Promise<void> {
    this.subscription = await bus.subscribe(subject, (message) => {
      const uuid = (message.data as { diagram_uuid?: unknown } | null)?.diagram_uuid;
      if (typeof uuid === 'string') this.finished(uuid);
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.unsubscribe();
    this.subscription = null;
  }

  watch(diagramUuid: string): ImportWatch {
    const wakeup = new Wakeup();
    const set = this.watching.get(diagramUuid) ?? new Set<Wakeup>();
    this.watching.set(diagramUuid, set);
    set.add(wakeup);
    return {
      wait: (ms) => wakeup.wait(ms),
      close: () => {
        set.delete(wakeup);
        if (set.size === 0 && this.watching.get(diagramUuid) === set) this.watching.delete(diagramUuid);
      },
    };
  }

  finished(diagramUuid: string): void {
    for (const wakeup of this.watching.get(diagramUuid) ?? []) wakeup.notify();
  }
}
