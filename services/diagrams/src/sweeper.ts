// The Trash sweeper: purges diagrams deleted more than TRASH_DAYS ago (lifecycle.ts), each with its
// `diagrams.purged` event, in batches. Reads never wait for it: a diagram past its trash period already
// answers not_found and can no longer be restored. Several instances may run: rows are taken with SKIP
// LOCKED. The clock is injected so tests can move past the trash period.
import { startPeriodicSweeper, withTransaction } from '@dss/platform';
import type { Pool } from 'pg';
import { lockDuePurges } from './lifecycle-repository';
import { purge, TRASH_DAYS } from './lifecycle';

const BATCH = 100;
const DAY_MS = 86_400_000;

/** One pass; returns how many diagrams it purged. */
export async function sweepTrash(pool: Pool, now: () => Date = () => new Date()): Promise<number> {
  const cutoff = new Date(now().getTime() - TRASH_DAYS * DAY_MS);
  let total = 0;
  for (;;) {
    const purged = await withTransaction(pool, async (client) => {
      const due = await lockDuePurges(client, cutoff, BATCH);
      for (const diagram of due) await purge(client, diagram, null);
      return due.length;
    });
    total += purged;
    if (purged < BATCH) return total;
  }
}

export function startTrashSweeper(
  pool: Pool,
  intervalMs: number,
  now: () => Date,
  onError: (error: unknown) => void,
) {
  return startPeriodicSweeper(() => sweepTrash(pool, now), intervalMs, onError);
}
