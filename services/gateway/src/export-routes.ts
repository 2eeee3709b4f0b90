// Schema as code: a diagram (or one of its versions) exported as SQL, DBML, Mermaid, SVG or PNG, and the
// migration SQL of a proposal (the statements that turn a database at the proposal's base version into
// the proposed schema). Both count against the schema rate limit; reading access suffices.
import * as crypto from 'node:crypto';
import type { ServiceClient } from '@dss/platform';
import { type DiagramDocument, emptyDocument } from '@dss/schema';
import { type Migration, migrationFile, migrationScript } from '@dss/sql';
import { ifNoneMatchMatches } from '@dss/platform';
import type { Request, Response } from 'express';
import type { RouteSpec } from './app';
import { uuidOf, wirePrincipal } from './diagram-routes';
import { EXPORT_FORMATS, exportBody, exportFileName } from '@dss/export';
import { invalidQuery, optionalQueryEnum, optionalQueryString } from './query';

export function exportRoutes(
  diagrams: ServiceClient<'Diagrams'>,
  proposals: ServiceClient<'Proposals'>,
): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/diagrams/:uuid/export',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        const format = optionalQueryEnum(req, 'format', EXPORT_FORMATS) ?? 'sql';
        const version = versionParameter(req);
        const wire = wirePrincipal(principal);
        const uuid = uuidOf(req);
        const [diagram, document] = await Promise.all([
          diagrams.GetDiagram({ principal: wire, uuid }),
          version === undefined
            ? currentDocument(diagrams, wire, uuid)
            : versionDocument(diagrams, wire, uuid, version),
        ]);
        const exported = await exportBody(document, format);
        res.setHeader(
          'Content-Disposition',
          `inline; filename="${exportFileName(diagram.name, exported.extension, version)}"`,
        );
        sendBytes(req, res, exported.body, exported.contentType);
      },
    },
    {
      method: 'get',
      path: '/proposals/:uuid/migration',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        const format = optionalQueryEnum(req, 'format', ['sql', 'json'] as const) ?? 'sql';
        const wire = wirePrincipal(principal);
        // The proposal must be visible to the token's team: the same 404 as an unknown one otherwise.
        const proposal = await proposals.GetProposal({ principal: wire, uuid: uuidOf(req) });
        let before: DiagramDocument;
        let after: DiagramDocument;
        if (proposal.state === 'applied' && proposal.applied_version_uuid) {
          const change = await diagrams.GetVersionChange({
            principal: wire,
            uuid: proposal.diagram_uuid,
            version_uuid: proposal.applied_version_uuid,
          });
          after = JSON.parse(change.after_json) as DiagramDocument;
          before = change.before_json
            ? (JSON.parse(change.before_json) as DiagramDocument)
            : emptyDocument(after.driver);
        } else {
          // Rebased from the version the proposal was made on; 409 conflict naming what changed since.
          const change = await proposals.GetProposedChange({
            uuid: proposal.uuid,
            user_id: principal.user_id,
          });
          before = JSON.parse(change.current_json) as DiagramDocument;
          after = JSON.parse(change.proposed_json) as DiagramDocument;
        }
        sendMigration(req, res, migrationScript(before, after), format);
      },
    },
  ];
}

/** `format=sql` of the diff endpoint and the proposal migration: the script, or it with its parts as JSON. */
export function sendMigration(
  req: Request,
  res: Response,
  migration: Migration,
  format: 'sql' | 'json',
): void {
  if (format === 'json') {
    const { sql, statements, safety, warnings } = migration;
    res.status(200).json({ data: { sql, statements, safety, warnings } });
    return;
  }
  sendBytes(req, res, migrationFile(migration), 'application/sql; charset=utf-8');
}

async function currentDocument(
  diagrams: ServiceClient<'Diagrams'>,
  principal: ReturnType<typeof wirePrincipal>,
  uuid: string,
): Promise<DiagramDocument> {
  const full = await diagrams.GetFullDocument({ principal, uuid });
  return (JSON.parse(full.body) as { data: DiagramDocument }).data;
}

async function versionDocument(
  diagrams: ServiceClient<'Diagrams'>,
  principal: ReturnType<typeof wirePrincipal>,
  uuid: string,
  number: number,
): Promise<DiagramDocument> {
  const stored = await diagrams.GetVersionSchema({ principal, uuid, number, format: 'document', level: '' });
  return JSON.parse(stored.body) as DiagramDocument;
}

function versionParameter(req: Request): number | undefined {
  const raw = optionalQueryString(req, 'version');
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(raw))
    throw invalidQuery('version', 'must be a version number (1 is the oldest)');
  return Number(raw);
}

/** The bytes with a strong ETag of their content; 304 when the client holds them already. */
function sendBytes(req: Request, res: Response, body: string | Buffer, contentType: string): void {
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if (ifNoneMatchMatches(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(contentType).send(body);
}
