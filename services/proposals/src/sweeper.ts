// The expiry sweeper: stores `expired` on pending proposals past `expires_at` and announces each through
// the outbox. Reads never wait for it (they compute the state); it only makes the event stream complete.
// Several instances may run: rows are taken with SKIP LOCKED.
import { startPeriodicSweeper, withTransaction } from '@dss/platform';
import type { Pool } from 'pg';
import { type Announce, createAnnounce } from './events';
import * as repo from './repository';

const BATCH = 200;

/** One pass; returns how many proposals it marked expired. */
export async function sweepExpired(pool: Pool, announce: Announce = createAnnounce()): Promise<number> {
  let total = 0;
  for (;;) {
    const marked = await withTransaction(pool, async (client) => {
      const due = await repo.lockDueExpiries(client, BATCH);
      for (const row of due)
        await announce(client, await repo.transition(client, row.uuid, { kind: 'expired' }), 'expired');
      return due.length;
    });
    total += marked;
    if (marked < BATCH) return total;
  }
}

export function startSweeper(
  pool: Pool,
  intervalMs: number,
  announce: Announce,
  onError: (error: unknown) => void,
) {
  return startPeriodicSweeper(() => sweepExpired(pool, announce), intervalMs, onError);
}
