import { assertMatchesOpenApi, openApiValidator } from '../support/openapi-validator';

const DIAGRAM_UUID = '7b0c5a8e-3f1d-4c2a-9e6b-2d4f8a1c0e57';
const json = (extra: Record<string, string> = {}) =>
  new Headers({ 'content-type': 'application/json; charset=utf-8', ...extra });
const rateLimit = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' };

function diagram(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uuid: DIAGRAM_UUID,
    name: 'Shop',
    slug: 'shop',
    description: null,
    team: { name: 'Acme', slug: 'acme' },
    table_count: 2,
    url: `http://localhost:8081/diagrams/${DIAGRAM_UUID}`,
    embed_url: `http://localhost:8081/embed/${DIAGRAM_UUID}`,
    updated_at: '2026-11-20T10:15:00+00:00',
    status: 'ready',
    error: null,
    warnings: { total: 0, items: [] },
    driver: 'pgsql',
    ...overrides,
  };
}

function column(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uuid: 'c1',
    name: 'id',
    driver_data_type_name: 'bigint',
    driver_data_type_params: null,
    default: null,
    is_nullable: false,
    is_primary_key: true,
    is_unique_key: false,
    is_index: false,
    is_auto_increment: true,
    is_unsigned: false,
    comment: null,
    ...overrides,
  };
}

function schemaBody(columns: Record<string, unknown>[]): unknown {
  return {
    data: {
      driver: 'mysql',
      schema_version: 1,
      tables: [
        {
          uuid: 't1',
          name: 'customers',
          comment: null,
          columns,
          indexes: [{ uuid: 'i1', name: 'PRIMARY', type: 'primary', columns: ['id'] }],
        },
      ],
      relationships: [],
    },
  };
}

/** The message of the error `work` throws (fails the test when it throws none). */
function thrownMessage(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a mismatch, but the response matched');
}

