// The gRPC surface of diagrams (dss.v1.Diagrams). Every call that starts from a REST client carries the
// caller's principal and sees only the caller's team: another team's diagram answers exactly like an
// unknown one.
import { invalidField, isUuid, ServiceError, type ServiceHandlers, strongEtag } from '@dss/platform';
import { applyStoredPatch } from './apply-patch';
import { type CreateContext, completeImport, createDiagram } from './create-diagram';
import * as life from './lifecycle';
import { decodeCursor, encodeCursor } from './list-cursor';
import { buildRepresentations, JSON_CONTENT_TYPE, MARKDOWN_CONTENT_TYPE } from './representations';
import type { DiagramDocument } from '@dss/schema';
import * as repo from './repository';
import { type Caller, callerOf, diagramNotFound, listLimit } from './requests';
import * as share from './share-links';
import { restoreVersion, setVersionLabel } from './version-history';
import { toDiagram, toVersion } from './wire';

export type DiagramsHandlerDeps = CreateContext & { now?: () => Date };

export function createDiagramsHandlers(deps: DiagramsHandlerDeps): ServiceHandlers<'Diagrams'> {
  const { pool, appUrl } = deps;
  const lifecycle = { pool, appUrl, now: deps.now ?? (() => new Date()) };
  const teamNames = (caller: Caller) => ({ team_slug: caller.teamSlug, team_name: caller.teamName });

  async function visibleDiagram(caller: Caller, uuid: string): Promise<repo.DiagramRow> {
    if (!isUuid(uuid)) throw diagramNotFound();
    const row = await repo.findDiagram(pool, caller.teamId, uuid.toLowerCase());
    if (!row) throw diagramNotFound();
    return row;
  }

  async function representation(
    caller: Caller,
    uuid: string,
    name: repo.RepresentationName,
    knownEtag: string,
  ) {
    if (!isUuid(uuid)) throw diagramNotFound();
    const found = await repo.findRepresentation(pool, caller.teamId, uuid.toLowerCase(), name, knownEtag);
    if (!found) throw diagramNotFound();
    if (found.status === 'importing')
      throw new ServiceError(
        'diagram_not_ready',
        'the diagram is still importing; poll GET /diagrams/{uuid} until its status is ready',
      );
    if (found.status === 'failed' || found.etag === null || (found.body === null && !found.unchanged))
      throw new ServiceError('diagram_not_ready', 'the diagram’s import failed, so it has no schema');
    const contentType = name.startsWith('markdown') ? MARKDOWN_CONTENT_TYPE : JSON_CONTENT_TYPE;
    return {
      body: found.body ?? '',
      etag: found.etag,
      content_type: contentType,
      unchanged: found.unchanged,
      version_uuid: found.version_uuid ?? '',
    };
  }

  return {
    async ListDiagrams(request) {
      const caller = callerOf(request.principal);
      const limit = listLimit(request.limit);
      const after = request.cursor === '' ? null : decodeCursor(caller.teamId, request.cursor);
      const snapshot = after?.snapshot ?? (await repo.takeListSnapshot(pool, caller.teamId));
      const rows = await repo.listDiagramPage(pool, caller.teamId, snapshot, after, limit + 1);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      const last = page[page.length - 1];
      return {
        diagrams: page.map((row) => toDiagram(row, appUrl, teamNames(caller))),
        has_more: hasMore,
        ...(hasMore && last
          ? { next_cursor: encodeCursor(caller.teamId, { snapshot, updatedAt: last.as_of, uuid: last.uuid }) }
          : {}),
      };
    },

    async GetDiagram(request) {
      const caller = callerOf(request.principal);
      return toDiagram(await visibleDiagram(caller, request.uuid), appUrl, teamNames(caller));
    },

    async CreateDiagram(request) {
      const caller = callerOf(request.principal);
      return createDiagram(deps, caller, request);
    },

    async GetSchema(request) {
      const caller = callerOf(request.principal);
      const format = request.format || 'json';
      const level = request.level || 'detailed';
      if (format !== 'json' && format !== 'markdown')
        throw invalidField('format', 'must be json or markdown');
      if (level !== 'detailed' && level !== 'simple')
        throw invalidField('level', 'must be detailed or simple');
      const name =
        format === 'json' ? 'schema_json' : level === 'simple' ? 'markdown_simple' : 'markdown_detailed';
      return representation(caller, request.uuid, name, request.known_etag);
    },

    async GetFullDocument(request) {
      const caller = callerOf(request.principal);
      return representation(caller, request.uuid, 'full_document_json', request.known_etag);
    },

    async ApplyPatch(request) {
      return applyStoredPatch({ pool, appUrl }, request);
    },

    async CompleteImport(request) {
      return completeImport(deps, request);
    },

    async ListVersions(request) {
      const caller = callerOf(request.principal);
      const diagram = await visibleDiagram(caller, request.uuid);
      const rows = await repo.listVersions(pool, diagram.uuid);
      // Newest first, so the first row has the highest number.
      return { versions: rows.map((row, index) => toVersion(row, rows.length - index)) };
    },

    async GetVersionSchema(request) {
      const caller = callerOf(request.principal);
      const format = request.format || 'json';
      const level = request.level || 'detailed';
      if (format !== 'json' && format !== 'markdown' && format !== 'document')
        throw invalidField('format', 'must be json, markdown or document');
      if (level !== 'detailed' && level !== 'simple')
        throw invalidField('level', 'must be detailed or simple');
      const diagram = await visibleDiagram(caller, request.uuid);
      const stored =
        Number.isInteger(request.number) && request.number >= 1
          ? await repo.findVersionDocument(pool, diagram.uuid, request.number)
          : null;
      if (stored === null)
        throw new ServiceError('not_found', `the diagram has no version ${request.number}`);
      if (format === 'document')
        return { body: stored, etag: strongEtag(stored), content_type: JSON_CONTENT_TYPE, unchanged: false };
      const built = buildRepresentations(JSON.parse(stored) as DiagramDocument);
      const [body, etag] =
        format === 'json'
          ? [built.schema_json, built.schema_json_etag]
          : level === 'simple'
            ? [built.markdown_simple, built.markdown_simple_etag]
            : [built.markdown_detailed, built.markdown_detailed_etag];
      return {
        body,
        etag,
        content_type: format === 'json' ? JSON_CONTENT_TYPE : MARKDOWN_CONTENT_TYPE,
        unchanged: false,
      };
    },

    async GetVersionChange(request) {
      const caller = callerOf(request.principal);
      const diagram = await visibleDiagram(caller, request.uuid);
      const change = isUuid(request.version_uuid)
        ? await repo.findVersionChange(pool, diagram.uuid, request.version_uuid.toLowerCase())
        : null;
      if (change === null) throw new ServiceError('not_found', 'no such version of this diagram');
      return {
        before_json: change.before ?? '',
        after_json: change.after,
        author_user_id: change.author_user_id,
        created_at: change.created_at.toISOString(),
        number: change.number,
      };
    },

    UpdateDiagram: (request) => life.updateDiagram(lifecycle, callerOf(request.principal), request),
    DuplicateDiagram: (request) => life.duplicateDiagram(lifecycle, callerOf(request.principal), request),
    DeleteDiagram: (request) => life.deleteDiagram(lifecycle, callerOf(request.principal), request.uuid),
    RestoreDiagram: (request) => life.restoreDiagram(lifecycle, callerOf(request.principal), request.uuid),
    ListTrash: (request) => life.listTrash(lifecycle, callerOf(request.principal)),
    PurgeDiagram: (request) => life.purgeNow(lifecycle, callerOf(request.principal), request.uuid),
    RestoreVersion: (request) => restoreVersion(lifecycle, callerOf(request.principal), request),
    SetVersionLabel: (request) => setVersionLabel(lifecycle, callerOf(request.principal), request),
    CreateShareLink: (request) => share.createShareLink(lifecycle, callerOf(request.principal), request),
    ListShareLinks: (request) => share.listShareLinks(lifecycle, callerOf(request.principal), request.uuid),
    RevokeShareLink: (request) => share.revokeShareLink(lifecycle, callerOf(request.principal), request),
    OpenShareLink: (request) => share.openShareLink(lifecycle, request.token),
  };
}
