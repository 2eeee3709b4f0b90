// The /v1 diagram routes: list, read, create, schema (JSON or Markdown) and full document. The gateway
// checks the shape of the request (query parameters, body field types and sizes) and the diagrams service
// decides everything else; its answers are turned into the spec's JSON here and nowhere else.
import { ensureWithinBytes, ServiceError, type ServiceClient } from '@dss/platform';
import { MAX_DDL_BYTES, MAX_SCHEMA_BYTES } from '@dss/schema';
import type { Request } from 'express';
import type { RouteSpec } from './app';
import { objectBody } from './app';
import type { Principal } from './authenticator';
import { invalidQuery, optionalQueryEnum, optionalQueryString } from './query';
import type { QuickRequest } from './quick-answers';
import { sendRepresentation } from './representation';
import { RepresentationCache } from './representation-cache';

const MAX_LIST_LIMIT = 100;

type DiagramsClient = ServiceClient<'Diagrams'>;
type DiagramMessage = Awaited<ReturnType<DiagramsClient['GetDiagram']>>;

/** A diagram as the spec's table has it: every field present, null where there is no value. */
export function diagramItem(diagram: DiagramMessage) {
  return {
    uuid: diagram.uuid,
    name: diagram.name,
    slug: diagram.slug,
    description: diagram.description ?? null,
    team: { name: diagram.team_name, slug: diagram.team_slug },
    table_count: diagram.table_count ?? null,
    url: diagram.url,
    embed_url: diagram.embed_url,
    updated_at: diagram.updated_at,
    status: diagram.status,
    error: diagram.error ? { code: diagram.error.code, message: diagram.error.message } : null,
    // An addition to the spec's table: what a DDL import skipped or changed (the total and the first 100).
    warnings: {
      total: diagram.warnings?.total ?? 0,
      items: (diagram.warnings?.items ?? []).map((item) => ({
        line: item.line,
        column: item.column,
        code: item.code,
        message: item.message,
        statement: item.statement,
      })),
    },
    // An addition to the spec's table: the database the diagram is for (`mysql`, `pgsql`, `sqlsrv`).
    driver: diagram.driver,
  };
}

/** The import wait when the gateway's configuration names none (DSS_IMPORT_WAIT_MS's default). */
const DEFAULT_IMPORT_WAIT_MS = 3000;
/**
 * A create from a JSON schema is laid out before it answers (in a diagrams worker thread, stopped after 50 s
 * with `unavailable`). The largest schemas take longer than the client's default 10 s (1,000 tables: about
 * 7.5 s idle), after which the caller would get `unavailable` while the create still went through. Under a
 * proxy's usual 60 s read timeout.
 */
const CREATE_DEADLINE_MS = 55_000;

