// The one way every service records an audit entry: inside the transaction of the change it describes,
// through the service's outbox (so the entry exists exactly when the change commits), on subject
// `audit.recorded`. The accounts service consumes that subject and stores the entry in its append-only
// table. Request id, client IP and actor come from the request context the edge filled in (gateway, web
// app) and gRPC carried here; a handler names the actor itself only when it knows better (a failed
// sign-in has no actor, the sweeper is the system).
import { randomUUID } from 'node:crypto';
import type { Client, Pool, PoolClient } from 'pg';
import { enqueueEvent } from './outbox';
import { currentRequestContext } from './request-context';

export const AUDIT_SUBJECT = 'audit.recorded';

export type AuditActorKind = 'user' | 'token' | 'system' | 'anonymous';

export interface AuditActor {
  kind: AuditActorKind;
  /** User id (kind user), token id (kind token), null for the system or an anonymous caller. */
  id: string | null;
  /** The user behind a token, or the user acting (kind user). */
  user_id: string | null;
}

export interface AuditTarget {
  kind: string;
  id: string | null;
  /** A display name as it was at the time (a diagram's name, a member's email), never a secret. */
  name: string | null;
}

/** An audit entry as it travels on the bus and as accounts stores it. */
export interface AuditEntry {
  id: string;
  action: string;
  team_id: string | null;
  actor: AuditActor;
  target: AuditTarget;
  created_at: string;
  request_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export interface AuditInput {
  /** `<target kind>.<verb>`, e.g. `token.created`, `proposal.applied`. */
  action: string;
  team_id: string | null;
  target: AuditTarget;
  /** The acting user as the handler knows it from its request (used when the edge named no actor). */
  user_id?: string | null;
  /** Overrides the context's actor (anonymous sign-in failures, the sweeper). */
  actor?: AuditActor;
  details?: Record<string, unknown>;
}

const ACTION_PATTERN = /^[a-z_]+(\.[a-z_]+)+$/;

/** Builds the entry from the input and the current request context. */
export function auditEntry(input: AuditInput, now: Date = new Date()): AuditEntry {
  if (!ACTION_PATTERN.test(input.action)) throw new Error(`invalid audit action "${input.action}"`);
  const context = currentRequestContext();
  return {
    id: randomUUID(),
    action: input.action,
    team_id: input.team_id || null,
    actor: input.actor ?? actorOf(context?.actor, input.user_id ?? null),
    target: { kind: input.target.kind, id: input.target.id || null, name: input.target.name ?? null },
    created_at: now.toISOString(),
    request_id: context?.requestId ?? null,
    ip: context?.clientIp ?? null,
    details: input.details ?? {},
  };
}

function actorOf(
  fromEdge: { kind: string; id: string; user_id?: string } | undefined,
  userId: string | null,
): AuditActor {
  if (fromEdge?.kind === 'token')
    return { kind: 'token', id: fromEdge.id || null, user_id: fromEdge.user_id || userId || null };
  if (fromEdge?.kind === 'user' && fromEdge.id)
    return { kind: 'user', id: fromEdge.id, user_id: fromEdge.id };
  if (userId) return { kind: 'user', id: userId, user_id: userId };
  return { kind: 'system', id: null, user_id: null };
}

/**
 * Records audit entries in the caller's transaction (or, for a record of a refusal, with no transaction:
 * pass the pool). Returns the entries written.
 */
export async function recordAudit(
  client: PoolClient | Client | Pool,
  schema: string,
  ...inputs: AuditInput[]
): Promise<AuditEntry[]> {
  const entries = inputs.map((input) => auditEntry(input));
  for (const entry of entries)
    await enqueueEvent(client as PoolClient, schema, AUDIT_SUBJECT, entry, { messageId: entry.id });
  return entries;
}

/** An audit entry as ListAuditEvents answers it (the proto's AuditEvent). */
export interface AuditEventMessage {
  id: string;
  action: string;
  actor?: { kind: string; id: string; user_id: string; user_email: string; user_name: string } | null;
  target?: { kind: string; id: string; name: string } | null;
  team_id: string;
  team_slug: string;
  team_name: string;
  created_at: string;
  request_id: string;
  ip: string;
  details_json: string;
}

const orNull = (value: string | undefined) => (value ? value : null);

/** The public shape of an entry: the API's answer, the CLI's export lines and the web page read this. */
export function auditEventResource(event: AuditEventMessage) {
  const actor = event.actor;
  const target = event.target;
  return {
    id: event.id,
    action: event.action,
    actor: {
      kind: actor?.kind || 'system',
      id: orNull(actor?.id),
      user: actor?.user_id
        ? { id: actor.user_id, email: orNull(actor.user_email), name: orNull(actor.user_name) }
        : null,
    },
    target: { kind: target?.kind ?? '', id: orNull(target?.id), name: orNull(target?.name) },
    team: event.team_id ? { id: event.team_id, slug: event.team_slug, name: event.team_name } : null,
    created_at: event.created_at,
    request_id: orNull(event.request_id),
    ip: orNull(event.ip),
    details: JSON.parse(event.details_json || '{}') as Record<string, unknown>,
  };
}

export type AuditEventResource = ReturnType<typeof auditEventResource>;
