// Validation of the fields of incoming calls. A client's mistake is always a ServiceError naming the
// field, never a database error: ids are checked before they reach a uuid column.
import { invalidField, isUuid, ServiceError } from '@dss/platform';

/** The same answer for an unknown, malformed or invisible proposal, so existence is never revealed. */
export function proposalNotFound(): ServiceError {
  return new ServiceError('not_found', 'no such proposal, or the token cannot see it');
}

/** Length in characters (code points), as the spec's bounds count them. */
export function characters(text: string): number {
  return [...text].length;
}

export function boundedText(path: string, value: string, max: number): string {
  if (value.trim() === '') throw invalidField(path, 'is required and must not be empty');
  if (characters(value) > max) throw invalidField(path, `must be at most ${max} characters`);
  return value;
}

export interface Caller {
  userId: string;
  teamId: string;
  role: string;
  maxTablesPerDiagram: number | null;
}

interface PrincipalInput {
  user_id: string;
  team_id: string;
  role: string;
  caps: { max_tables_per_diagram?: number } | null;
}

export function callerOf(principal: PrincipalInput | null | undefined): Caller {
  if (!principal || !isUuid(principal.team_id) || !isUuid(principal.user_id))
    throw invalidField('principal', 'is required, with the team and user ids of the caller');
  return {
    userId: principal.user_id.toLowerCase(),
    teamId: principal.team_id.toLowerCase(),
    role: principal.role,
    maxTablesPerDiagram: principal.caps?.max_tables_per_diagram ?? null,
  };
}

export const canEdit = (role: string) => role === 'owner' || role === 'editor';