export function diagramRoutes(
  diagrams: DiagramsClient,
  options: { importWaitMs?: number; cache?: RepresentationCache } = {},
): RouteSpec[] {
  const waitMs = options.importWaitMs ?? DEFAULT_IMPORT_WAIT_MS;
  const cache = options.cache ?? new RepresentationCache();
  return [
    {
      method: 'get',
      path: '/diagrams',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const limit = queryLimit(req);
        const cursor = optionalQueryString(req, 'cursor');
        if (cursor === '') throw invalidQuery('cursor', 'must be the meta.next_cursor of the previous page');
        const page = await diagrams.ListDiagrams({ principal: wirePrincipal(principal), limit, cursor });
        res.status(200).json({
          data: page.diagrams.map(diagramItem),
          meta: { next_cursor: page.has_more ? (page.next_cursor ?? null) : null, has_more: page.has_more },
        });
      },
    },
    {
      method: 'get',
      path: '/diagrams/:uuid',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const diagram = await diagrams.GetDiagram({ principal: wirePrincipal(principal), uuid: uuidOf(req) });
        res.status(200).json({ data: diagramItem(diagram) });
      },
    },
    {
      method: 'post',
      path: '/diagrams',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const created = await diagrams.CreateDiagram(
          { principal: wirePrincipal(principal), ...createRequest(objectBody(req)), wait_ms: waitMs },
          { deadlineMs: CREATE_DEADLINE_MS },
        );
        const diagram = created.diagram!;
        const status = diagram.status === 'importing' ? 202 : created.replayed ? 200 : 201;
        res.status(status).json({
          data: diagramItem(diagram),
          counts: JSON.parse(created.counts_json || 'null'),
          warnings: JSON.parse(created.warnings_json || '[]'),
          replayed: created.replayed,
          poll_after_seconds: created.poll_after_seconds,
        });
      },
    },
    {
      method: 'get',
      path: '/diagrams/:uuid/schema',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        // Every answer of this URL depends on Accept, errors included, so caches must key on it.
        res.setHeader('Vary', 'Accept');
        // `markdown` and `json` as the version and diff reads take them; `ai` is the spec's Markdown switch.
        const format = optionalQueryEnum(req, 'format', ['json', 'markdown', 'ai'] as const);
        const level = optionalQueryEnum(req, 'level', ['detailed', 'simple'] as const) ?? 'detailed';
        const accepted = req.accepts(['application/json', 'text/markdown']);
        if (accepted === false) {
          throw new ServiceError(
            'not_acceptable',
            'Accept must admit application/json or text/markdown (or use format=ai for Markdown)',
          );
        }
        const markdown =
          format === 'ai' || format === 'markdown' || (format === undefined && accepted === 'text/markdown');
        const wanted = markdown ? 'markdown' : 'json';
        const representation = await fetchSchema(
          principal,
          uuidOf(req),
          wanted,
          level,
          req.get('if-none-match'),
        );
        sendRepresentation(req, res, representation, { vary: 'Accept' });
      },
      quick: {
        // The JSON schema at the default level: no query, and an Accept that picks JSON at once.
        url: new RegExp(`^/v1/diagrams/(?<uuid>${UUID_PATTERN})/schema$`),
        vary: 'Accept',
        serves: ({ headers: { accept } }) =>
          accept === undefined || accept === '*/*' || accept === 'application/json',
        notModified: (request, principal, count) =>
          cache.notModified(jsonSchemaKey(principal, request), request.headers['if-none-match'], count),
        fetch: (request, principal) =>
          fetchSchema(principal, request.params.uuid!, 'json', 'detailed', request.headers['if-none-match']),
      },
    },
    {
      method: 'get',
      path: '/diagrams/:uuid/schema-full',
      operation: 'schema',
      write: false,
      handler: async (req, res, principal) => {
        sendRepresentation(
          req,
          res,
          await fetchFullDocument(principal, uuidOf(req), req.get('if-none-match')),
        );
      },
      quick: {
        url: new RegExp(`^/v1/diagrams/(?<uuid>${UUID_PATTERN})/schema-full$`),
        serves: () => true,
        notModified: (request, principal, count) =>
          cache.notModified(
            fullDocumentKey(principal, request.params.uuid!.toLowerCase()),
            request.headers['if-none-match'],
            count,
          ),
        fetch: (request, principal) =>
          fetchFullDocument(principal, request.params.uuid!, request.headers['if-none-match']),
      },
    },
  ];

  /** A schema representation through the cache; the diagrams service decides for the principal's team. */
  function fetchSchema(
    principal: Principal,
    uuid: string,
    format: 'json' | 'markdown',
    level: 'detailed' | 'simple',
    ifNoneMatch: string | undefined,
  ) {
    // Lower case, as the diagrams service and its events name diagrams, so an event finds the copy.
    const diagramUuid = uuid.toLowerCase();
    return cache.fetch(
      schemaKey(principal, diagramUuid, format, level),
      diagramUuid,
      ifNoneMatch,
      (known_etag) =>
        diagrams.GetSchema({ principal: wirePrincipal(principal), uuid, format, level, known_etag }),
    );
  }

  function fetchFullDocument(principal: Principal, uuid: string, ifNoneMatch: string | undefined) {
    const diagramUuid = uuid.toLowerCase();
    return cache.fetch(fullDocumentKey(principal, diagramUuid), diagramUuid, ifNoneMatch, (known_etag) =>
      diagrams.GetFullDocument({ principal: wirePrincipal(principal), uuid, known_etag }),
    );
  }
}

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

