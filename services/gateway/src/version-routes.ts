// A diagram's versions (every change is one numbered version, 1 the oldest): the list, newest first and
// cursor-paged like the diagram list, and one version's schema exactly as /schema serves the current one.
import { ServiceError, type ServiceClient } from '@dss/platform';
import { type DiagramDocument, diff, emptyDocument, renderDiffMarkdown } from '@dss/schema';
import { migrationScript } from '@dss/sql';
import { objectBody, type RouteSpec } from './app';
import { queryLimit, uuidOf, wirePrincipal } from './diagram-routes';
import { sendMigration } from './export-routes';
import { invalidQuery, optionalQueryEnum, optionalQueryString } from './query';
import { sendRepresentation } from './representation';

const SOURCES: Record<string, string> = {
  create: 'create',
  import: 'import',
  apply: 'proposal',
  paste: 'paste',
  layout: 'layout',
  editor: 'editor',
  restore: 'restore',
};

export function versionRoutes(
  diagrams: ServiceClient<'Diagrams'>,
  accounts: ServiceClient<'Accounts'> | null,
): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/diagrams/:uuid/versions',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const limit = queryLimit(req) ?? 25;
        const cursor = optionalQueryString(req, 'cursor');
        const before = cursor === undefined ? Number.POSITIVE_INFINITY : decodeCursor(cursor);
        const { versions } = await diagrams.ListVersions({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
        });
        // ListVersions answers newest first; version n is the n-th oldest.
        const numbered = versions.map((version) => ({ version, number: version.number }));
        const page = numbered.filter((entry) => entry.number < before).slice(0, limit);
        const names = await authorNames(
          accounts,
          page.map((entry) => entry.version.author_user_id),
        );
        const last = page.at(-1);
        const hasMore = last !== undefined && last.number > 1;
        res.status(200).json({
          data: page.map(({ version }) => versionItem(version, names)),
          meta: { next_cursor: hasMore ? encodeCursor(last.number) : null, has_more: hasMore },
        });
      },
    },
    {
      method: 'patch',
      path: '/diagrams/:uuid/versions/:number',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const number = pathVersion(req);
        const body = objectBody(req);
        const unknown = Object.keys(body).filter((key) => key !== 'label');
        if (unknown.length > 0)
          throw new ServiceError(
            'invalid_request',
            `${unknown.join(', ')} cannot be changed: only label can`,
            {
              errors: unknown.map((path) => ({ path, message: 'only label can be changed' })),
            },
          );
        const { label } = body;
        if (label === undefined || (label !== null && typeof label !== 'string'))
          throw new ServiceError('invalid_request', 'label must be a string, or null to clear it', {
            errors: [{ path: 'label', message: 'must be a string, or null to clear it' }],
          });
        const version = await diagrams.SetVersionLabel({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
          number,
          label: label ?? '',
        });
        const names = await authorNames(accounts, [version.author_user_id]);
        res.status(200).json({ data: versionItem(version, names) });
      },
    },
    {
      method: 'get',
      path: '/diagrams/:uuid/versions/:number/schema',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        const number = pathVersion(req);
        res.setHeader('Vary', 'Accept');
        const format = optionalQueryEnum(req, 'format', ['json', 'markdown', 'ai'] as const);
        const level = optionalQueryEnum(req, 'level', ['detailed', 'simple'] as const) ?? 'detailed';
        const accepted = req.accepts(['application/json', 'text/markdown']);
        if (accepted === false && format === undefined)
          throw new ServiceError(
            'not_acceptable',
            'Accept must admit application/json or text/markdown (or use format=markdown)',
          );
        const markdown =
          format === 'markdown' || format === 'ai' || (format === undefined && accepted === 'text/markdown');
        const representation = await diagrams.GetVersionSchema({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
          number,
          format: markdown ? 'markdown' : 'json',
          level,
        });
        sendRepresentation(req, res, representation, { vary: 'Accept' });
      },
    },
    {
      method: 'get',
      path: '/diagrams/:uuid/diff',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        const format = optionalQueryEnum(req, 'format', ['json', 'markdown', 'sql'] as const) ?? 'json';
        const wire = wirePrincipal(principal);
        const uuid = uuidOf(req);
        const { versions } = await diagrams.ListVersions({ principal: wire, uuid });
        const count = versions.length;
        const to = versionNumber(req, 'to') ?? count;
        const from = versionNumber(req, 'from') ?? Math.max(0, to - 1);
        for (const [name, number] of [
          ['to', to],
          ['from', from],
        ] as const) {
          if (number > count || (number < 1 && !(name === 'from' && to === 1)))
            throw new ServiceError('not_found', `the diagram has no version ${number} (it has ${count})`);
        }
        const documentOf = async (number: number): Promise<DiagramDocument> => {
          if (number === 0) return emptyDocument((await documentOf(to)).driver);
          const stored = await diagrams.GetVersionSchema({
            principal: wire,
            uuid,
            number,
            format: 'document',
            level: '',
          });
          return JSON.parse(stored.body) as DiagramDocument;
        };
        const [before, after] = await Promise.all([documentOf(from), documentOf(to)]);
        if (format === 'sql') {
          sendMigration(req, res, migrationScript(before, after), 'sql');
          return;
        }
        const changes = diff(before, after);
        if (format === 'markdown') {
          res
            .status(200)
            .type('text/markdown; charset=utf-8')
            .send(`# Diagram changes: version ${from} → ${to}\n\n${renderDiffMarkdown(changes)}`);
          return;
        }
        res.status(200).json({ data: { from, to, changes } });
      },
    },
  ];
}

type VersionMessage = Awaited<ReturnType<ServiceClient<'Diagrams'>['ListVersions']>>['versions'][number];

/** A version as the versions list and the label endpoint answer it. */
function versionItem(version: VersionMessage, names: Map<string, string>) {
  const source = SOURCES[version.source] ?? version.source;
  return {
    number: version.number,
    created_at: version.created_at,
    source,
    proposal_uuid: source === 'proposal' && version.source_id ? version.source_id : null,
    author: names.get(version.author_user_id) ?? null,
    label: version.label || null,
    restored_version: source === 'restore' && version.source_id ? Number(version.source_id) : null,
  };
}

/** The version number of the path: a whole number from 1, else 404 (there is no such version). */
function pathVersion(req: Parameters<RouteSpec['handler']>[0]): number {
  const raw = String(req.params.number ?? '');
  const number = /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : 0;
  if (number === 0) throw new ServiceError('not_found', `the diagram has no version ${raw}`);
  return number;
}

/** A version number from the query (`from`, `to`): a whole number, else 422 naming the parameter. */
function versionNumber(req: Parameters<RouteSpec['handler']>[0], name: string): number | undefined {
  const raw = optionalQueryString(req, name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw invalidQuery(name, 'must be a version number (1 is the oldest)');
  return Number(raw);
}

/** Display names of the authors, asked once each; a deleted or unknown user reads null. */
async function authorNames(
  accounts: ServiceClient<'Accounts'> | null,
  ids: string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (accounts === null) return names;
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const user = await accounts.GetUser({ id, email: '' }).catch(() => null);
      if (user) names.set(id, user.name);
    }),
  );
  return names;
}

function encodeCursor(number: number): string {
  return Buffer.from(JSON.stringify({ v: number })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const { v } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown };
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return v;
  } catch {
    // fall through
  }
  throw invalidQuery('cursor', 'must be the meta.next_cursor of the previous page');
}
