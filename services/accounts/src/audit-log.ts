// The audit log, stored by accounts: the consumer that adds each entry arriving on `audit.recorded` (from
// every service's outbox, this one's included), the owners' and operator's paged reads, and retention.
// The table only grows (migration 1700000000005): the one removal is purge_audit_events(), run by the
// retention sweeper below, which deletes entries older than the retention period and nothing else.
import {
  AUDIT_SUBJECT,
  type AuditEntry,
  type AuditInput,
  type EventBus,
  isUuid,
  recordAudit,
  ServiceError,
  startPeriodicSweeper,
} from '@dss/platform';
import type { Pool } from 'pg';
import { type Queryable, SCHEMA } from './repository';

const ACTION_FILTER = /^[a-z_]+(\.[a-z_]+)*$/;
/** Control characters (a NUL would make PostgreSQL refuse the query): never part of an id or an email. */
const CONTROL = { test: (text: string) => [...text].some((char) => char < ' ' || char === '\u007f') };
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 25;

/** Stores one entry; a redelivered entry (same id) is stored once. */
export async function storeAuditEntry(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (id, action, team_id, actor_kind, actor_id, actor_user_id, target_kind, target_id,
                               target_name, created_at, request_id, ip, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)
     ON CONFLICT (id) DO NOTHING`,
    [
      entry.id,
      entry.action,
      uuidOrNull(entry.team_id),
      entry.actor.kind,
      uuidOrNull(entry.actor.id),
      uuidOrNull(entry.actor.user_id),
      entry.target.kind,
      entry.target.id,
      entry.target.name,
      entry.created_at,
      entry.request_id,
      entry.ip,
      JSON.stringify(entry.details ?? {}),
    ],
  );
}

function uuidOrNull(value: string | null | undefined): string | null {
  return value && isUuid(value) ? value : null;
}

/** Consumes audit entries from the bus into the table, one durable queue shared by every replica. */
export function consumeAuditEntries(bus: EventBus, pool: Pool) {
  return bus.consume('accounts-audit', AUDIT_SUBJECT, async (message) => {
    await storeAuditEntry(pool, message.data as AuditEntry);
  });
}

export interface AuditQuery {
  team_id: string;
  actor: string;
  action: string;
  target: string;
  since: string;
  until: string;
  cursor: string;
  limit: number;
}

interface AuditRow {
  id: string;
  action: string;
  team_id: string | null;
  team_slug: string | null;
  team_name: string | null;
  actor_kind: string;
  actor_id: string | null;
  actor_user_id: string | null;
  user_email: string | null;
  user_name: string | null;
  target_kind: string;
  target_id: string | null;
  target_name: string | null;
  created_at: Date;
  seq: string;
  request_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

/** One page, newest first; every filter checked here so each caller answers a bad one the same way. */
export async function listAuditEvents(db: Queryable, query: AuditQuery) {
  const limit = query.limit || DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw invalid('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.team_id) {
    if (!isUuid(query.team_id)) throw invalid('team', 'must be a team id');
    where.push(`e.team_id = ${param(query.team_id)}`);
  }
  const actor = (query.actor ?? '').trim();
  if (actor) {
    if (isUuid(actor)) {
      const p = param(actor);
      where.push(`(e.actor_id = ${p} OR e.actor_user_id = ${p})`);
    } else if (actor.includes('@') && actor.length <= 320 && !CONTROL.test(actor)) {
      where.push(
        `e.actor_user_id = (SELECT id FROM users WHERE lower(email) = lower(${param(actor)}) LIMIT 1)`,
      );
    } else throw invalid('actor', 'must be a user id, a token id or an email address');
  }
  const action = (query.action ?? '').trim();
  if (action) {
    if (!ACTION_FILTER.test(action) || action.length > 100)
      throw invalid('action', 'must be an action such as token.created, or a group such as token');
    const p = param(action);
    where.push(action.includes('.') ? `e.action = ${p}` : `split_part(e.action, '.', 1) = ${p}`);
  }
  const target = (query.target ?? '').trim();
  if (target) {
    if (target.length > 200 || CONTROL.test(target))
      throw invalid('target', 'must be an id of at most 200 characters');
    where.push(`e.target_id = ${param(target)}`);
  }
  const since = timestamp('since', query.since);
  if (since) where.push(`e.created_at >= ${param(since)}`);
  const until = timestamp('until', query.until);
  if (until) where.push(`e.created_at < ${param(until)}`);
  if (query.cursor) where.push(`e.seq < ${param(decodeCursor(query.cursor))}`);
  const { rows } = await db.query<AuditRow>(
    `SELECT e.*, t.slug AS team_slug, t.name AS team_name, u.email AS user_email, u.name AS user_name
       FROM audit_events e
       LEFT JOIN teams t ON t.id = e.team_id
       LEFT JOIN users u ON u.id = e.actor_user_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY e.seq DESC
      LIMIT ${param(limit + 1)}`,
    params,
  );
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    events: page.map(toAuditEvent),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1].seq) : '',
  };
}

function toAuditEvent(row: AuditRow) {
  return {
    id: row.id,
    action: row.action,
    actor: {
      kind: row.actor_kind,
      id: row.actor_id ?? '',
      user_id: row.actor_user_id ?? '',
      user_email: row.user_email ?? '',
      user_name: row.user_name ?? '',
    },
    target: { kind: row.target_kind, id: row.target_id ?? '', name: row.target_name ?? '' },
    team_id: row.team_id ?? '',
    team_slug: row.team_slug ?? '',
    team_name: row.team_name ?? '',
    created_at: row.created_at.toISOString(),
    request_id: row.request_id ?? '',
    ip: row.ip ?? '',
    details_json: JSON.stringify(row.details ?? {}),
  };
}

function timestamp(field: string, value: string): string | null {
  const text = (value ?? '').trim();
  if (!text) return null;
  // ISO 8601 with a date and, when a time is given, an offset: an ambiguous local time is refused.
  const shape = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
  const parsed = new Date(text);
  if (!shape.test(text) || Number.isNaN(parsed.getTime()))
    throw invalid(field, 'must be an ISO 8601 date or timestamp with offset, e.g. 2026-01-31T00:00:00Z');
  return parsed.toISOString();
}

function encodeCursor(seq: string): string {
  return Buffer.from(`a1:${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^a1:(\d{1,18})$/.exec(text);
  if (!match) throw invalid('cursor', 'must be the meta.next_cursor of the previous page');
  return match[1];
}

/** invalid_request naming the filter, so the API's 422 says which query parameter was wrong. */
function invalid(path: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `${path} ${problem}`, { errors: [{ path, message: problem }] });
}

