import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { loadOpenApiDocument, OPENAPI_FILE } from '../src/openapi';

// The spec's endpoint table and Errors table, transcribed. When the spec is beside the repository
// (../shared/spec), the transcription is checked against it too, so a spec change cannot go unnoticed.
const SPEC_ENDPOINTS: [method: string, path: string][] = [
  ['GET', '/diagrams'],
  ['GET', '/diagrams/{uuid}'],
  ['POST', '/diagrams'],
  ['POST', '/diagrams/{uuid}/proposals'],
  ['GET', '/proposals/{uuid}'],
  ['GET', '/diagrams/{uuid}/schema'],
  ['GET', '/diagrams/{uuid}/schema-full'],
  ['GET', '/data-types'],
  ['GET', '/schema-patch-contract'],
];

const SPEC_ERRORS: [status: string, code: string][] = [
  ['400', 'invalid_request'],
  ['401', 'unauthenticated'],
  ['401', 'invalid_token'],
  ['403', 'forbidden'],
  ['403', 'insufficient_scope'],
  ['403', 'editor_required'],
  ['403', 'plan_required'],
  ['404', 'not_found'],
  ['406', 'not_acceptable'],
  ['409', 'diagram_not_ready'],
  ['413', 'payload_too_large'],
  ['422', 'invalid_request'],
  ['422', 'invalid_schema'],
  ['422', 'no_tables'],
  ['422', 'unsupported_field'],
  ['422', 'plan_limit'],
  ['429', 'rate_limited'],
  ['other 4xx', 'request_failed'],
];

const SPEC_FILE = path.join(__dirname, '..', '..', '..', '..', 'shared', 'spec', '000_ca57d260ab22370f.txt');

type Json = Record<string, unknown>;
const document = loadOpenApiDocument() as Json;
const paths = document.paths as Record<string, Record<string, Json>>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function resolve(node: unknown): Json {
  let current = node as Json;
  while (typeof current?.$ref === 'string') {
    const pointer = (current.$ref as string).replace(/^#\//, '').split('/');
    current = pointer.reduce<unknown>(
      (at, key) => (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    ) as Json;
  }
  return current;
}

/** Values `error.code` may take under a response schema, following $ref and allOf. */
function errorCodesOf(schemaNode: unknown): string[] {
  const schema = resolve(schemaNode);
  const parts = ((schema.allOf as unknown[]) ?? []).flatMap(errorCodesOf);
  const error = resolve((schema.properties as Json | undefined)?.error);
  const code = resolve((error?.properties as Json | undefined)?.code);
  return [...parts, ...((code?.enum as string[] | undefined) ?? [])];
}

function operations(): { method: string; path: string; operation: Json }[] {
  return Object.entries(paths).flatMap(([pathTemplate, item]) =>
    Object.keys(item)
      .filter((key) => HTTP_METHODS.includes(key))
      .map((method) => ({ method: method.toUpperCase(), path: pathTemplate, operation: item[method]! })),
  );
}

function responsesOf(operation: Json): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(operation.responses as Json).map(([status, response]) => [status, resolve(response)]),
  );
}

/** Endpoints added within /v1 beyond the spec's table (versions of a diagram). */
const ADDITIONS: [string, string][] = [
  ['GET', '/diagrams/{uuid}/versions'],
  ['GET', '/diagrams/{uuid}/versions/{number}/schema'],
  ['GET', '/diagrams/{uuid}/diff'],
  ['GET', '/diagrams/{uuid}/export'],
  ['GET', '/proposals/{uuid}/migration'],
  ['GET', '/proposals/{uuid}/comments'],
  ['POST', '/proposals/{uuid}/comments'],
  ['POST', '/proposals/{uuid}/comments/{id}/resolve'],
  ['GET', '/proposals/{uuid}/revisions'],
  ['POST', '/proposals/{uuid}/revisions'],
  ['PATCH', '/diagrams/{uuid}'],
  ['POST', '/diagrams/{uuid}/duplicate'],
  ['GET', '/audit-events'],
  ['GET', '/diagrams/{uuid}/lint'],
  ['GET', '/proposals/{uuid}/lint'],
  ['GET', '/lint-settings'],
  ['POST', '/lint-settings'],
  ['GET', '/lint-rules'],
  ['PATCH', '/diagrams/{uuid}/versions/{number}'],
  ['GET', '/webhooks'],
  ['POST', '/webhooks'],
  ['DELETE', '/webhooks/{id}'],
  ['POST', '/webhooks/{id}/rotate-secret'],
  ['POST', '/webhooks/{id}/enable'],
  ['GET', '/webhooks/{id}/deliveries'],
  ['POST', '/webhooks/{id}/deliveries/{delivery}/redeliver'],
];

