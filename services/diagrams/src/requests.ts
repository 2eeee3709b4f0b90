// Validation of the fields of incoming calls. A client's mistake is always a ServiceError naming the
// field (invalid_request), never a database error: ids are checked before they reach a uuid column.
import { invalidField, isUuid, ServiceError } from '@dss/platform';
import { DRIVERS, type Driver } from '@dss/schema';

export const DEFAULT_DIAGRAM_NAME = 'Untitled';
export const MAX_NAME_LENGTH = 255;
export const DEFAULT_LIST_LIMIT = 25;
export const MAX_LIST_LIMIT = 100;

/** The same answer for an unknown, malformed or invisible diagram, so existence is never revealed. */
export function diagramNotFound(): ServiceError {
  return new ServiceError('not_found', 'no such diagram, or the token cannot see it');
}

/** Who calls, as far as the diagrams service needs it. */
export interface Caller {
  tokenId: string;
  userId: string;
  teamId: string;
  teamSlug: string;
  teamName: string;
  /** owner, editor or viewer (empty from callers that check roles themselves, such as ApplyPatch's). */
  role: string;
  caps: { maxTablesPerDiagram: number | null; maxPrivateDiagrams: number | null };
}

interface PrincipalInput {
  token_id: string;
  user_id: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  role?: string;
  caps: { max_tables_per_diagram?: number; max_private_diagrams?: number } | null;
}

export function callerOf(principal: PrincipalInput | null | undefined): Caller {
  if (!principal || !isUuid(principal.team_id) || !isUuid(principal.user_id))
    throw invalidField('principal', 'is required, with the team and user ids of the caller');
  return {
    tokenId: principal.token_id,
    userId: principal.user_id.toLowerCase(),
    teamId: principal.team_id.toLowerCase(),
    teamSlug: principal.team_slug,
    teamName: principal.team_name,
    role: principal.role ?? '',
    caps: {
      maxTablesPerDiagram: principal.caps?.max_tables_per_diagram ?? null,
      maxPrivateDiagrams: principal.caps?.max_private_diagrams ?? null,
    },
  };
}

export function diagramName(raw: string): string {
  const name = raw.trim();
  if (name === '') return DEFAULT_DIAGRAM_NAME;
  if ([...name].length > MAX_NAME_LENGTH)
    throw invalidField('name', `must be at most ${MAX_NAME_LENGTH} characters`);
  return name;
}

export function diagramDriver(raw: string): Driver {
  if (raw === '') return 'mysql';
  if (!(DRIVERS as readonly string[]).includes(raw))
    throw invalidField('driver', `must be one of ${DRIVERS.join(', ')}`);
  return raw as Driver;
}

export function listLimit(raw: number): number {
  if (raw === 0) return DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(raw) || raw < 1 || raw > MAX_LIST_LIMIT)
    throw invalidField('limit', `must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  return raw;
}

/** A URL-safe slug of the name (`Sales DB` → `sales-db`). */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? 'diagram' : slug;
}

/** Changing a diagram (its name, a duplicate of it, the Trash) is for the team's owners and editors. */
export function requireEditor(caller: Caller): void {
  if (caller.role !== 'owner' && caller.role !== 'editor')
    throw new ServiceError('editor_required', 'only the team’s owners and editors can change this diagram');
}

/** Restoring and purging a trashed diagram is for the team's owners. */
export function requireOwner(caller: Caller): void {
  if (caller.role !== 'owner')
    throw new ServiceError('forbidden', 'only the team’s owners can restore or purge a deleted diagram');
}

export const MAX_DESCRIPTION_LENGTH = 2000;

export function diagramDescription(raw: string): string | null {
  const description = raw.trim();
  if (description === '') return null;
  if ([...description].length > MAX_DESCRIPTION_LENGTH)
    throw invalidField('description', `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  return description;
}
