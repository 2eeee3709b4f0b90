// A diagram's life around its schema: rename and describe it, duplicate it, move it to the Trash, restore
// it, purge it. None of these changes a diagram's schema (that stays with patches and proposals). A
// trashed diagram answers not_found everywhere (every read filters deleted_at) until an owner restores it
// within TRASH_DAYS; then the sweeper (sweeper.ts) or an owner purges it for good.
import { enqueueEvent, invalidField, isUuid, ServiceError, withTransaction } from '@dss/platform';
import { type Driver, documentCounts } from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import { checkPrivateDiagramsCap, checkTablesCap, storeNewDiagram } from './create-diagram';
import * as life from './lifecycle-repository';
import { lockTeamCaps, lockTeamListClockShared } from './locks';
import { auditDiagramAction } from './audit';
import * as repo from './repository';
import {
  type Caller,
  diagramDescription,
  diagramName,
  diagramNotFound,
  MAX_NAME_LENGTH,
  requireEditor,
  requireOwner,
  slugOf,
} from './requests';
import { type TeamNames, toDiagram } from './wire';

export const TRASH_DAYS = 30;
const DAY_MS = 86_400_000;
export const DIAGRAMS_RENAMED_SUBJECT = 'diagrams.renamed';
export const DIAGRAMS_DELETED_SUBJECT = 'diagrams.deleted';
export const DIAGRAMS_RESTORED_SUBJECT = 'diagrams.restored';
export const DIAGRAMS_PURGED_SUBJECT = 'diagrams.purged';

export interface LifecycleContext {
  pool: Pool;
  appUrl: string;
  /** The clock of the trash period (injected by tests). */
  now: () => Date;
}

const teamNames = (caller: Caller): TeamNames => ({ team_slug: caller.teamSlug, team_name: caller.teamName });

/** When a diagram deleted at `deletedAt` is purged. */
export const purgeAfter = (deletedAt: Date) => new Date(deletedAt.getTime() + TRASH_DAYS * DAY_MS);

export async function updateDiagram(
  context: LifecycleContext,
  caller: Caller,
  input: { uuid: string; name?: string | null; description?: string | null },
) {
  requireEditor(caller);
  const hasName = input.name !== undefined && input.name !== null;
  const hasDescription = input.description !== undefined && input.description !== null;
  if (!hasName && !hasDescription)
    throw new ServiceError('invalid_request', 'send a name, a description or both', {
      errors: [
        { path: 'name', message: 'name or description is required' },
        { path: 'description', message: 'name or description is required' },
      ],
    });
  if (hasName && input.name!.trim() === '') throw invalidField('name', 'must not be empty');
  const name = hasName ? diagramName(input.name!) : null;
  const description = hasDescription ? diagramDescription(input.description!) : undefined;
  return withTransaction(context.pool, async (client) => {
    const current = await lockedDiagram(client, caller, input.uuid);
    const next = {
      name: name ?? current.name,
      slug: name === null ? current.slug : slugOf(name),
      description: description === undefined ? current.description : description,
    };
    if (next.name === current.name && next.description === current.description)
      return toDiagram(current, context.appUrl, teamNames(caller));
    await lockTeamListClockShared(client, caller.teamId);
    const diagram = await life.updateDetails(client, current.uuid, next);
    await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_RENAMED_SUBJECT, {
      diagram_uuid: diagram.uuid,
      team_id: caller.teamId,
      user_id: caller.userId,
      name: diagram.name,
      previous_name: current.name,
      description: diagram.description,
      updated_at: diagram.updated_at.toISOString(),
    });
    await auditDiagramAction(
      client,
      caller,
      'diagram.renamed',
      { id: diagram.uuid, name: diagram.name },
      {
        ...(next.name !== current.name ? { previous_name: current.name } : {}),
        description_changed: next.description !== current.description,
      },
    );
    return toDiagram(diagram, context.appUrl, teamNames(caller));
  });
}

/** A new diagram of the caller's team holding a copy of the current document, as a create does. */
export async function duplicateDiagram(
  context: LifecycleContext,
  caller: Caller,
  input: { uuid: string; name?: string | null },
) {
  requireEditor(caller);
  const requested = input.name?.trim() ?? '';
  return withTransaction(context.pool, async (client) => {
    await lockTeamCaps(client, caller.teamId);
    const source = await lockedDiagram(client, caller, input.uuid);
    if (source.status !== 'ready' || source.document === null)
      throw new ServiceError(
        'diagram_not_ready',
        'the diagram has no schema yet (it is importing or failed)',
      );
    checkTablesCap(caller, source.document.tables.length);
    await checkPrivateDiagramsCap(client, caller);
    const name = requested === '' ? copyName(source.name) : diagramName(requested);
    const diagram = await storeNewDiagram(client, caller, {
      name,
      driver: source.driver as Driver,
      document: source.document,
      description: source.description,
      origin: { kind: 'duplicate', id: source.uuid },
    });
    const counts = documentCounts(source.document);
    return {
      diagram: toDiagram(diagram, context.appUrl, teamNames(caller)),
      counts_json: JSON.stringify(counts),
      warnings_json: '[]',
      replayed: false,
      poll_after_seconds: 0,
    };
  });
}