/** Fields added within /v1 beyond the spec's tables: [schema, field]. */
const FIELD_ADDITIONS: [string, string][] = [
  ['Diagram', 'warnings'],
  ['Diagram', 'driver'],
  ['CreateDiagramRequest', 'dbml'],
  ['ProposeChangesRequest', 'restore_version'],
  ['ProposalStatus', 'base_version_uuid'],
  ['ProposalStatus', 'comment_count'],
  ['ProposalStatus', 'open_thread_count'],
  ['ProposalStatus', 'latest_revision'],
  ['ProposalStatus', 'review'],
  ['ProposalStatus', 'lint'],
];

describe('OpenAPI description (openapi/openapi.yaml)', () => {
  describe('lint', () => {
    it('should have no problems under the Redocly recommended ruleset (errors and warnings)', async () => {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lint({ ref: OPENAPI_FILE, config });
      const report = problems.map(
        (problem) =>
          `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
      );
      expect(report).toEqual([]);
    });

    it('should be OpenAPI 3.1.0 with a usable /v1 server first, the /v1 server variable and a bearer JWT scheme', () => {
      expect(document.openapi).toBe('3.1.0');
      const [local, server] = document.servers as Json[];
      expect(local!.url).toBe('http://127.0.0.1:8080/v1');
      expect(server!.url).toBe('{base_url}');
      const variable = (server!.variables as Record<string, Json>).base_url!;
      expect(variable.default).toBe('http://127.0.0.1:8080/v1');
      expect(document.security).toEqual([{ bearerAuth: [] }]);
      const scheme = (document.components as Json).securitySchemes as Record<string, Json>;
      expect(scheme.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    });
  });

  describe('coverage of the spec', () => {
    it('should transcribe the spec tables as the spec file has them, when the spec is beside the repository', () => {
      if (!existsSync(SPEC_FILE)) return;
      const spec = readFileSync(SPEC_FILE, 'utf8');
      const endpoints = [...spec.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| (\/\S*) \|/gm)].map((m) => [
        m[1],
        m[2],
      ]);
      const errors = [...spec.matchAll(/^\| (\d{3}|other 4xx) \| (\w+) \|/gm)].map((m) => [m[1], m[2]]);
      expect(endpoints).toEqual(SPEC_ENDPOINTS);
      expect(errors).toEqual(SPEC_ERRORS);
    });

    it('should describe every path of the spec with exactly the spec methods, plus the /v1 additions', () => {
      const described = operations()
        .map(({ method, path: pathTemplate }) => `${method} ${pathTemplate}`)
        .sort();
      // Additions within /v1 (ADDITIONS below): new endpoints, never a changed one.
      expect(described).toEqual(
        [...SPEC_ENDPOINTS, ...ADDITIONS].map(([method, pathTemplate]) => `${method} ${pathTemplate}`).sort(),
      );
    });

    it.each(SPEC_ERRORS)('should list the error %s %s under a response of that status', (status, code) => {
      const key = status === 'other 4xx' ? '4XX' : status;
      const listed = operations().some(({ operation }) => {
        const response = responsesOf(operation)[key];
        const schema = (response?.content as Record<string, Json> | undefined)?.['application/json']?.schema;
        return schema !== undefined && errorCodesOf(schema).includes(code);
      });
      expect(listed).toBe(true);
    });

    it('should give every operation 401, 429 (with Retry-After) and the 4XX fallback', () => {
      for (const { method, path: pathTemplate, operation } of operations()) {
        const responses = responsesOf(operation);
        for (const status of ['401', '429', '4XX'])
          expect([method, pathTemplate, status in responses]).toEqual([method, pathTemplate, true]);
        expect(Object.keys((responses['429']!.headers as Json) ?? {})).toContain('Retry-After');
      }
    });

    it('should give 304 and an ETag header to every endpoint the spec gives an ETag', () => {
      const withEtag = [
        '/proposals/{uuid}',
        '/diagrams/{uuid}/schema',
        '/diagrams/{uuid}/schema-full',
        '/data-types',
        '/schema-patch-contract',
      ];
      for (const pathTemplate of withEtag) {
        const responses = responsesOf(paths[pathTemplate]!.get!);
        expect(Object.keys(responses['200']!.headers as Json)).toContain('ETag');
        expect(Object.keys(responses['304']!.headers as Json)).toContain('ETag');
      }
      const schemaOk = responsesOf(paths['/diagrams/{uuid}/schema']!.get!)['200']!;
      expect(Object.keys(schemaOk.headers as Json)).toContain('Vary');
      expect(Object.keys(schemaOk.content as Json).sort()).toEqual(['application/json', 'text/markdown']);
    });

    it('should describe every field of the spec Diagram table as required, plus the field additions', () => {
      const diagram = resolve({ $ref: '#/components/schemas/Diagram' });
      expect([...(diagram.required as string[])].sort()).toEqual(
        [
          ...FIELD_ADDITIONS.filter(([schema]) => schema === 'Diagram').map(([, field]) => field),
          'uuid',
          'name',
          'slug',
          'description',
          'team',
          'table_count',
          'url',
          'embed_url',
          'updated_at',
          'status',
          'error',
        ].sort(),
      );
    });
  });
});