function jsonSchemaKey(principal: Principal, request: QuickRequest): string {
  return schemaKey(principal, request.params.uuid!.toLowerCase(), 'json', 'detailed');
}

/** The cache key of a schema representation: the team is part of it, so a proof is one team's. */
function schemaKey(principal: Principal, diagramUuid: string, format: string, level: string): string {
  return `${principal.team_id}/${diagramUuid}/schema/${format}/${level}`;
}

function fullDocumentKey(principal: Principal, diagramUuid: string): string {
  return `${principal.team_id}/${diagramUuid}/full`;
}

export function uuidOf(req: Request): string {
  const uuid = req.params.uuid;
  return typeof uuid === 'string' ? uuid : '';
}

/** The principal as the proto carries it (plan caps without nulls: an unset cap is unlimited). */
export function wirePrincipal(principal: Principal) {
  const caps = principal.caps ?? {};
  return {
    ...principal,
    caps: {
      ...(typeof caps.max_tables_per_diagram === 'number'
        ? { max_tables_per_diagram: caps.max_tables_per_diagram }
        : {}),
      ...(typeof caps.max_private_diagrams === 'number'
        ? { max_private_diagrams: caps.max_private_diagrams }
        : {}),
    },
  };
}

export function queryLimit(req: Request): number | undefined {
  const raw = optionalQueryString(req, 'limit');
  if (raw === undefined) return undefined;
  const problem = `must be an integer from 1 to ${MAX_LIST_LIMIT}`;
  if (!/^\d{1,3}$/.test(raw)) throw invalidQuery('limit', problem);
  const limit = Number(raw);
  if (limit < 1 || limit > MAX_LIST_LIMIT) throw invalidQuery('limit', problem);
  return limit;
}

function invalidBodyField(path: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `${path} ${problem}`, { errors: [{ path, message: problem }] });
}

function exactlyOneSource(): ServiceError {
  const problem = 'exactly one of ddl, schema and dbml is required';
  return new ServiceError('invalid_request', `send exactly one of ddl, schema and dbml`, {
    errors: [
      { path: 'ddl', message: problem },
      { path: 'schema', message: problem },
      { path: 'dbml', message: problem },
    ],
  });
}

const present = (value: unknown) => value !== undefined && value !== null;

/** The body of POST /diagrams checked for shape and size; values are judged by the diagrams service. */
function createRequest(body: Record<string, unknown>) {
  const { ddl, schema, dbml, name, driver } = body;
  if (Number(present(ddl)) + Number(present(schema)) + Number(present(dbml)) !== 1) throw exactlyOneSource();
  if (present(name) && typeof name !== 'string') throw invalidBodyField('name', 'must be a string');
  if (present(driver) && typeof driver !== 'string') throw invalidBodyField('driver', 'must be a string');
  const common = {
    name: typeof name === 'string' ? name : '',
    driver: typeof driver === 'string' ? driver : '',
  };
  if (present(ddl)) {
    if (typeof ddl !== 'string') throw invalidBodyField('ddl', 'must be a string of SQL DDL');
    ensureWithinBytes('ddl', ddl, MAX_DDL_BYTES);
    return { ...common, ddl };
  }
  if (present(dbml)) {
    if (typeof dbml !== 'string') throw invalidBodyField('dbml', 'must be a string of DBML');
    ensureWithinBytes('dbml', dbml, MAX_DDL_BYTES);
    return { ...common, dbml };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw invalidBodyField('schema', 'must be a JSON object (a schema patch)');
  const schemaJson = JSON.stringify(schema);
  ensureWithinBytes('schema', schemaJson, MAX_SCHEMA_BYTES);
  return { ...common, schema_json: schemaJson };
}
