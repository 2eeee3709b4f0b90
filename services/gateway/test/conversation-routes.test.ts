// The review conversation through a real gateway in front of real services: comment threads, resolution,
// revisions, the status counts, the long-poll of GET /proposals/{uuid}?wait=N (woken by proposals.changed
// events), rate limits, and another team's 404 on every path. Every response is checked against the
// published OpenAPI description.
import { createServiceClient, type ServiceClient } from '@dss/platform';
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

const basePatch = {
  strategy: 'merge',
  tables: [{ name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
};
const proposalPatch = {
  strategy: 'additive',
  tables: [{ name: 'orders', columns: [{ name: 'status', type: 'varchar(20)' }] }],
};
const revisedPatch = {
  strategy: 'additive',
  tables: [
    { name: 'orders', columns: [{ name: 'state', type: 'varchar(32)', is_nullable: false, default: 'new' }] },
  ],
};

describe('Review conversation routes (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let proposals: ServiceClient<'Proposals'>;
  let writer: string;
  let reader: string;
  let outsider: string;
  let reviewerId: string;
  let diagramUuid: string;

  beforeAll(async () => {
    // Distinct limits per class, so a response's X-RateLimit-Limit shows which class it counted against.
    system = await startTestSystem({
      DSS_RATE_LIMIT_WRITE_PER_MIN: '1000',
      DSS_RATE_LIMIT_READ_PER_MIN: '5000',
    });
    people = new TestPeople(system.grpc.accounts);
    proposals = createServiceClient('Proposals', system.grpc.proposals);
    writer = (await people.member({ team: 'conv', role: 'editor', write: true })).token;
    reader = (await people.member({ team: 'conv', role: 'editor' })).token;
    reviewerId = (await people.member({ team: 'conv', role: 'owner' })).userId;
    outsider = (await people.member({ team: 'far', role: 'owner', write: true })).token;
    const created = await call(writer, 'POST', '/diagrams', {
      name: 'Shop',
      driver: 'pgsql',
      schema: basePatch,
    });
    diagramUuid = ((await created.json()) as Json).data.uuid;
  });
  afterAll(async () => {
    people?.close();
    proposals?.close();
    await system?.stop();
  });

  async function call(
    bearer: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.clone().text();
    const json =
      (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    return response;
  }
  const dataOf = async (response: Response) => ((await response.json()) as Json).data;
  let diagramCount = 0;
  /** A pending proposal on a diagram of its own (a decision changes its diagram; names differ, so no replay). */
  async function propose(): Promise<string> {
    diagramCount += 1;
    const created = await call(writer, 'POST', '/diagrams', {
      name: `Shop ${diagramCount}`,
      driver: 'pgsql',
      schema: basePatch,
    });
    diagramUuid = (await dataOf(created)).uuid;
    const response = await call(writer, 'POST', `/diagrams/${diagramUuid}/proposals`, {
      schema: proposalPatch,
      title: 'Order status',
      message: 'Support filters by status',
    });
    expect([response.status, response.status === 201 ? '' : await response.text()]).toEqual([201, '']);
    return (await dataOf(response)).uuid;
  }
  async function expectError(response: Response, status: number, code: string) {
    expect([response.status, ((await response.json()) as Json).error.code]).toEqual([status, code]);
  }
  const decide = (uuid: string) =>
    proposals.ApplyProposal({ uuid, user_id: reviewerId, team_id: '', reason: '' });

  describe('comments', () => {
    it('should thread, anchor, resolve and count comments in the status', async () => {
      const uuid = await propose();
      const started = await call(writer, 'POST', `/proposals/${uuid}/comments`, {
        body: 'Is <b>20</b> enough? https://example.com',
        anchor: { table: 'Orders', column: 'STATUS' },
      });
      expect(started.status).toBe(201);
      expect(started.headers.get('x-ratelimit-limit')).toBe('1000');
      const thread = await dataOf(started);
      expect(thread).toMatchObject({
        revision: 1,
        anchor: { table: 'orders', column: 'status' },
        reply_to: null,
        kind: 'comment',
        body: 'Is <b>20</b> enough? https://example.com',
        author: { kind: 'token' },
        resolved_at: null,
      });
      const reply = await call(writer, 'POST', `/proposals/${uuid}/comments`, {
        body: 'yes',
        reply_to: thread.id,
      });
      expect((await dataOf(reply)).reply_to).toBe(thread.id);

      let status = await dataOf(await call(reader, 'GET', `/proposals/${uuid}`));
      expect(status).toMatchObject({
        comment_count: 2,
        open_thread_count: 1,
        latest_revision: 1,
        review: null,
      });
      const resolved = await call(writer, 'POST', `/proposals/${uuid}/comments/${thread.id}/resolve`);
      expect(resolved.status).toBe(200);
      expect((await dataOf(resolved)).resolved_at).toEqual(expect.any(String));
      status = await dataOf(await call(reader, 'GET', `/proposals/${uuid}`));
      expect(status).toMatchObject({ comment_count: 2, open_thread_count: 0 });
      const listed = await dataOf(await call(reader, 'GET', `/proposals/${uuid}/comments`));
      expect(listed.map((comment: Json) => [comment.body, comment.resolved_by !== null])).toEqual([
        ['Is <b>20</b> enough? https://example.com', true],
        ['yes', true],
      ]);
    });

    it('should refuse bad bodies with the spec’s error shapes', async () => {
      const uuid = await propose();
      const path = `/proposals/${uuid}/comments`;
      await expectError(await call(writer, 'POST', path, '[1]'), 400, 'invalid_request');
      await expectError(await call(writer, 'POST', path, { body: 7 }), 422, 'invalid_request');
      await expectError(await call(writer, 'POST', path, { body: '' }), 422, 'invalid_request');
      await expectError(await call(writer, 'POST', path, { body: 'x'.repeat(4001) }), 422, 'invalid_request');
      await expectError(
        await call(writer, 'POST', path, { body: 'x', anchor: 'orders' }),
        422,
        'invalid_request',
      );
      await expectError(
        await call(writer, 'POST', path, { body: 'x', anchor: { table: 'users' } }),
        422,
        'invalid_request',
      );
      await expectError(
        await call(writer, 'POST', path, { body: 'x', reply_to: 'nope' }),
        422,
        'invalid_request',
      );
      await expectError(await call(reader, 'POST', path, { body: 'x' }), 403, 'insufficient_scope');
      await expectError(
        await call(writer, 'POST', `/proposals/${uuid}/comments/nope/resolve`),
        404,
        'not_found',
      );
    });
  });

  describe('revisions', () => {
    it('should number revisions, keep counts only and have the apply use the latest', async () => {
      const uuid = await propose();
      const path = `/proposals/${uuid}/revisions`;
      await expectError(await call(writer, 'POST', path, { message: 'no schema' }), 422, 'invalid_request');
      await expectError(await call(writer, 'POST', path, { schema: proposalPatch }), 422, 'invalid_schema');
      await expectError(
        await call(reader, 'POST', path, { schema: revisedPatch }),
        403,
        'insufficient_scope',
      );
      const revised = await call(writer, 'POST', path, { schema: revisedPatch, message: 'Renamed as asked' });
      expect(revised.status).toBe(201);
      expect(await dataOf(revised)).toMatchObject({
        number: 2,
        message: 'Renamed as asked',
        counts: { tables: 1, columns: 1 },
      });
      const listed = await call(reader, 'GET', path);
      const text = await listed.clone().text();
      expect(text).not.toContain('state');
      expect((await dataOf(listed)).map((revision: Json) => revision.number)).toEqual([1, 2]);
      expect((await dataOf(await call(reader, 'GET', `/proposals/${uuid}`))).latest_revision).toBe(2);

      await decide(uuid);
      const schema = await dataOf(await call(reader, 'GET', `/diagrams/${diagramUuid}/schema`));
      const orders = schema.tables.find((table: Json) => table.name === 'orders');
      expect(orders.columns.map((column: Json) => column.name)).toEqual(['id', 'state']);
      await expectError(await call(writer, 'POST', path, { schema: proposalPatch }), 409, 'conflict');
    });
  });

  describe('cross-team', () => {
    it('should answer 404 not_found on every conversation path to another team', async () => {
      const uuid = await propose();
      const thread = await dataOf(
        await call(writer, 'POST', `/proposals/${uuid}/comments`, { body: 'internal' }),
      );
      const attempts: [string, string, unknown?][] = [
        ['GET', `/proposals/${uuid}?wait=1`],
        ['GET', `/proposals/${uuid}/comments`],
        ['POST', `/proposals/${uuid}/comments`, { body: 'peek' }],
        ['POST', `/proposals/${uuid}/comments/${thread.id}/resolve`],
        ['GET', `/proposals/${uuid}/revisions`],
        ['POST', `/proposals/${uuid}/revisions`, { schema: revisedPatch }],
      ];
      for (const [method, path, body] of attempts)
        await expectError(await call(outsider, method, path, body), 404, 'not_found');
      const listed = await dataOf(await call(reader, 'GET', `/proposals/${uuid}/comments`));
      expect(listed).toHaveLength(1);
      expect(listed[0].resolved_at).toBeNull();
    });
  });

  describe('GET /proposals/{uuid}?wait=N', () => {
    // Woken by the decision, not by the end of its 30 s wait; how fast is measured by `npm run
    // bench:long-poll -w services/gateway` (a timed assertion here failed on a loaded CI machine).
    it('should answer when the decision is made, long before its wait ends, counted once against the read limit', async () => {
      const uuid = await propose();
      const before = Number(
        (await call(reader, 'GET', `/proposals/${uuid}`)).headers.get('x-ratelimit-remaining'),
      );
      const started = Date.now();
      const waiting = call(reader, 'GET', `/proposals/${uuid}?wait=30`);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const decidedAt = Date.now();
      await decide(uuid);
      const response = await waiting;
      const answeredAt = Date.now();
      expect(response.status).toBe(200);
      expect((await dataOf(response)).state).toBe('applied');
      expect(answeredAt - started).toBeGreaterThanOrEqual(1500);
      expect(answeredAt - started).toBeLessThan(20_000);
      process.stdout.write(`long-poll: answered ${answeredAt - decidedAt} ms after the decision was sent\n`);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
    });

    it('should wake on a comment, answer at once what changed since the sent ETag, and end on time', async () => {
      const uuid = await propose();
      const first = await call(reader, 'GET', `/proposals/${uuid}`);
      const etag = first.headers.get('etag')!;
      let wokenAt = 0;
      const waiting = call(reader, 'GET', `/proposals/${uuid}?wait=20`, undefined, {
        'if-none-match': etag,
      }).then((response) => {
        wokenAt = Date.now();
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await call(writer, 'POST', `/proposals/${uuid}/comments`, { body: 'one question' });
      // Within a second of the comment being stored (its answer), however long the comment's own call took.
      const commentedAt = Date.now();
      const woken = await waiting;
      expect(wokenAt - commentedAt).toBeLessThan(1000);
      expect(woken.status).toBe(200);
      expect((await dataOf(woken)).comment_count).toBe(1);

      // Something changed since the old ETag: answered at once.
      const immediate = Date.now();
      const changed = await call(reader, 'GET', `/proposals/${uuid}?wait=20`, undefined, {
        'if-none-match': etag,
      });
      expect(changed.status).toBe(200);
      expect(Date.now() - immediate).toBeLessThan(1000);

      // Nothing new: the wait ends on time, 304 to the current ETag.
      const current = changed.headers.get('etag')!;
      const quiet = Date.now();
      const unchanged = await call(reader, 'GET', `/proposals/${uuid}?wait=2`, undefined, {
        'if-none-match': current,
      });
      const waited = Date.now() - quiet;
      expect(unchanged.status).toBe(304);
      expect(waited).toBeGreaterThanOrEqual(1900);
      expect(waited).toBeLessThan(3000);
    });

    it('should refuse a wait outside 0 to 60 seconds', async () => {
      const uuid = await propose();
      for (const wait of ['61', '-1', '2.5', 'soon'])
        await expectError(
          await call(reader, 'GET', `/proposals/${uuid}?wait=${wait}`),
          422,
          'invalid_request',
        );
      expect((await call(reader, 'GET', `/proposals/${uuid}?wait=0`)).status).toBe(200);
    });
  });
});

describe('Review conversation rate limits (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let token: string;

  beforeAll(async () => {
    system = await startTestSystem({ DSS_RATE_LIMIT_WRITE_PER_MIN: '3', DSS_RATE_LIMIT_READ_PER_MIN: '3' });
    people = new TestPeople(system.grpc.accounts);
    token = (await people.member({ team: 'limits', role: 'editor', write: true })).token;
  });
  afterAll(async () => {
    people?.close();
    await system?.stop();
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${system.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('should count comments and revisions as writes, and a long-poll once as a read, refusing at once past the limit', async () => {
    // Creating the diagram is not counted against the token's write limit here: it is the fixture.
    const created = await people.member({ team: 'limits', role: 'owner', write: true });
    const diagram = await fetch(`${system.apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Limits', driver: 'pgsql', schema: basePatch }),
    });
    const diagramUuid = ((await diagram.json()) as Json).data.uuid;
    const proposed = await call('POST', `/diagrams/${diagramUuid}/proposals`, {
      schema: proposalPatch,
      title: 'Status',
      message: 'Why',
    });
    const uuid = ((await proposed.json()) as Json).data.uuid;
    const comment = await call('POST', `/proposals/${uuid}/comments`, { body: 'one' });
    expect([comment.status, comment.headers.get('x-ratelimit-remaining')]).toEqual([201, '1']);
    const revision = await call('POST', `/proposals/${uuid}/revisions`, { schema: revisedPatch });
    expect([revision.status, revision.headers.get('x-ratelimit-remaining')]).toEqual([201, '0']);
    const over = await call('POST', `/proposals/${uuid}/comments`, { body: 'two' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    for (const remaining of ['2', '1', '0']) {
      const waited = await call('GET', `/proposals/${uuid}?wait=1`);
      expect([waited.status, waited.headers.get('x-ratelimit-remaining')]).toEqual([200, remaining]);
    }
    const started = Date.now();
    const limited = await call('GET', `/proposals/${uuid}?wait=30`);
    expect(limited.status).toBe(429);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
