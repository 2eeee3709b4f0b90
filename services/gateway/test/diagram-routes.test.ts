// The diagram routes through a real gateway in front of real services (the embedded system on free ports,
// a fresh PostgreSQL database, real gRPC between them).
import { randomUUID } from 'node:crypto';
import { startTestSystem, TestPeople, type TestSystem, twoTableShopPatch } from '@dss/system';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

const ITEM_KEYS = [
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
  // An addition to the spec's table: a DDL import's warnings ({total: 0, items: []} otherwise).
  'warnings',
  // An addition to the spec's table: the diagram's database (mysql, pgsql, sqlsrv).
  'driver',
].sort();
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const APP_URL = 'https://app.example.test';

function tablesPatch(count: number) {
  return {
    strategy: 'merge',
    tables: Array.from({ length: count }, (_, i) => ({
      name: `t${i}`,
      columns: [{ name: 'id', type: 'int' }],
    })),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

describe('Diagram routes (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let writer: string;
  let reader: string;
  let created: Json;

  beforeAll(async () => {
    system = await startTestSystem({
      DSS_APP_URL: APP_URL,
      DSS_RATE_LIMIT_READ_PER_MIN: '5000',
      DSS_RATE_LIMIT_SCHEMA_PER_MIN: '4000',
      DSS_RATE_LIMIT_WRITE_PER_MIN: '3000',
      DSS_IMPORT_WAIT_MS: '0',
    });
    people = new TestPeople(system.grpc.accounts);
    writer = (await people.member({ team: 'alpha', write: true })).token;
    reader = (await people.member({ team: 'alpha' })).token;
    const response = await call(writer, 'POST', '/diagrams', {
      name: 'Shop',
      driver: 'pgsql',
      schema: twoTableShopPatch(),
    });
    expect(response.status).toBe(201);
    created = (await response.json()) as Json;
  });
  afterAll(async () => {
    people.close();
    await system.stop();
  });

  /** Every response is also checked against the published OpenAPI description. */
  async function call(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.clone().text();
    const json =
      (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    // Not described (on purpose): methods the API does not have, and 503s.
    if (['GET', 'POST'].includes(method) && response.status !== 503)
      assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    return response;
  }
  const get = (token: string, path: string, headers: Record<string, string> = {}) =>
    call(token, 'GET', path, undefined, headers);
  const post = (body: unknown, token = writer) => call(token, 'POST', '/diagrams', body);

  async function expectError(
    response: Response,
    status: number,
    code: string,
    extra: Record<string, unknown> = {},
  ): Promise<Json> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Json;
    expect(body).toEqual({ error: { code, message: expect.any(String), ...extra } });
    return body;
  }

  describe('POST /diagrams', () => {
    it('should answer 201 with data, counts, warnings, replayed false and poll_after_seconds', async () => {
      const response = await post({ name: 'Warned', schema: twoTableShopPatch({ colour: 'red' }) });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-ratelimit-limit')).toBe('3000');
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(3000);
      const body = (await response.json()) as Json;
      expect(Object.keys(body).sort()).toEqual([
        'counts',
        'data',
        'poll_after_seconds',
        'replayed',
        'warnings',
      ]);
      expect(Object.keys(body.data).sort()).toEqual(ITEM_KEYS);
      expect(body.data).toMatchObject({
        name: 'Warned',
        table_count: 2,
        status: 'ready',
        error: null,
        description: null,
        url: `${APP_URL}/diagrams/${body.data.uuid}`,
        embed_url: `${APP_URL}/embed/${body.data.uuid}`,
        team: { name: 'Team alpha', slug: 'alpha' },
      });
      expect(body.counts).toEqual({
        tables: 2,
        columns: 3,
        indexes: 0,
        relationships: 0,
        groups: 0,
        sticky_notes: 0,
      });
      expect(body.warnings).toEqual([
        { code: 'unknown_key', path: '', key: 'colour', message: expect.any(String) },
      ]);
      expect(body.replayed).toBe(false);
      expect(body.poll_after_seconds).toBe(2);
    });

    it('should answer 200 with replayed true and the first diagram for an identical repeat', async () => {
      const request = { name: 'Replayed', schema: twoTableShopPatch() };
      const first = (await (await post(request)).json()) as Json;
      const repeat = await post(request);
      expect(repeat.status).toBe(200);
      const body = (await repeat.json()) as Json;
      expect(body.replayed).toBe(true);
      expect(body.data.uuid).toBe(first.data.uuid);
      expect(body.counts).toEqual(first.counts);
    });

    it('should answer 400 invalid_request when the body is not a JSON object', async () => {
      for (const body of ['[1,2]', '"text"', '42', 'null', '{"broken":']) {
        await expectError(await post(body), 400, 'invalid_request');
      }
    });

    it('should answer 422 invalid_request naming the three fields for none or two of ddl, schema and dbml', async () => {
      const paths = [
        { path: 'ddl', message: expect.any(String) },
        { path: 'schema', message: expect.any(String) },
        { path: 'dbml', message: expect.any(String) },
      ];
      await expectError(
        await post({ dbml: 'Table a {\n id int\n}', schema: twoTableShopPatch() }),
        422,
        'invalid_request',
        {
          errors: paths,
        },
      );
      await expectError(await post({ name: 'x' }), 422, 'invalid_request', { errors: paths });
      await expectError(
        await post({ ddl: 'CREATE TABLE a (id int);', schema: twoTableShopPatch() }),
        422,
        'invalid_request',
        {
          errors: paths,
        },
      );
    });

    it('should answer 422 invalid_request for a schema that is not an object and for wrongly typed fields', async () => {
      const cases: [unknown, string][] = [
        [{ schema: [twoTableShopPatch()] }, 'schema'],
        [{ schema: JSON.stringify(twoTableShopPatch()) }, 'schema'],
        [{ ddl: 42 }, 'ddl'],
        [{ schema: twoTableShopPatch(), name: 7 }, 'name'],
        [{ schema: twoTableShopPatch(), driver: true }, 'driver'],
        [{ schema: twoTableShopPatch(), driver: 'oracle' }, 'driver'],
        [{ schema: twoTableShopPatch(), name: 'n'.repeat(256) }, 'name'],
      ];
      for (const [body, path] of cases) {
        const error = await expectError(await post(body), 422, 'invalid_request', {
          errors: expect.any(Array),
        });
        expect(error.error.errors[0].path).toBe(path);
      }
    });

    it('should answer 413 payload_too_large over 200KB of ddl and 500KB of schema, counting UTF-8 bytes', async () => {
      await expectError(await post({ ddl: 'x'.repeat(204_801) }), 413, 'payload_too_large');
      // 102,401 characters but 204,802 bytes.
      await expectError(await post({ ddl: 'é'.repeat(102_401) }), 413, 'payload_too_large');
      const big = twoTableShopPatch({ padding: 'x'.repeat(512_000) });
      await expectError(await post({ schema: big }), 413, 'payload_too_large');
      const multibyte = twoTableShopPatch({ padding: 'é'.repeat(256_000) });
      await expectError(await post({ schema: multibyte }), 413, 'payload_too_large');
    });

    it('should answer 202 importing with zero counts for a DDL create that has not finished (wait 0)', async () => {
      const response = await post({ ddl: 'x'.repeat(204_800) });
      expect(response.status).toBe(202);
      const body = (await response.json()) as {
        data: { status: string; table_count: number | null };
        counts: Record<string, number>;
        replayed: boolean;
        poll_after_seconds: number;
      };
      expect(body.data.status).toBe('importing');
      expect(body.data.table_count).toBeNull();
      expect(body.counts).toMatchObject({ tables: 0, columns: 0 });
      expect(body.replayed).toBe(false);
      expect(body.poll_after_seconds).toBe(2);
    });

    it('should answer 422 no_tables, unsupported_field with paths and invalid_schema with errors', async () => {
      await expectError(await post({ schema: { strategy: 'merge' } }), 422, 'no_tables');
      const positioned = twoTableShopPatch();
      Object.assign(positioned.tables[0]!, { left: 1, top: 2 });
      await expectError(await post({ schema: positioned }), 422, 'unsupported_field', {
        paths: ['tables[0].left', 'tables[0].top'],
        errors: [
          { path: 'tables[0].left', message: expect.stringMatching(/computed/) },
          { path: 'tables[0].top', message: expect.stringMatching(/computed/) },
        ],
      });
      const invalid = {
        strategy: 'merge',
        tables: [{ name: 'a', columns: [{ name: 'id', type: 'no_such_type' }] }],
      };
      const body = await expectError(await post({ schema: invalid }), 422, 'invalid_schema', {
        errors: expect.any(Array),
      });
      expect(body.error.errors[0]).toEqual({
        path: expect.stringMatching(/^tables\[0\]/),
        message: expect.any(String),
      });
    });

    it('should answer 422 plan_limit for too many tables and for a team at its private-diagram cap', async () => {
      const starter = (await people.member({ team: 'starter-team', plan: 'starter', write: true })).token;
      await expectError(await post({ schema: tablesPatch(51) }, starter), 422, 'plan_limit', {
        limit_type: 'tables',
        limit: 50,
        requested: 51,
      });
      for (let i = 0; i < 10; i++)
        expect((await post({ name: `d${i}`, schema: tablesPatch(1) }, starter)).status).toBe(201);
      await expectError(
        await post({ name: 'one more', schema: tablesPatch(1) }, starter),
        422,
        'plan_limit',
        {
          limit_type: 'private_diagrams',
          limit: 10,
        },
      );
    });

    it('should answer 403 insufficient_scope for a token without write access', async () => {
      await expectError(await post({ schema: twoTableShopPatch() }, reader), 403, 'insufficient_scope');
    });
  });

  describe('GET /diagrams/{uuid}', () => {
    it('should answer {data: diagram} with every field of the spec’s table', async () => {
      const response = await get(reader, `/diagrams/${created.data.uuid}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('5000');
      const body = (await response.json()) as Json;
      expect(Object.keys(body)).toEqual(['data']);
      expect(Object.keys(body.data).sort()).toEqual(ITEM_KEYS);
      expect(body.data).toEqual({
        uuid: created.data.uuid,
        name: 'Shop',
        slug: 'shop',
        description: null,
        team: { name: 'Team alpha', slug: 'alpha' },
        table_count: 2,
        url: `${APP_URL}/diagrams/${created.data.uuid}`,
        embed_url: `${APP_URL}/embed/${created.data.uuid}`,
        updated_at: expect.stringMatching(ISO_WITH_OFFSET),
        status: 'ready',
        error: null,
        warnings: { total: 0, items: [] },
        driver: 'pgsql',
      });
    });

    it('should answer the same 404 not_found for an unknown and a malformed uuid', async () => {
      const unknown = await expectError(await get(reader, `/diagrams/${randomUUID()}`), 404, 'not_found');
      const malformed = await expectError(await get(reader, '/diagrams/nope'), 404, 'not_found');
      expect(malformed).toEqual(unknown);
    });

    it('should answer 405 request_failed for a method the path does not support', async () => {
      const response = await call(writer, 'DELETE', `/diagrams/${created.data.uuid}`);
      await expectError(response, 405, 'request_failed');
    });
  });

  describe('GET /diagrams', () => {
    it('should page with limit and cursor: {data, meta: {next_cursor, has_more}}', async () => {
      const token = (await people.member({ team: 'pager', write: true })).token;
      const uuids: string[] = [];
      for (let i = 0; i < 3; i++)
        uuids.push(
          ((await (await post({ name: `p${i}`, schema: tablesPatch(1) }, token)).json()) as Json).data.uuid,
        );
      const first = await get(token, '/diagrams?limit=2');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('5000');
      const page1 = (await first.json()) as Json;
      expect(Object.keys(page1).sort()).toEqual(['data', 'meta']);
      expect(page1.meta).toEqual({ next_cursor: expect.any(String), has_more: true });
      expect(page1.data.map((d: Json) => d.uuid)).toEqual([uuids[2], uuids[1]]);
      for (const item of page1.data) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      const page2 = (await (
        await get(token, `/diagrams?limit=2&cursor=${page1.meta.next_cursor}`)
      ).json()) as Json;
      expect(page2.data.map((d: Json) => d.uuid)).toEqual([uuids[0]]);
      expect(page2.meta).toEqual({ next_cursor: null, has_more: false });
      const all = (await (await get(token, '/diagrams')).json()) as Json;
      expect(all.data).toHaveLength(3);
      expect(all.meta).toEqual({ next_cursor: null, has_more: false });
    });

    it('should answer 422 invalid_request for a bad limit or cursor', async () => {
      for (const query of [
        'limit=0',
        'limit=101',
        'limit=abc',
        'limit=1.5',
        'limit=-1',
        'limit=1&limit=2',
        'limit=',
      ]) {
        const body = await expectError(await get(reader, `/diagrams?${query}`), 422, 'invalid_request', {
          errors: [{ path: 'limit', message: expect.any(String) }],
        });
        expect(body.error.message).toMatch(/limit/);
      }
      for (const query of [
        'cursor=',
        'cursor=garbage',
        `cursor=${Buffer.from('{"v":1}').toString('base64url')}`,
      ]) {
        await expectError(await get(reader, `/diagrams?${query}`), 422, 'invalid_request', {
          errors: [{ path: 'cursor', message: expect.any(String) }],
        });
      }
    });
  });

  describe('GET /diagrams/{uuid}/schema', () => {
    const schemaPath = () => `/diagrams/${created.data.uuid}/schema`;

    it('should answer JSON by default with ETag, Vary: Accept and the schema-class rate limit', async () => {
      const response = await get(reader, schemaPath());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('x-ratelimit-limit')).toBe('4000');
      const body = (await response.json()) as Json;
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).toMatchObject({ driver: 'pgsql', schema_version: expect.any(Number) });
      expect(body.data.tables.map((t: Json) => t.name)).toEqual(['customers', 'orders']);
    });

    it('should answer 304 with the ETag and no body for a matching If-None-Match, lists and * included', async () => {
      const etag = (await get(reader, schemaPath())).headers.get('etag')!;
      for (const ifNoneMatch of [etag, `"other", ${etag}`, '*', `W/${etag}`]) {
        const response = await get(reader, schemaPath(), { 'if-none-match': ifNoneMatch });
        expect(response.status).toBe(304);
        expect(response.headers.get('etag')).toBe(etag);
        expect(response.headers.get('vary')).toBe('Accept');
        expect(await response.text()).toBe('');
      }
      expect((await get(reader, schemaPath(), { 'if-none-match': '"other"' })).status).toBe(200);
    });

    it('should answer Markdown for Accept text/markdown and for format=ai or format=markdown, with its own ETag', async () => {
      const json = await get(reader, schemaPath());
      const viaAccept = await get(reader, schemaPath(), { accept: 'text/markdown' });
      const viaFormat = await get(reader, `${schemaPath()}?format=ai`);
      const viaMarkdown = await get(reader, `${schemaPath()}?format=markdown`);
      expect(await viaMarkdown.clone().text()).toBe(await viaFormat.clone().text());
      expect(viaMarkdown.headers.get('etag')).toBe(viaFormat.headers.get('etag'));
      for (const response of [viaAccept, viaFormat, viaMarkdown]) {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        expect(response.headers.get('vary')).toBe('Accept');
      }
      const text = await viaAccept.text();
      expect(text).toMatch(/^# Schema \(pgsql, 2 tables/);
      expect(await viaFormat.text()).toBe(text);
      expect(viaAccept.headers.get('etag')).toBe(viaFormat.headers.get('etag'));
      expect(viaAccept.headers.get('etag')).not.toBe(json.headers.get('etag'));
    });

    it('should answer names only at level=simple', async () => {
      const detailed = await (await get(reader, `${schemaPath()}?format=ai`)).text();
      const simple = await (await get(reader, `${schemaPath()}?format=ai&level=simple`)).text();
      expect(simple).toContain('customers: id, email');
      expect(simple).not.toBe(detailed);
      expect(detailed).toContain('character varying(255)');
      expect(simple).not.toContain('character varying');
    });

    it('should honour q-values and wildcards in Accept', async () => {
      const typeOf = async (accept: string) =>
        (await get(reader, schemaPath(), { accept })).headers.get('content-type');
      expect(await typeOf('text/markdown;q=0.5, application/json')).toMatch(/^application\/json/);
      expect(await typeOf('application/json;q=0.1, text/markdown')).toMatch(/^text\/markdown/);
      expect(await typeOf('*/*')).toMatch(/^application\/json/);
      expect(await typeOf('text/*')).toMatch(/^text\/markdown/);
      expect((await get(reader, schemaPath(), { accept: '' })).headers.get('content-type')).toMatch(
        /^application\/json/,
      );
    });

    it('should answer 406 not_acceptable with Vary: Accept when Accept admits neither type', async () => {
      const response = await get(reader, schemaPath(), { accept: 'image/png' });
      expect(response.headers.get('vary')).toBe('Accept');
      await expectError(response, 406, 'not_acceptable');
      await expectError(
        await get(reader, schemaPath(), { accept: 'application/json;q=0, text/markdown;q=0' }),
        406,
        'not_acceptable',
      );
    });

    it('should answer JSON for format=json whatever Accept prefers', async () => {
      const response = await get(reader, `${schemaPath()}?format=json`, { accept: 'text/markdown' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('etag')).toBe((await get(reader, schemaPath())).headers.get('etag'));
    });

    it('should answer 422 invalid_request for another format or level', async () => {
      await expectError(await get(reader, `${schemaPath()}?format=xml`), 422, 'invalid_request', {
        errors: [{ path: 'format', message: expect.any(String) }],
      });
      await expectError(await get(reader, `${schemaPath()}?level=full`), 422, 'invalid_request', {
        errors: [{ path: 'level', message: expect.any(String) }],
      });
    });

    it('should answer 404 not_found for an unknown diagram', async () => {
      await expectError(await get(reader, `/diagrams/${randomUUID()}/schema`), 404, 'not_found');
    });
  });

  describe('GET /diagrams/{uuid}/schema-full', () => {
    it('should answer the full document with canvas fields, an ETag and 304 on a match', async () => {
      const path = `/diagrams/${created.data.uuid}/schema-full`;
      const response = await get(reader, path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-ratelimit-limit')).toBe('4000');
      const etag = response.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const body = (await response.json()) as Json;
      expect(Object.keys(body.data).sort()).toEqual(
        ['driver', 'groups', 'relationships', 'schema_version', 'sticky_notes', 'tables'].sort(),
      );
      expect(body.data.tables[0]).toEqual(
        expect.objectContaining({
          left: expect.any(Number),
          top: expect.any(Number),
          width: expect.any(Number),
        }),
      );
      const conditional = await get(reader, path, { 'if-none-match': etag });
      expect(conditional.status).toBe(304);
      expect(await conditional.text()).toBe('');
      await expectError(await get(reader, `/diagrams/${randomUUID()}/schema-full`), 404, 'not_found');
    });
  });

  describe('two-team isolation', () => {
    it('should give team B a 404 identical to an unknown uuid on every read endpoint for team A’s diagram', async () => {
      const teamB = (await people.member({ team: 'bravo', write: true })).token;
      const uuidA = created.data.uuid as string;
      const unknown = randomUUID();
      const paths = (uuid: string) =>
        [
          [`/diagrams/${uuid}`, {}],
          [`/diagrams/${uuid}/schema`, {}],
          [`/diagrams/${uuid}/schema`, { accept: 'text/markdown' }],
          [`/diagrams/${uuid}/schema?format=ai&level=simple`, {}],
          [`/diagrams/${uuid}/schema-full`, {}],
        ] as const;
      const unknownAnswers = paths(unknown);
      for (const [index, [path, headers]] of paths(uuidA).entries()) {
        const forA = await expectError(await get(teamB, path, headers), 404, 'not_found');
        const [unknownPath, unknownHeaders] = unknownAnswers[index]!;
        expect(forA).toEqual(
          await expectError(await get(teamB, unknownPath, unknownHeaders), 404, 'not_found'),
        );
      }
      // Team A still reads it.
      expect((await get(writer, `/diagrams/${uuidA}`)).status).toBe(200);
    });

    it('should never list team A’s diagrams to team B, and B’s create lands in B only', async () => {
      const teamB = (await people.member({ team: 'bravo', write: true })).token;
      const createdB = (await (await post({ name: 'Bravo', schema: tablesPatch(1) }, teamB)).json()) as Json;
      const seenByB: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `limit=1&cursor=${cursor}` : 'limit=1';
        const page = (await (await get(teamB, `/diagrams?${query}`)).json()) as Json;
        seenByB.push(...page.data.map((d: Json) => d.uuid));
        for (const item of page.data) expect(item.team).toEqual({ name: 'Team bravo', slug: 'bravo' });
        cursor = page.meta.next_cursor;
      } while (cursor);
      expect(seenByB).toEqual([createdB.data.uuid]);
      const seenByA = ((await (await get(reader, '/diagrams?limit=100')).json()) as Json).data.map(
        (d: Json) => d.uuid,
      );
      expect(seenByA).toContain(created.data.uuid);
      expect(seenByA).not.toContain(createdB.data.uuid);
    });
  });
});

describe('Diagram routes rate limits (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;

  beforeAll(async () => {
    system = await startTestSystem({ DSS_RATE_LIMIT_SCHEMA_PER_MIN: '2', DSS_RATE_LIMIT_READ_PER_MIN: '3' });
    people = new TestPeople(system.grpc.accounts);
  });
  afterAll(async () => {
    people.close();
    await system.stop();
  });

  it('should count /schema and /schema-full against the schema limit, apart from the read limit', async () => {
    const token = (await people.member({ team: 'limited' })).token;
    const uuid = randomUUID();
    const headersOf = async (path: string) => {
      const response = await fetch(`${system.apiUrl}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return {
        status: response.status,
        limit: response.headers.get('x-ratelimit-limit'),
        remaining: response.headers.get('x-ratelimit-remaining'),
        retryAfter: response.headers.get('retry-after'),
      };
    };
    expect(await headersOf(`/diagrams/${uuid}/schema`)).toMatchObject({
      status: 404,
      limit: '2',
      remaining: '1',
    });
    expect(await headersOf(`/diagrams/${uuid}/schema-full`)).toMatchObject({
      status: 404,
      limit: '2',
      remaining: '0',
    });
    const limited = await headersOf(`/diagrams/${uuid}/schema`);
    expect(limited).toMatchObject({ status: 429, limit: '2', remaining: '0' });
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(await headersOf(`/diagrams/${uuid}`)).toMatchObject({ status: 404, limit: '3', remaining: '2' });
    expect(await headersOf('/diagrams')).toMatchObject({ status: 200, limit: '3', remaining: '1' });
  });
});
