// PATCH /v1/diagrams/{uuid} and POST /v1/diagrams/{uuid}/duplicate through a real gateway in front of the
// real services (the embedded system). Every response is also checked against the OpenAPI description.
import { createServiceClient } from '@dss/platform';
import { eventually } from '@dss/platform/testing';
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

const patch = {
  strategy: 'merge',
  tables: [
    { name: 'customers', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
    { name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
  ],
};

describe('Diagram rename and duplicate routes (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  const token = { writer: '', reader: '', viewer: '', outsider: '', starter: '' };
  let diagramUuid: string;

  async function call(bearer: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const json =
      text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
    assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    return { status: response.status, body: json as Json };
  }

  async function newDiagram(bearer: string, name: string) {
    const created = await call(bearer, 'POST', '/diagrams', { name, driver: 'pgsql', schema: patch });
    expect(created.status).toBe(201);
    return created.body.data.uuid as string;
  }

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    token.writer = (await people.member({ team: 'life', role: 'editor', write: true })).token;
    token.reader = (await people.member({ team: 'life', role: 'editor' })).token;
    token.viewer = (await people.member({ team: 'life', role: 'viewer', write: true })).token;
    token.outsider = (await people.member({ team: 'other', role: 'owner', write: true })).token;
    token.starter = (
      await people.member({ team: 'tiny', plan: 'starter', role: 'owner', write: true })
    ).token;
    diagramUuid = await newDiagram(token.writer, 'Shop');
  });
  afterAll(async () => {
    people?.close();
    await system?.stop();
  });

  describe('PATCH /diagrams/{uuid}', () => {
    it('should rename and describe the diagram and answer it', async () => {
      const answer = await call(token.writer, 'PATCH', `/diagrams/${diagramUuid}`, {
        name: 'Sales',
        description: 'Orders and customers',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({
        uuid: diagramUuid,
        name: 'Sales',
        slug: 'sales',
        description: 'Orders and customers',
      });
      const read = await call(token.reader, 'GET', `/diagrams/${diagramUuid}`);
      expect(read.body.data.name).toBe('Sales');
      const cleared = await call(token.writer, 'PATCH', `/diagrams/${diagramUuid}`, { description: null });
      expect(cleared.body.data).toMatchObject({ name: 'Sales', description: null });
    });

    it('should answer 422 invalid_request naming a bad or unknown field, and never edit the schema', async () => {
      const before = await call(token.reader, 'GET', `/diagrams/${diagramUuid}/schema`);
      const cases: [unknown, string[]][] = [
        [{ name: '' }, ['name']],
        [{ name: 42 }, ['name']],
        [{ description: ['x'] }, ['description']],
        [{ schema: patch }, ['schema']],
        [{}, ['name', 'description']],
      ];
      for (const [body, paths] of cases) {
        const answer = await call(token.writer, 'PATCH', `/diagrams/${diagramUuid}`, body);
        expect([answer.status, answer.body.error.code]).toEqual([422, 'invalid_request']);
        expect(answer.body.error.errors.map((entry: { path: string }) => entry.path)).toEqual(paths);
      }
      const notObject = await call(token.writer, 'PATCH', `/diagrams/${diagramUuid}`, '[1]');
      expect([notObject.status, notObject.body.error.code]).toEqual([400, 'invalid_request']);
      const after = await call(token.reader, 'GET', `/diagrams/${diagramUuid}/schema`);
      expect(after.body).toEqual(before.body);
    });

    it('should refuse a read-only token, a viewer and another team as the spec says', async () => {
      const readOnly = await call(token.reader, 'PATCH', `/diagrams/${diagramUuid}`, { name: 'No' });
      expect([readOnly.status, readOnly.body.error.code]).toEqual([403, 'insufficient_scope']);
      const viewer = await call(token.viewer, 'PATCH', `/diagrams/${diagramUuid}`, { name: 'No' });
      expect([viewer.status, viewer.body.error.code]).toEqual([403, 'editor_required']);
      const outsider = await call(token.outsider, 'PATCH', `/diagrams/${diagramUuid}`, { name: 'No' });
      expect([outsider.status, outsider.body.error.code]).toEqual([404, 'not_found']);
      expect((await call(token.reader, 'GET', `/diagrams/${diagramUuid}`)).body.data.name).not.toBe('No');
    });
  });

  describe('POST /diagrams/{uuid}/duplicate', () => {
    it('should answer 201 with a new diagram holding the same schema', async () => {
      const copy = await call(token.writer, 'POST', `/diagrams/${diagramUuid}/duplicate`, {
        name: 'Staging',
      });
      expect(copy.status).toBe(201);
      expect(copy.body.data).toMatchObject({ name: 'Staging', status: 'ready', table_count: 2 });
      expect(copy.body.counts).toMatchObject({ tables: 2 });
      const original = await call(token.reader, 'GET', `/diagrams/${diagramUuid}/schema`);
      const copied = await call(token.reader, 'GET', `/diagrams/${copy.body.data.uuid}/schema`);
      expect(copied.body).toEqual(original.body);
    });

    it('should name the copy "<name> (copy)" when no body is sent', async () => {
      const copy = await call(token.writer, 'POST', `/diagrams/${diagramUuid}/duplicate`);
      expect(copy.status).toBe(201);
      expect(copy.body.data.name).toMatch(/ \(copy\)$/);
    });

    it('should apply the plan caps of a create with 422 plan_limit', async () => {
      const first = await newDiagram(token.starter, 'Only');
      let answer = await call(token.starter, 'POST', `/diagrams/${first}/duplicate`, {});
      for (let i = 0; answer.status === 201 && i < 20; i++)
        answer = await call(token.starter, 'POST', `/diagrams/${first}/duplicate`, {});
      expect([answer.status, answer.body.error.code]).toEqual([422, 'plan_limit']);
    });

    it('should refuse a bad body, a viewer and another team', async () => {
      const bad = await call(token.writer, 'POST', `/diagrams/${diagramUuid}/duplicate`, { name: 5 });
      expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_request']);
      const viewer = await call(token.viewer, 'POST', `/diagrams/${diagramUuid}/duplicate`, {});
      expect([viewer.status, viewer.body.error.code]).toEqual([403, 'editor_required']);
      const outsider = await call(token.outsider, 'POST', `/diagrams/${diagramUuid}/duplicate`, {});
      expect([outsider.status, outsider.body.error.code]).toEqual([404, 'not_found']);
    });
  });

  describe('a diagram moved to the Trash (diagrams.DeleteDiagram: the API has no delete)', () => {
    it('should answer 404 at once, even to an If-None-Match the gateway had confirmed', async () => {
      const uuid = await newDiagram(token.writer, 'Binned');
      const first = await fetch(`${system.apiUrl}/diagrams/${uuid}/schema`, {
        headers: { authorization: `Bearer ${token.reader}` },
      });
      const etag = first.headers.get('etag')!;
      const confirmed = await fetch(`${system.apiUrl}/diagrams/${uuid}/schema`, {
        headers: { authorization: `Bearer ${token.reader}`, 'if-none-match': etag },
      });
      expect(confirmed.status).toBe(304);
      const diagrams = createServiceClient('Diagrams', system.grpc.diagrams);
      try {
        const principal = await people.accounts.Authenticate({ token: token.writer });
        await diagrams.DeleteDiagram({ principal, uuid });
      } finally {
        diagrams.close();
      }
      await eventually(async () => {
        const stale = await fetch(`${system.apiUrl}/diagrams/${uuid}/schema`, {
          headers: { authorization: `Bearer ${token.reader}`, 'if-none-match': etag },
        });
        expect(stale.status).toBe(404);
      });
      for (const path of ['', '/schema-full', '/versions', '/export?format=sql'])
        expect((await call(token.reader, 'GET', `/diagrams/${uuid}${path}`)).status).toBe(404);
      expect((await call(token.writer, 'PATCH', `/diagrams/${uuid}`, { name: 'Back' })).status).toBe(404);
      expect((await call(token.writer, 'POST', `/diagrams/${uuid}/duplicate`, {})).status).toBe(404);
      const list = await call(token.reader, 'GET', '/diagrams?limit=100');
      expect(list.body.data.map((entry: Json) => entry.uuid)).not.toContain(uuid);
    });
  });
});