/** Removes entries older than the retention period through the table's one purge path. */
export async function purgeExpiredAuditEvents(pool: Pool, retentionDays: number): Promise<number> {
  const { rows } = await pool.query<{ removed: number }>('SELECT purge_audit_events($1) AS removed', [
    retentionDays,
  ]);
  return rows[0].removed;
}

/** The retention sweeper (the periodic sweeper of @dss/platform, as the Trash and expiry sweepers use). */
export function startAuditRetentionSweeper(
  pool: Pool,
  retentionDays: number,
  intervalMs: number,
  onError: (error: unknown) => void,
) {
  return startPeriodicSweeper(() => purgeExpiredAuditEvents(pool, retentionDays), intervalMs, onError);
}

/**
 * The inputs of one user-level action (a sign-in, a password reset) for every team the user belongs to, so
 * each team's owners see it; one entry without a team when the user is in none (or unknown).
 */
export async function forEachTeamOf(
  db: Queryable,
  userId: string | null,
  input: Omit<AuditInput, 'team_id'>,
): Promise<AuditInput[]> {
  const { rows } = userId
    ? await db.query<{ team_id: string }>(
        `SELECT m.team_id FROM memberships m JOIN teams t ON t.id = m.team_id
          WHERE m.user_id = $1 AND t.deleted_at IS NULL ORDER BY m.team_id`,
        [userId],
      )
    : { rows: [] };
  if (rows.length === 0) return [{ ...input, team_id: null }];
  return rows.map((row) => ({ ...input, team_id: row.team_id }));
}

/** Records entries in accounts' own outbox (the same path as every other service's). */
export function audit(db: Queryable, ...inputs: AuditInput[]) {
  return recordAudit(db, SCHEMA, ...inputs);
}