describe('OpenApiValidator', () => {
  describe('construction', () => {
    it('should compile every component schema of the description under JSON Schema 2020-12 strict mode', () => {
      expect(openApiValidator().compileAllComponentSchemas()).toEqual(
        expect.arrayContaining(['Diagram', 'Schema']),
      );
    });
  });

  describe('.matchPath()', () => {
    it.each([
      ['/diagrams/{uuid}/schema', '/diagrams/{uuid}/schema'],
      [`/v1/diagrams/${DIAGRAM_UUID}/schema?format=ai`, '/diagrams/{uuid}/schema'],
      [`http://localhost:8080/v1/diagrams/${DIAGRAM_UUID}`, '/diagrams/{uuid}'],
      [`/api/v1/diagrams/${DIAGRAM_UUID}/schema-full`, '/diagrams/{uuid}/schema-full'],
      ['/v1/diagrams', '/diagrams'],
      ['/v1/diagrams/', '/diagrams'],
      [`/v1/proposals/${DIAGRAM_UUID}`, '/proposals/{uuid}'],
    ])('should match %s to %s', (given, template) => {
      expect(openApiValidator().matchPath(given)).toBe(template);
    });

    it('should refuse a path the description does not have', () => {
      expect(() => openApiValidator().matchPath('/v1/teams')).toThrow(/no path of the description matches/);
    });
  });

  describe('assertMatchesOpenApi()', () => {
    describe('good responses', () => {
      it('should accept a diagram list page', () => {
        const body = {
          data: [diagram(), diagram({ status: 'importing', table_count: null })],
          meta: { next_cursor: 'abc', has_more: true },
        };
        const matched = assertMatchesOpenApi('GET', '/v1/diagrams?limit=2', 200, json(rateLimit), body);
        expect(matched).toMatchObject({
          operationId: 'listDiagrams',
          pathTemplate: '/diagrams',
          responseKey: '200',
        });
      });

      it('should accept a failed diagram carrying its error, and unknown extra fields (v1 may add fields)', () => {
        const body = {
          data: diagram({
            status: 'failed',
            error: { code: 'ddl_unusable', message: 'syntax error' },
            added_later: 1,
          }),
        };
        expect(() =>
          assertMatchesOpenApi('get', `/v1/diagrams/${DIAGRAM_UUID}`, 200, json(rateLimit), body),
        ).not.toThrow();
      });

      it('should accept a JSON schema response and a Markdown one, by Content-Type', () => {
        const headers = { ...rateLimit, etag: '"abc"', vary: 'Accept' };
        const path = `/v1/diagrams/${DIAGRAM_UUID}/schema`;
        expect(assertMatchesOpenApi('GET', path, 200, json(headers), schemaBody([column()])).mediaType).toBe(
          'application/json',
        );
        const markdown = new Headers({ ...headers, 'content-type': 'text/markdown; charset=utf-8' });
        expect(
          assertMatchesOpenApi('GET', `${path}?format=ai`, 200, markdown, '# customers\n').mediaType,
        ).toBe('text/markdown');
      });

      it('should accept a JSON body given as text, and a 304 with no body', () => {
        const text = JSON.stringify(schemaBody([column()]));
        const headers = json({ ...rateLimit, etag: '"abc"', vary: 'Accept' });
        expect(() =>
          assertMatchesOpenApi('GET', `/v1/diagrams/${DIAGRAM_UUID}/schema`, 200, headers, text),
        ).not.toThrow();
        const notModified = new Headers({ etag: '"abc"', vary: 'Accept' });
        expect(
          assertMatchesOpenApi('GET', `/v1/diagrams/${DIAGRAM_UUID}/schema`, 304, notModified, '').mediaType,
        ).toBeNull();
      });

      it('should accept error bodies with the extra members their code documents, from plain header records', () => {
        const invalidSchema = {
          error: {
            code: 'invalid_schema',
            message: 'the patch has problems',
            errors: [{ path: 'tables[0].name', message: 'is required' }],
          },
        };
        expect(() =>
          assertMatchesOpenApi(
            'POST',
            '/v1/diagrams',
            422,
            { 'Content-Type': 'application/json' },
            invalidSchema,
          ),
        ).not.toThrow();
        const planLimit = {
          error: { code: 'plan_limit', message: 'cap', limit_type: 'tables', limit: 10, requested: 12 },
        };
        expect(() =>
          assertMatchesOpenApi(
            'POST',
            '/v1/diagrams',
            422,
            { 'content-type': 'application/json' },
            planLimit,
          ),
        ).not.toThrow();
        const limited = { error: { code: 'rate_limited', message: 'slow down' } };
        expect(() =>
          assertMatchesOpenApi('GET', '/v1/data-types', 429, json({ 'retry-after': '12' }), limited),
        ).not.toThrow();
      });

      it('should use the 4XX range for request_failed statuses the operation does not list', () => {
        const body = { error: { code: 'request_failed', message: 'method PUT is not supported here' } };
        expect(assertMatchesOpenApi('GET', '/v1/diagrams', 405, json(), body).responseKey).toBe('4XX');
      });
    });

    describe('bad responses', () => {
      it('should reject a diagram missing status', () => {
        const { status: _status, ...withoutStatus } = diagram();
        const message = thrownMessage(() =>
          assertMatchesOpenApi('GET', `/v1/diagrams/${DIAGRAM_UUID}`, 200, json(rateLimit), {
            data: withoutStatus,
          }),
        );
        expect(message).toContain('GET /diagrams/{uuid} → 200');
        expect(message).toContain("body /data: must have required property 'status'");
      });

      it('should reject an error body whose code is not one of that status', () => {
        const body = { error: { code: 'not_found', message: 'no such thing' } };
        const message = thrownMessage(() => assertMatchesOpenApi('GET', '/v1/diagrams', 401, json(), body));
        expect(message).toContain('body /error/code: must be equal to one of the allowed values');
        expect(message).toContain('"unauthenticated", "invalid_token"');
      });

      it('should reject an error code that exists nowhere', () => {
        const body = { error: { code: 'teapot', message: 'short and stout' } };
        expect(() =>
          assertMatchesOpenApi('POST', `/v1/diagrams/${DIAGRAM_UUID}/proposals`, 403, json(), body),
        ).toThrow(/\/error\/code: must be equal to one of the allowed values/);
      });

      it('should reject a schema response with a column missing is_nullable', () => {
        const { is_nullable: _dropped, ...columnWithout } = column();
        const headers = json({ ...rateLimit, etag: '"abc"', vary: 'Accept' });
        const message = thrownMessage(() =>
          assertMatchesOpenApi(
            'GET',
            `/v1/diagrams/${DIAGRAM_UUID}/schema`,
            200,
            headers,
            schemaBody([column(), columnWithout]),
          ),
        );
        expect(message).toContain("body /data/tables/0/columns/1: must have required property 'is_nullable'");
      });

      it('should reject an invalid_schema error without its errors list', () => {
        const body = { error: { code: 'invalid_schema', message: 'bad patch' } };
        expect(() => assertMatchesOpenApi('POST', '/v1/diagrams', 422, json(), body)).toThrow(
          /must have required property 'errors'/,
        );
      });

      it('should reject a missing required header (ETag) and a 429 without Retry-After', () => {
        const message = thrownMessage(() =>
          assertMatchesOpenApi('GET', '/v1/data-types', 200, json(rateLimit), { data: { mysql: [] } }),
        );
        expect(message).toContain('header ETag is required but missing');
        expect(() =>
          assertMatchesOpenApi('GET', '/v1/data-types', 429, json(), {
            error: { code: 'rate_limited', message: 'x' },
          }),
        ).toThrow(/header Retry-After is required but missing/);
      });

      it('should reject an undescribed status, method and Content-Type', () => {
        // No redirect is described (4XX and 5XX are, for every operation, as the gateway serves it).
        expect(() => assertMatchesOpenApi('GET', '/v1/diagrams', 302, json(), {})).toThrow(
          /is not a described response/,
        );
        expect(() => assertMatchesOpenApi('DELETE', `/v1/diagrams/${DIAGRAM_UUID}`, 200, json(), {})).toThrow(
          /is not described/,
        );
        const html = new Headers({ ...rateLimit, 'content-type': 'text/html' });
        expect(() => assertMatchesOpenApi('GET', '/v1/diagrams', 200, html, '<p>')).toThrow(
          /Content-Type text\/html is not one of/,
        );
      });

      it('should accept a 503 unavailable with Retry-After and reject a 5XX body outside the error shape', () => {
        const unavailable = new Headers({ 'content-type': 'application/json', 'retry-after': '5' });
        const error = { error: { code: 'unavailable', message: 'retry shortly' } };
        expect(() => assertMatchesOpenApi('GET', '/v1/diagrams', 503, unavailable, error)).not.toThrow();
        expect(() => assertMatchesOpenApi('GET', '/v1/diagrams', 500, json(), { message: 'boom' })).toThrow();
      });

      it('should reject a 304 that carries a body', () => {
        expect(() =>
          assertMatchesOpenApi('GET', `/v1/proposals/${DIAGRAM_UUID}`, 304, new Headers({ etag: '"x"' }), {
            data: {},
          }),
        ).toThrow(/the description gives it none/);
      });

      it('should reject a 202 create whose diagram is not importing, and a ready diagram carrying an error', () => {
        const created = {
          data: {
            uuid: DIAGRAM_UUID,
            name: 'Blog',
            table_count: 1,
            status: 'ready',
            error: null,
            url: 'http://localhost:8081/d/1',
          },
          counts: { tables: 1, columns: 2, indexes: 1, relationships: 0, groups: 0, sticky_notes: 0 },
          warnings: [],
          replayed: false,
          poll_after_seconds: 2,
        };
        expect(() => assertMatchesOpenApi('POST', '/v1/diagrams', 202, json(rateLimit), created)).toThrow(
          /body \/data\/status: must be equal to constant \(expected "importing"\)/,
        );
        expect(() =>
          assertMatchesOpenApi('POST', '/v1/diagrams', 201, json(rateLimit), created),
        ).not.toThrow();
        const withError = { data: diagram({ error: { code: 'x', message: 'y' } }) };
        expect(() =>
          assertMatchesOpenApi('GET', `/v1/diagrams/${DIAGRAM_UUID}`, 200, json(rateLimit), withError),
        ).toThrow(/body \/data\/error: must be null/);
      });
    });
  });
});