export async function deleteDiagram(context: LifecycleContext, caller: Caller, uuid: string) {
  requireEditor(caller);
  return withTransaction(context.pool, async (client) => {
    const current = await lockedDiagram(client, caller, uuid);
    const trashed = await life.trashDiagram(client, current.uuid, caller.userId);
    await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_DELETED_SUBJECT, {
      diagram_uuid: trashed.uuid,
      team_id: caller.teamId,
      user_id: caller.userId,
      deleted_at: trashed.deleted_at.toISOString(),
      purge_after: purgeAfter(trashed.deleted_at).toISOString(),
    });
    await auditDiagramAction(
      client,
      caller,
      'diagram.deleted',
      { id: current.uuid, name: current.name },
      {
        purge_after: purgeAfter(trashed.deleted_at).toISOString(),
      },
    );
    return toTrashed(context, caller, trashed);
  });
}

export async function restoreDiagram(context: LifecycleContext, caller: Caller, uuid: string) {
  requireOwner(caller);
  return withTransaction(context.pool, async (client) => {
    await lockTeamCaps(client, caller.teamId);
    const trashed = await lockedTrashed(context, client, caller, uuid);
    await checkPrivateDiagramsCap(client, caller);
    await lockTeamListClockShared(client, caller.teamId);
    const diagram = await life.restoreDiagram(client, trashed.uuid);
    await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_RESTORED_SUBJECT, {
      diagram_uuid: diagram.uuid,
      team_id: caller.teamId,
      user_id: caller.userId,
      updated_at: diagram.updated_at.toISOString(),
    });
    await auditDiagramAction(client, caller, 'diagram.restored', { id: diagram.uuid, name: diagram.name });
    return toDiagram(diagram, context.appUrl, teamNames(caller));
  });
}

export async function listTrash(context: LifecycleContext, caller: Caller) {
  const since = new Date(context.now().getTime() - TRASH_DAYS * DAY_MS);
  const rows = await life.listTrash(context.pool, caller.teamId, since);
  return { diagrams: rows.map((row) => toTrashed(context, caller, row)) };
}

export async function purgeNow(context: LifecycleContext, caller: Caller, uuid: string) {
  requireOwner(caller);
  await withTransaction(context.pool, async (client) => {
    const trashed = await lockedTrashed(context, client, caller, uuid);
    await purge(client, trashed, caller);
  });
  return {};
}

/** Removes a trashed diagram and announces it (`user_id` empty when the sweeper purges). */
export async function purge(
  client: PoolClient,
  diagram: { uuid: string; team_id: string; name?: string },
  caller: Pick<Caller, 'tokenId' | 'userId'> | null,
): Promise<void> {
  await life.purgeDiagram(client, diagram.uuid);
  await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_PURGED_SUBJECT, {
    diagram_uuid: diagram.uuid,
    team_id: diagram.team_id,
    user_id: caller?.userId ?? '',
  });
  await auditDiagramAction(
    client,
    { tokenId: caller?.tokenId ?? '', userId: caller?.userId ?? '', teamId: diagram.team_id },
    'diagram.purged',
    { id: diagram.uuid, name: diagram.name ?? null },
    { by: caller ? 'owner' : 'trash_sweeper' },
  );
}

async function lockedDiagram(client: PoolClient, caller: Caller, uuid: string) {
  if (!isUuid(uuid)) throw diagramNotFound();
  const row = await repo.findDiagramForUpdate(client, caller.teamId, uuid.toLowerCase());
  if (!row) throw diagramNotFound();
  return row;
}

/** A trashed diagram still inside its trash period (one past it is as good as purged). */
async function lockedTrashed(context: LifecycleContext, client: PoolClient, caller: Caller, uuid: string) {
  if (!isUuid(uuid)) throw diagramNotFound();
  const row = await life.findTrashedForUpdate(client, caller.teamId, uuid.toLowerCase());
  if (!row || purgeAfter(row.deleted_at) <= context.now())
    throw new ServiceError('not_found', 'no such diagram in the Trash');
  return row;
}

function toTrashed(context: LifecycleContext, caller: Caller, row: life.TrashedRow) {
  return {
    diagram: toDiagram(row, context.appUrl, teamNames(caller)),
    deleted_at: row.deleted_at.toISOString(),
    deleted_by: row.deleted_by,
    purge_after: purgeAfter(row.deleted_at).toISOString(),
  };
}

/** "Shop" → "Shop (copy)", kept within the name limit. */
function copyName(name: string): string {
  const suffix = ' (copy)';
  const chars = [...name];
  return chars.length + suffix.length > MAX_NAME_LENGTH
    ? `${chars.slice(0, MAX_NAME_LENGTH - suffix.length).join('')}${suffix}`
    : `${name}${suffix}`;
}
