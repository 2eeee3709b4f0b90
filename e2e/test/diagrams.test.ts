// Black-box: the diagram journeys of a REST client or a language-model agent — create from a patch, replay,
// list and page, read the diagram, its schema as JSON and Markdown, conditional reads — and every refusal
// the spec lists for them. Only HTTP and the operator CLI; every response goes through `call`, so it is
// also checked against the OpenAPI description. Runs against the embedded stack or any E2E_BASE_URL; a
// deployment needs a per-IP limit like charts/dss/ci/kind-values.yaml's (this file makes about 150
// requests from one IP within a minute); per token it stays within the spec's defaults (at most 10 creates,
// 60 reads and 30 schema reads a minute).
import { randomUUID } from 'node:crypto';
import { call, errorOf } from '../support/api';
import { createDiagram, type Json, planCaps, runId, shopPatch, tablesPatch } from '../support/diagrams';
import { dss, type Stack, startStack, teamMemberToken } from '../support/stack';

const ITEM_FIELDS = [
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
  // Additions to the spec's table: a DDL import's warnings, the diagram's database.
  'warnings',
  'driver',
];
const COLUMN_FIELDS = [
  'uuid',
  'name',
  'driver_data_type_name',
  'driver_data_type_params',
  'default',
  'is_nullable',
  'is_primary_key',
  'is_unique_key',
  'is_index',
  'is_auto_increment',
  'is_unsigned',
  'comment',
];
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe('Diagram journeys over HTTP', () => {
  const run = runId();
  let stack: Stack;
  /** Team "shop": an editor with a write token and a read-only token. */
  let writer: string;
  let reader: string;
  /** Another team, to check that team "shop"'s diagrams stay invisible to it. */
  let outsider: string;
  let shop: Json;

  const get = (token: string, path: string, headers: Record<string, string> = {}) =>
    call(stack.baseUrl, path, { token, headers });

  beforeAll(async () => {
    stack = await startStack();
    const team = `shop-${run}`;
    const email = `editor-${run}@shop.test`;
    writer = await teamMemberToken(stack, { team, email, write: true });
    reader = await teamMemberToken(stack, { team, email });
    outsider = await teamMemberToken(stack, {
      team: `other-${run}`,
      email: `editor-${run}@other.test`,
      write: true,
    });
    const created = await createDiagram(stack.baseUrl, writer, {
      name: 'Shop',
      driver: 'pgsql',
      schema: shopPatch(),
    });
    expect(created.status).toBe(201);
    shop = (created.body as Json).data;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('creating a diagram from a schema patch', () => {
    const request = () => {
      const schema = shopPatch({ colour: 'blue' });
      schema.tables[1].columns[1].sort_hint = 'C';
      return { name: `Storefront ${run}`, driver: 'pgsql', schema };
    };
    let first: Json;

    it('answers 201 with the diagram, its counts, one warning per unknown key, replayed false and poll_after_seconds', async () => {
      const response = await createDiagram(stack.baseUrl, writer, request());
      expect(response.status).toBe(201);
      first = response.body as Json;
      expect(first.data).toMatchObject({
        uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        name: `Storefront ${run}`,
        table_count: 3,
        status: 'ready',
        error: null,
      });
      expect(first.data.url).toContain(first.data.uuid);
      expect(first.counts).toEqual({
        tables: 3,
        columns: 10,
        indexes: 0,
        relationships: 1,
        groups: 0,
        sticky_notes: 0,
      });
      // The spec gives no order for warnings.
      expect(first.warnings).toHaveLength(2);
      expect(first.warnings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: 'unknown_key', key: 'colour', path: '' }),
          expect.objectContaining({ code: 'unknown_key', key: 'sort_hint', path: 'tables[1].columns[1]' }),
        ]),
      );
      expect(first.replayed).toBe(false);
      expect(Number.isInteger(first.poll_after_seconds)).toBe(true);
      expect(first.poll_after_seconds).toBeGreaterThan(0);
      expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    });

    it('answers 200 with replayed true and the first diagram when the identical request is repeated', async () => {
      const response = await createDiagram(stack.baseUrl, writer, request());
      expect(response.status).toBe(200);
      const repeat = response.body as Json;
      expect(repeat.replayed).toBe(true);
      expect(repeat.data.uuid).toBe(first.data.uuid);
      expect(repeat.counts).toEqual(first.counts);
      expect(repeat.warnings).toEqual(first.warnings);
    });

    it('creates a new diagram when the request differs only in its name', async () => {
      const response = await createDiagram(stack.baseUrl, writer, { ...request(), name: `Other ${run}` });
      expect(response.status).toBe(201);
      expect((response.body as Json).replayed).toBe(false);
      expect((response.body as Json).data.uuid).not.toBe(first.data.uuid);
    });

    it('names the diagram Untitled when no name is sent', async () => {
      const response = await createDiagram(stack.baseUrl, writer, { schema: tablesPatch(1) });
      expect(response.status).toBe(201);
      expect((response.body as Json).data.name).toBe('Untitled');
    });
  });

  describe('listing and reading', () => {
    it('lists the team’s diagrams newest first, each with every field of the spec, under data and meta', async () => {
      const later = await createDiagram(stack.baseUrl, writer, {
        name: `Later ${run}`,
        schema: tablesPatch(2),
      });
      const laterUuid = (later.body as Json).data.uuid as string;
      const response = await get(reader, '/diagrams');
      expect(response.status).toBe(200);
      const page = response.body as Json;
      expect(page.meta).toEqual({ next_cursor: null, has_more: false });
      expect(page.data[0].uuid).toBe(laterUuid);
      expect(page.data.map((item: Json) => item.uuid)).toContain(shop.uuid);
      for (const item of page.data) {
        expect(Object.keys(item).sort()).toEqual([...ITEM_FIELDS].sort());
        expect(item.team).toEqual({ name: `shop-${run}`, slug: `shop-${run}` });
      }
      const times = page.data.map((item: Json) => Date.parse(item.updated_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('reads one diagram in the same shape as a list item', async () => {
      const response = await get(reader, `/diagrams/${shop.uuid}`);
      expect(response.status).toBe(200);
      const diagram = (response.body as Json).data;
      expect(diagram).toEqual({
        uuid: shop.uuid,
        name: 'Shop',
        slug: 'shop',
        description: null,
        team: { name: `shop-${run}`, slug: `shop-${run}` },
        table_count: 3,
        url: shop.url,
        embed_url: expect.stringContaining(shop.uuid),
        updated_at: expect.stringMatching(ISO_WITH_OFFSET),
        status: 'ready',
        error: null,
        warnings: { total: 0, items: [] },
        driver: 'pgsql',
      });
      const listed = ((await get(reader, '/diagrams?limit=100')).body as Json).data.find(
        (item: Json) => item.uuid === shop.uuid,
      );
      expect(listed).toEqual(diagram);
    });
  });

  describe('reading the schema', () => {
    const schemaPath = () => `/diagrams/${shop.uuid}/schema`;

    it('answers JSON with tables sorted by name, columns in schema order and every column field of the spec', async () => {
      const response = await get(reader, schemaPath());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const schema = (response.body as Json).data;
      expect(schema.driver).toBe('pgsql');
      expect(typeof schema.schema_version).toBe('number');
      expect(schema.tables.map((table: Json) => table.name)).toEqual(['addresses', 'customers', 'orders']);
      const orders = schema.tables.find((table: Json) => table.name === 'orders');
      expect(orders.comment).toBe('One checkout');
      expect(orders.columns.map((column: Json) => column.name)).toEqual([
        'id',
        'customer_id',
        'status',
        'placed_at',
      ]);
      for (const table of schema.tables) {
        for (const column of table.columns) {
          expect(Object.keys(column)).toEqual(expect.arrayContaining(COLUMN_FIELDS));
        }
      }
      expect(orders.columns[0]).toMatchObject({ is_primary_key: true, is_auto_increment: true });
      expect(orders.columns[1]).toMatchObject({ is_nullable: false, is_index: true });
      expect(orders.columns[2].default).toEqual(expect.stringContaining('new'));
      const email = schema.tables
        .find((table: Json) => table.name === 'customers')
        .columns.find((column: Json) => column.name === 'email');
      expect(email).toMatchObject({ is_unique_key: true, is_nullable: false });
      expect(schema.relationships).toEqual([
        expect.objectContaining({
          source_table: 'orders',
          source_column: 'customer_id',
          target_table: 'customers',
          target_column: 'id',
        }),
      ]);
    });

    it('names only column types that the data-type catalog of the diagram’s driver has', async () => {
      const schema = ((await get(reader, schemaPath())).body as Json).data;
      const catalog = ((await get(reader, '/data-types?driver=pgsql')).body as Json).data.pgsql as Json[];
      const names = new Set(catalog.map((entry) => entry.name));
      for (const table of schema.tables)
        for (const column of table.columns) expect(names).toContain(column.driver_data_type_name);
    });

    it('answers the same Markdown for Accept: text/markdown and for format=ai, with an ETag of its own', async () => {
      const json = await get(reader, schemaPath());
      const viaAccept = await get(reader, schemaPath(), { accept: 'text/markdown' });
      const viaFormat = await get(reader, `${schemaPath()}?format=ai`);
      for (const response of [viaAccept, viaFormat]) {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
      }
      expect(viaFormat.text).toBe(viaAccept.text);
      expect(viaAccept.text).toMatch(/^# Schema \(pgsql, 3 tables, 1 relationship\)/);
      expect(viaAccept.text).toContain('## orders');
      expect(viaAccept.text).toContain('orders.customer_id -> customers.id');
      expect(viaAccept.headers.get('etag')).toBe(viaFormat.headers.get('etag'));
      expect(viaAccept.headers.get('etag')).not.toBe(json.headers.get('etag'));
    });

    it('answers column names only at level=simple', async () => {
      const simple = await get(reader, `${schemaPath()}?format=ai&level=simple`);
      expect(simple.status).toBe(200);
      expect(simple.text).toContain('- addresses: id, customer_id, city');
      expect(simple.text).toContain('- customers: id, email, name');
      expect(simple.text).toContain('- orders: id, customer_id, status, placed_at');
      expect(simple.text).not.toContain('bigint');
      const detailed = await get(reader, `${schemaPath()}?format=ai&level=detailed`);
      expect(detailed.text).toContain('bigint');
      expect(simple.headers.get('etag')).not.toBe(detailed.headers.get('etag'));
    });

    it('answers 304 with no body when If-None-Match carries the ETag of that representation', async () => {
      for (const headers of [{}, { accept: 'text/markdown' }] as Record<string, string>[]) {
        const first = await get(reader, schemaPath(), headers);
        const etag = first.headers.get('etag');
        expect(etag).toMatch(/^"[^"]+"$/);
        const again = await get(reader, schemaPath(), { ...headers, 'if-none-match': etag! });
        expect(again.status).toBe(304);
        expect(again.text).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
      }
      // The JSON ETag does not match the Markdown representation.
      const jsonEtag = (await get(reader, schemaPath())).headers.get('etag')!;
      const markdown = await get(reader, schemaPath(), {
        accept: 'text/markdown',
        'if-none-match': jsonEtag,
      });
      expect(markdown.status).toBe(200);
      expect(markdown.text).toMatch(/^# Schema/);
    });

    it('answers the full document with an ETag, and 304 when it is sent back', async () => {
      const path = `/diagrams/${shop.uuid}/schema-full`;
      const full = await get(reader, path);
      expect(full.status).toBe(200);
      const document = (full.body as Json).data;
      expect(document.tables.map((table: Json) => table.name).sort()).toEqual([
        'addresses',
        'customers',
        'orders',
      ]);
      expect(document.tables[0]).toEqual(
        expect.objectContaining({ left: expect.any(Number), top: expect.any(Number) }),
      );
      const etag = full.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await get(reader, path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await get(reader, path, { 'if-none-match': '"stale"' })).status).toBe(200);
    });

    it('answers 406 not_acceptable when Accept admits neither JSON nor Markdown', async () => {
      const response = await get(reader, schemaPath(), { accept: 'image/png' });
      expect(response.status).toBe(406);
      expect(errorOf(response).code).toBe('not_acceptable');
    });

    it('answers 422 invalid_request for an unknown level', async () => {
      const response = await get(reader, `${schemaPath()}?level=fancy`);
      expect(response.status).toBe(422);
      expect(errorOf(response).code).toBe('invalid_request');
    });
  });

  describe('paging through a team’s diagrams', () => {
    it('returns 12 diagrams in pages of 5 following next_cursor, each exactly once, newest first', async () => {
      const team = `pages-${run}`;
      const email = `pager-${run}@pages.test`;
      // Two tokens, so that a deployment with the spec's default write limit (10 a minute) takes 12 creates.
      const tokens = [
        await teamMemberToken(stack, { team, email, write: true }),
        await teamMemberToken(stack, { team, email, write: true }),
      ];
      const created: string[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await createDiagram(stack.baseUrl, tokens[i % 2]!, {
          name: `Page item ${i}`,
          schema: tablesPatch(1),
        });
        expect(response.status).toBe(201);
        created.push((response.body as Json).data.uuid);
      }
      const seen: string[] = [];
      const pageSizes: number[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const query: string = cursor ? `limit=5&cursor=${encodeURIComponent(cursor)}` : 'limit=5';
        const response = await get(tokens[0]!, `/diagrams?${query}`);
        expect(response.status).toBe(200);
        const page = response.body as Json;
        seen.push(...page.data.map((item: Json) => item.uuid));
        pageSizes.push(page.data.length);
        if (!page.meta.has_more) {
          expect(page.meta.next_cursor).toBeNull();
          break;
        }
        expect(typeof page.meta.next_cursor).toBe('string');
        cursor = page.meta.next_cursor;
      }
      expect(pageSizes).toEqual([5, 5, 2]);
      expect(new Set(seen).size).toBe(12);
      expect(seen).toEqual([...created].reverse());
    });

    it('answers 422 invalid_request for limit=0, limit=101 and a cursor it did not issue', async () => {
      for (const query of ['limit=0', 'limit=101', 'cursor=garbage']) {
        const response = await get(reader, `/diagrams?${query}`);
        expect(response.status).toBe(422);
        expect(errorOf(response).code).toBe('invalid_request');
      }
    });
  });

  describe('diagrams the token cannot see', () => {
    it('answers the same 404 not_found for an unknown uuid, a malformed uuid and another team’s diagram', async () => {
      for (const suffix of ['', '/schema', '/schema-full']) {
        const unknown = await get(outsider, `/diagrams/${randomUUID()}${suffix}`);
        const malformed = await get(outsider, `/diagrams/not-a-uuid${suffix}`);
        const otherTeams = await get(outsider, `/diagrams/${shop.uuid}${suffix}`);
        for (const response of [unknown, malformed, otherTeams]) {
          expect(response.status).toBe(404);
          expect(errorOf(response).code).toBe('not_found');
        }
        expect(malformed.body).toEqual(unknown.body);
        expect(otherTeams.body).toEqual(unknown.body);
      }
      expect((await get(reader, `/diagrams/${shop.uuid}`)).status).toBe(200);
    });

    it('never lists another team’s diagrams', async () => {
      const listed = ((await get(outsider, '/diagrams?limit=100')).body as Json).data as Json[];
      expect(listed.map((item) => item.uuid)).not.toContain(shop.uuid);
      for (const item of listed) expect(item.team.slug).toBe(`other-${run}`);
    });
  });

  describe('refused creates', () => {
    // Refused creates count toward the per-token write limit too, so these use tokens of their own: with
    // the spec's default (10 a minute) the writer's budget stays for the journeys above.
    let shapeWriter: string;
    let patchWriter: string;
    const post = (body: unknown, token = patchWriter) => createDiagram(stack.baseUrl, token, body);

    beforeAll(async () => {
      const email = `editor-${run}@shop.test`;
      shapeWriter = await teamMemberToken(stack, { team: `shop-${run}`, email, write: true });
      patchWriter = await teamMemberToken(stack, { team: `shop-${run}`, email, write: true });
    });

    it('answers 400 invalid_request when the body is not a JSON object', async () => {
      for (const rawBody of ['[1,2]', '"a patch"', '42', '{"schema":']) {
        const response = await call(stack.baseUrl, '/diagrams', {
          method: 'POST',
          token: shapeWriter,
          headers: { 'content-type': 'application/json' },
          rawBody,
        });
        expect(response.status).toBe(400);
        expect(errorOf(response).code).toBe('invalid_request');
      }
    });

    it('answers 422 invalid_request for both and for neither of ddl and schema', async () => {
      for (const body of [
        { name: 'Neither' },
        { name: 'Both', ddl: 'CREATE TABLE a (id int);', schema: tablesPatch(1) },
      ]) {
        const response = await post(body, shapeWriter);
        expect(response.status).toBe(422);
        expect(errorOf(response).code).toBe('invalid_request');
      }
    });

    it('answers 413 payload_too_large for a schema over 500KB', async () => {
      const schema = tablesPatch(1);
      schema.tables[0].comment = 'x'.repeat(501 * 1024);
      const response = await post({ name: 'Too large', schema }, shapeWriter);
      expect(response.status).toBe(413);
      expect(errorOf(response).code).toBe('payload_too_large');
    });

    it('answers 422 no_tables for a patch that defines no table', async () => {
      for (const schema of [{ strategy: 'merge' }, { strategy: 'merge', tables: [] }]) {
        const response = await post({ schema });
        expect(response.status).toBe(422);
        expect(errorOf(response).code).toBe('no_tables');
      }
    });

    it('answers 422 unsupported_field listing the paths of canvas positions and sizes', async () => {
      const schema = shopPatch();
      Object.assign(schema.tables[0], { left: 10, top: 20 });
      Object.assign(schema.tables[2], { width: 300, height: 200 });
      const response = await post({ schema });
      expect(response.status).toBe(422);
      const error = errorOf(response);
      expect(error.code).toBe('unsupported_field');
      expect([...(error.paths as string[])].sort()).toEqual(
        ['tables[0].left', 'tables[0].top', 'tables[2].height', 'tables[2].width'].sort(),
      );
    });

    it('answers 422 invalid_schema listing 15 of 20 problems in errors (the spec’s maximum)', async () => {
      const schema = {
        strategy: 'merge',
        tables: [
          {
            name: 'broken',
            columns: Array.from({ length: 20 }, (_, i) => ({ name: `c${i}`, type: 'no_such_type' })),
          },
        ],
      };
      const response = await post({ schema });
      expect(response.status).toBe(422);
      const error = errorOf(response);
      expect(error.code).toBe('invalid_schema');
      const errors = error.errors as { path: string; message: string }[];
      // 20 problems, of which the first 15 are listed.
      expect(errors).toHaveLength(15);
      for (const problem of errors) expect(problem.path).toMatch(/^tables\[0\]\.columns\[\d+\]/);
    });

    it('answers 403 insufficient_scope to a token without write access, and creates nothing', async () => {
      const before = ((await get(reader, '/diagrams?limit=100')).body as Json).data.length;
      const response = await post({ name: `Read-only ${run}`, schema: tablesPatch(1) }, reader);
      expect(response.status).toBe(403);
      expect(errorOf(response).code).toBe('insufficient_scope');
      expect(((await get(reader, '/diagrams?limit=100')).body as Json).data.length).toBe(before);
    });

    it('answers 401 unauthenticated without a token and with a token that is not one', async () => {
      const none = await call(stack.baseUrl, '/diagrams', {
        method: 'POST',
        json: { schema: tablesPatch(1) },
      });
      expect(none.status).toBe(401);
      expect(errorOf(none).code).toBe('unauthenticated');
      for (const path of ['/diagrams', `/diagrams/${shop.uuid}/schema`]) {
        expect(errorOf(await call(stack.baseUrl, path)).code).toBe('unauthenticated');
        expect(errorOf(await call(stack.baseUrl, path, { token: 'not-a-token' })).code).toBe(
          'unauthenticated',
        );
      }
    });
  });

  describe('plan caps (team moved to the starter plan with the CLI)', () => {
    const starter = planCaps('starter');
    const team = `starter-${run}`;
    const email = `editor-${run}@starter.test`;
    let tokens: string[];

    beforeAll(async () => {
      // Made on the team plan, then moved to starter before any token is used.
      tokens = [
        await teamMemberToken(stack, { team, email, write: true }),
        await teamMemberToken(stack, { team, email, write: true }),
      ];
      const moved = await dss(stack, 'plan', 'set', '--team', team, '--plan', 'starter', '--json');
      expect(moved.code).toBe(0);
      expect(JSON.parse(moved.stdout)).toMatchObject({ slug: team, plan: 'starter' });
    });

    it('answers 422 plan_limit with limit_type tables, limit and requested for a diagram over the table cap', async () => {
      const cap = starter.max_tables_per_diagram!;
      const response = await createDiagram(stack.baseUrl, tokens[0]!, { schema: tablesPatch(cap + 1) });
      expect(response.status).toBe(422);
      expect(errorOf(response)).toEqual({
        code: 'plan_limit',
        message: expect.any(String),
        limit_type: 'tables',
        limit: cap,
        requested: cap + 1,
      });
      const atCap = await createDiagram(stack.baseUrl, tokens[0]!, {
        name: 'At the cap',
        schema: tablesPatch(cap),
      });
      expect(atCap.status).toBe(201);
    });

    it('answers 422 plan_limit with limit_type private_diagrams once the team holds its cap, and still replays', async () => {
      const cap = starter.max_private_diagrams!;
      const listed = ((await get(tokens[0]!, '/diagrams?limit=100')).body as Json).data.length as number;
      let firstRequest: Json | undefined;
      for (let i = listed; i < cap; i++) {
        const body = { name: `Private ${i}`, schema: tablesPatch(1) };
        firstRequest ??= body;
        const response = await createDiagram(stack.baseUrl, tokens[i % 2]!, body);
        expect(response.status).toBe(201);
      }
      const over = await createDiagram(stack.baseUrl, tokens[1]!, {
        name: 'One more',
        schema: tablesPatch(1),
      });
      expect(over.status).toBe(422);
      expect(errorOf(over)).toEqual({
        code: 'plan_limit',
        message: expect.any(String),
        limit_type: 'private_diagrams',
        limit: cap,
      });
      // An identical repeat of a create that succeeded is a replay, not a new diagram.
      const repeat = await createDiagram(stack.baseUrl, tokens[listed % 2]!, firstRequest);
      expect(repeat.status).toBe(200);
      expect((repeat.body as Json).replayed).toBe(true);
      expect(((await get(tokens[0]!, '/diagrams?limit=100')).body as Json).data).toHaveLength(cap);
    });
  });
});
