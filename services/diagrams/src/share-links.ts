// Read-only share links: an owner or editor makes a link that opens one diagram (or one of its versions)
// without signing in. The token is 256 random bits; only its SHA-256 is stored, so neither the database
// nor a backup holds a working link. A link is checked at every visit (revoked_at, expires_at, the
// diagram not in the Trash), so revoking or deleting ends access at once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { invalidField, isUuid, ServiceError, withTransaction } from '@dss/platform';
import { auditDiagramAction } from './audit';
import type { Pool } from 'pg';
import * as repo from './repository';
import { type Caller, diagramNotFound, requireEditor } from './requests';
import { toDiagram } from './wire';

interface ShareContext {
  pool: Pool;
  appUrl: string;
  now: () => Date;
}

interface LinkRow {
  uuid: string;
  version_number: number | null;
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const LINK_COLUMNS = 'uuid, version_number, created_by, created_at, expires_at, revoked_at';
/** Tokens are 43 characters of base64url; anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest();

function toLink(row: LinkRow) {
  return {
    uuid: row.uuid,
    version_number: row.version_number ?? 0,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? '',
    revoked_at: row.revoked_at?.toISOString() ?? '',
  };
}

/** A share link as an audit target: named after its diagram (its secret is never recorded). */
function shareTarget(link: LinkRow, diagram: { name: string }) {
  return { kind: 'share_link', id: link.uuid, name: diagram.name };
}

async function visibleDiagram(context: ShareContext, caller: Caller, uuid: string) {
  if (!isUuid(uuid)) throw diagramNotFound();
  const diagram = await repo.findDiagram(context.pool, caller.teamId, uuid.toLowerCase());
  if (!diagram) throw diagramNotFound();
  return diagram;
}

export async function createShareLink(
  context: ShareContext,
  caller: Caller,
  input: { uuid: string; version_number: number; expires_at: string },
) {
  requireEditor(caller);
  const diagram = await visibleDiagram(context, caller, input.uuid);
  const version = input.version_number || 0;
  if (!Number.isInteger(version) || version < 0)
    throw invalidField('version_number', 'must be a version number');
  if (version > 0 && (await repo.findVersionDocument(context.pool, diagram.uuid, version)) === null)
    throw new ServiceError('not_found', `the diagram has no version ${version}`);
  let expiresAt: Date | null = null;
  if (input.expires_at !== '') {
    expiresAt = new Date(input.expires_at);
    if (Number.isNaN(expiresAt.getTime()) || !/^\d{4}-\d\d-\d\dT/.test(input.expires_at))
      throw invalidField('expires_at', 'must be an ISO 8601 timestamp');
    if (expiresAt <= context.now()) throw invalidField('expires_at', 'must be in the future');
  }
  const token = randomBytes(32).toString('base64url');
  const link = await withTransaction(context.pool, async (client) => {
    const { rows } = await client.query<LinkRow>(
      `INSERT INTO diagrams.share_links
         (uuid, token_hash, diagram_uuid, team_id, version_number, created_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${LINK_COLUMNS}`,
      [
        randomUUID(),
        hashOf(token),
        diagram.uuid,
        caller.teamId,
        version || null,
        caller.userId,
        context.now(),
        expiresAt,
      ],
    );
    await auditDiagramAction(client, caller, 'share_link.created', shareTarget(rows[0]!, diagram), {
      diagram_uuid: diagram.uuid,
      version: version || null,
      expires_at: expiresAt?.toISOString() ?? null,
    });
    return rows[0]!;
  });
  return { link: toLink(link), token };
}

export async function listShareLinks(context: ShareContext, caller: Caller, uuid: string) {
  const diagram = await visibleDiagram(context, caller, uuid);
  const { rows } = await context.pool.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM diagrams.share_links WHERE diagram_uuid = $1 ORDER BY created_at DESC, uuid`,
    [diagram.uuid],
  );
  return { links: rows.map(toLink) };
}

export async function revokeShareLink(
  context: ShareContext,
  caller: Caller,
  input: { uuid: string; link_uuid: string },
) {
  requireEditor(caller);
  const diagram = await visibleDiagram(context, caller, input.uuid);
  if (!isUuid(input.link_uuid)) throw new ServiceError('not_found', 'no such share link of this diagram');
  await withTransaction(context.pool, async (client) => {
    const { rows } = await client.query<LinkRow>(
      `UPDATE diagrams.share_links SET revoked_at = coalesce(revoked_at, $3)
        WHERE uuid = $1 AND diagram_uuid = $2
        RETURNING ${LINK_COLUMNS}`,
      [input.link_uuid.toLowerCase(), diagram.uuid, context.now()],
    );
    if (rows.length !== 1) throw new ServiceError('not_found', 'no such share link of this diagram');
    await auditDiagramAction(client, caller, 'share_link.revoked', shareTarget(rows[0]!, diagram), {
      diagram_uuid: diagram.uuid,
    });
  });
  return {};
}

/** What a share link opens, or not_found (the same answer for unknown, revoked, expired or trashed). */
export async function openShareLink(context: ShareContext, token: string) {
  const notFound = () => new ServiceError('not_found', 'no such share link');
  if (!TOKEN_SHAPE.test(token)) throw notFound();
  const { rows } = await context.pool.query<{
    uuid: string;
    diagram_uuid: string;
    team_id: string;
    version_number: number | null;
  }>(
    `SELECT uuid, diagram_uuid, team_id, version_number FROM diagrams.share_links
      WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
    [hashOf(token), context.now()],
  );
  const link = rows[0];
  if (!link) throw notFound();
  const diagram = await repo.findDiagram(context.pool, link.team_id, link.diagram_uuid);
  if (diagram?.status !== 'ready') throw notFound();
  const document =
    link.version_number === null
      ? await currentDocument(context.pool, diagram.uuid)
      : await repo.findVersionDocument(context.pool, diagram.uuid, link.version_number);
  if (document === null) throw notFound();
  return {
    diagram: toDiagram(diagram, context.appUrl),
    version_number: link.version_number ?? 0,
    document_json: document,
    link_uuid: link.uuid,
  };
}

async function currentDocument(pool: Pool, diagramUuid: string): Promise<string | null> {
  const { rows } = await pool.query<{ document: string }>(
    'SELECT document::text AS document FROM diagrams.diagram_contents WHERE diagram_uuid = $1',
    [diagramUuid],
  );
  return rows[0]?.document ?? null;
}
