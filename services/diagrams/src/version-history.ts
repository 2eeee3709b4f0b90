// Walking a diagram's history: restoring an old version (its document written as a new version whose
// source is `restore` and whose source_id is the restored number, so History says "restored version N"
// and who did it) and labelling versions ("v2 release"). Both are for owners and editors.
import { randomUUID } from 'node:crypto';
import { enqueueEvent, invalidField, isUuid, ServiceError, withTransaction } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import type { Pool } from 'pg';
import { DIAGRAMS_CHANGED_SUBJECT } from './create-diagram';
import * as life from './lifecycle-repository';
import { lockTeamListClockShared } from './locks';
import { buildRepresentations } from './representations';
import { auditDiagramAction } from './audit';
import * as repo from './repository';
import { type Caller, diagramNotFound, requireEditor } from './requests';
import { toDiagram, toVersion } from './wire';

export const RESTORE = 'restore';
export const MAX_LABEL_LENGTH = 100;

interface HistoryContext {
  pool: Pool;
  appUrl: string;
}

function noSuchVersion(number: number): ServiceError {
  return new ServiceError('not_found', `the diagram has no version ${number}`);
}

export async function restoreVersion(
  context: HistoryContext,
  caller: Caller,
  input: { uuid: string; number: number },
) {
  requireEditor(caller);
  if (!isUuid(input.uuid)) throw diagramNotFound();
  return withTransaction(context.pool, async (client) => {
    const current = await repo.findDiagramForUpdate(client, caller.teamId, input.uuid.toLowerCase());
    if (!current) throw diagramNotFound();
    if (current.status !== 'ready' || current.document === null)
      throw new ServiceError(
        'diagram_not_ready',
        'the diagram has no schema yet (it is importing or failed)',
      );
    const stored =
      Number.isInteger(input.number) && input.number >= 1
        ? await repo.findVersionDocument(client, current.uuid, input.number)
        : null;
    if (stored === null) throw noSuchVersion(input.number);
    const document = JSON.parse(stored) as DiagramDocument;
    const versionUuid = randomUUID();
    await lockTeamListClockShared(client, caller.teamId);
    const diagram = await repo.touchDiagram(client, current.uuid, {
      table_count: document.tables.length,
      current_version_uuid: versionUuid,
    });
    await repo.saveContents(client, current.uuid, document, buildRepresentations(document));
    await repo.insertVersion(client, {
      uuid: versionUuid,
      diagram_uuid: current.uuid,
      author_user_id: caller.userId,
      source: 'apply',
      source_kind: RESTORE,
      source_id: String(input.number),
      session_started_at: null,
    });
    const versionNumber = await life.countVisibleVersions(client, current.uuid);
    await enqueueEvent(client, repo.SCHEMA, DIAGRAMS_CHANGED_SUBJECT, {
      diagram_uuid: current.uuid,
      team_id: caller.teamId,
      version_uuid: versionUuid,
      source: 'apply',
      source_kind: RESTORE,
      user_id: caller.userId,
      version_number: versionNumber,
      updated_at: diagram.updated_at.toISOString(),
    });
    await auditDiagramAction(
      client,
      caller,
      'version.restored',
      { id: current.uuid, name: current.name },
      {
        restored_version: input.number,
        new_version: versionNumber,
      },
    );
    return {
      version_uuid: versionUuid,
      diagram: toDiagram(diagram, context.appUrl, { team_slug: caller.teamSlug, team_name: caller.teamName }),
      version_number: versionNumber,
      rebased: false,
    };
  });
}

export async function setVersionLabel(
  context: HistoryContext,
  caller: Caller,
  input: { uuid: string; number: number; label: string },
) {
  requireEditor(caller);
  const label = input.label.trim();
  if ([...label].length > MAX_LABEL_LENGTH)
    throw invalidField('label', `must be at most ${MAX_LABEL_LENGTH} characters`);
  if ([...label].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f'))
    throw invalidField('label', 'must be one line of text');
  if (!isUuid(input.uuid)) throw diagramNotFound();
  const diagram = await repo.findDiagram(context.pool, caller.teamId, input.uuid.toLowerCase());
  if (!diagram) throw diagramNotFound();
  if (!Number.isInteger(input.number) || input.number < 1) throw noSuchVersion(input.number);
  const row = await withTransaction(context.pool, async (client) => {
    const labelled = await repo.labelVersion(client, diagram.uuid, input.number, label === '' ? null : label);
    if (labelled !== null)
      await auditDiagramAction(
        client,
        caller,
        'version.labelled',
        { id: diagram.uuid, name: diagram.name },
        {
          version: input.number,
          label: label === '' ? null : label,
        },
      );
    return labelled;
  });
  if (row === null) throw noSuchVersion(input.number);
  return toVersion(row, input.number);
}
