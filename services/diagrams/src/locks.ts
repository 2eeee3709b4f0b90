// Transaction-scoped advisory locks of the diagrams context. Each kind has its own first key, so keys of
// different kinds never collide; the second key is a hash of the id, and a collision of two ids only makes
// two unrelated calls wait for each other briefly.
//
// Every caller takes them in this order (and releases them at commit), so they cannot deadlock:
//   replay key → team caps → (row lock of an existing diagram) → team list clock (shared).
// The list-clock reader (first page of a list) takes the list-clock lock alone.
import type { PoolClient } from 'pg';

const REPLAY_KEY = 7101;
const TEAM_CAPS = 7102;
const TEAM_LIST_CLOCK = 7103;

/** Serialises creates with the same replay key: the second sees the first's diagram. */
export async function lockReplayKey(client: PoolClient, key: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [REPLAY_KEY, key]);
}

/** Serialises creates of one team, so two creates cannot both pass the private-diagrams cap. */
export async function lockTeamCaps(client: PoolClient, teamId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [TEAM_CAPS, teamId]);
}

/**
 * Taken (shared) by every transaction that writes an updated_at of the team, before it reads the clock
 * for it, and held until commit. The first page of a list takes it exclusively to read its snapshot time,
 * so every update time at or before a snapshot is committed when the snapshot is taken.
 */
export async function lockTeamListClockShared(client: PoolClient, teamId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock_shared($1::int, hashtext($2))', [TEAM_LIST_CLOCK, teamId]);
}

export async function lockTeamListClockExclusive(client: PoolClient, teamId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [TEAM_LIST_CLOCK, teamId]);
}
