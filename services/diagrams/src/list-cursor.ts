// The opaque cursor of GET /diagrams: base64url JSON of the snapshot time of the first page and the
// (updated_at as of that snapshot, uuid) of the last diagram returned. Times are microsecond text in UTC
// exactly as PostgreSQL wrote them, never JavaScript Dates (which keep only milliseconds). A checksum over
// the team and the values rejects edited or foreign cursors; it is an integrity check, not a secret: every
// query is filtered by the caller's team anyway, so a forged cursor can only reorder the caller's own list.
import { createHash } from 'node:crypto';
import { ServiceError } from '@dss/platform';

export interface ListPosition {
  /** Snapshot time of the first page (UTC, `YYYY-MM-DDTHH:MM:SS.ffffff`). */
  snapshot: string;
  /** updated_at of the last diagram returned, as of the snapshot. */
  updatedAt: string;
  uuid: string;
}

const MICROSECOND_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_CURSOR_LENGTH = 1024;

function checksum(teamId: string, position: ListPosition): string {
  return createHash('sha256')
    .update(
      `dss.diagrams.cursor.v1\n${teamId}\n${position.snapshot}\n${position.updatedAt}\n${position.uuid}`,
    )
    .digest('base64url')
    .slice(0, 22);
}

export function encodeCursor(teamId: string, position: ListPosition): string {
  const payload = { v: 1, s: position.snapshot, t: position.updatedAt, u: position.uuid };
  return Buffer.from(JSON.stringify({ ...payload, h: checksum(teamId, position) }), 'utf8').toString(
    'base64url',
  );
}

export function decodeCursor(teamId: string, cursor: string): ListPosition {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (typeof parsed !== 'object' || parsed === null) throw badCursor();
  const { v, s, t, u, h } = parsed as Record<string, unknown>;
  if (v !== 1 || typeof s !== 'string' || typeof t !== 'string' || typeof u !== 'string') throw badCursor();
  const position = { snapshot: s, updatedAt: t, uuid: u };
  if (!MICROSECOND_TIME.test(s) || !MICROSECOND_TIME.test(t) || !UUID.test(u) || t > s) throw badCursor();
  if (h !== checksum(teamId, position)) throw badCursor();
  return position;
}

export function badCursor(): ServiceError {
  return new ServiceError(
    'invalid_request',
    'cursor is not valid; pass the meta.next_cursor of the previous page unchanged',
    { errors: [{ path: 'cursor', message: 'is not a cursor this API returned' }] },
  );
}
