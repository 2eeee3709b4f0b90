// Audit entries of the diagrams context, written in the transaction of the change (platform's recordAudit,
// through this service's outbox). The caller's token, when the request came through the API, is the actor.
import { type AuditInput, recordAudit } from '@dss/platform';
import type { PoolClient } from 'pg';
import * as repo from './repository';
import type { Caller } from './requests';

export function auditDiagramAction(
  client: PoolClient,
  caller: Pick<Caller, 'tokenId' | 'userId' | 'teamId'>,
  action: string,
  target: { kind?: string; id: string; name: string | null },
  details: Record<string, unknown> = {},
) {
  const input: AuditInput = {
    action,
    team_id: caller.teamId,
    target: { kind: target.kind ?? 'diagram', id: target.id, name: target.name },
    user_id: caller.userId || null,
    details,
  };
  if (caller.tokenId) input.actor = { kind: 'token', id: caller.tokenId, user_id: caller.userId || null };
  return recordAudit(client, repo.SCHEMA, input);
}
