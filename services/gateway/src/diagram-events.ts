// Keeps the representation cache's proofs honest: every event about a diagram (the diagrams service
// publishes `diagrams.changed` through its outbox in the transaction of each change) drops the proofs of
// that diagram's copies, and a bus that is, or was, disconnected drops all of them, since events may have
// been missed meanwhile. Subscribes to every `diagrams.*` subject, so an event added later (a deletion,
// say) invalidates too as long as it names `diagram_uuid`.
import type { EventBus } from '@dss/platform';
import type { RepresentationCache } from './representation-cache';

/** How often the bus's connection is looked at between events; a disconnection forgets every proof. */
const HEALTH_POLL_MS = 250;

export async function watchDiagramEvents(bus: EventBus, cache: RepresentationCache) {
  const subscription = await bus.subscribe('diagrams.>', (message) => {
    const uuid = (message.data as { diagram_uuid?: unknown } | null)?.diagram_uuid;
    if (typeof uuid === 'string') cache.diagramChanged(uuid.toLowerCase());
  });
  let healthy = bus.isHealthy();
  const poll = setInterval(() => {
    const now = bus.isHealthy();
    // Forget on the way down (events stop) and again on the way up (what was missed is replayed later).
    if (now !== healthy) cache.forgetProofs();
    healthy = now;
  }, HEALTH_POLL_MS);
  poll.unref();
  return {
    async stop() {
      clearInterval(poll);
      cache.forgetProofs();
      await subscription.unsubscribe();
    },
  };
}
