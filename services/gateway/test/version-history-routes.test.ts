// Version labels (PATCH /v1/diagrams/{uuid}/versions/{n}) and restore proposals (POST
// /v1/diagrams/{uuid}/proposals with restore_version) through a real gateway in front of the real
// services. Every response is also checked against the OpenAPI description.
import { createServiceClient } from '@dss/platform';
import { startTestSystem, type TestMember, TestPeople, type TestSystem } from '@dss/system';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

const patch = {
  strategy: 'merge',
  tables: [
    {
      name: 'customers',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'email', type: 'varchar(255)' },
      ],
    },
    { name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
  ],
};

describe('Version labels and restore proposals (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let writer: TestMember;
  let viewer: TestMember;
  let outsider: TestMember;

  async function call(bearer: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json =
      text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
    assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    return { status: response.status, body: json as Json };
  }

  let made = 0;
  /** A diagram with version 2 made by an applied proposal (invoices added, customers.email dropped). */
  async function twoVersions(): Promise<string> {
    made += 1;
    const created = await call(writer.token, 'POST', '/diagrams', {
      name: `Shop ${made}`,
      driver: 'pgsql',
      schema: patch,
    });
    const uuid = created.body.data.uuid as string;
    const proposed = await call(writer.token, 'POST', `/diagrams/${uuid}/proposals`, {
      title: 'Invoices',
      message: 'Add invoices, drop email.',
      schema: {
        strategy: 'merge',
        tables: [
          {
            name: 'invoices',
            columns: [
              { name: 'id', type: 'bigint', is_primary_key: true },
              { name: 'order_id', type: 'bigint' },
            ],
          },
        ],
        relationships: [
          {
            type: 'many-to-one',
            source_table: 'invoices',
            source_column: 'order_id',
            target_table: 'orders',
            target_column: 'id',
          },
        ],
        deletions: { columns: [{ table: 'customers', columns: ['email'] }] },
      },
    });
    await apply(proposed.body.data.uuid);
    return uuid;
  }

  const apply = (proposal: string) =>
    createServiceClient('Proposals', system.grpc.proposals).ApplyProposal({
      uuid: proposal,
      user_id: writer.userId,
      team_id: '',
      reason: '',
    });

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    writer = await people.member({ team: 'hist', role: 'editor', write: true });
    viewer = await people.member({ team: 'hist', role: 'viewer', write: true });
    outsider = await people.member({ team: 'elsewhere', role: 'owner', write: true });
  });
  afterAll(async () => {
    people?.close();
    await system?.stop();
  });

  describe('PATCH /diagrams/{uuid}/versions/{number}', () => {
    it('should label a version, list the label, and clear it with null', async () => {
      const uuid = await twoVersions();
      const labelled = await call(writer.token, 'PATCH', `/diagrams/${uuid}/versions/1`, {
        label: 'v1 release',
      });
      expect(labelled.status).toBe(200);
      expect(labelled.body.data).toMatchObject({ number: 1, label: 'v1 release', source: 'create' });
      const listed = await call(viewer.token, 'GET', `/diagrams/${uuid}/versions`);
      expect(listed.body.data.map((version: Json) => version.label)).toEqual([null, 'v1 release']);
      const cleared = await call(writer.token, 'PATCH', `/diagrams/${uuid}/versions/1`, { label: null });
      expect(cleared.body.data.label).toBeNull();
    });

    it('should refuse viewers (403), other teams and missing versions (404), and other fields (422)', async () => {
      const uuid = await twoVersions();
      expect(
        (await call(viewer.token, 'PATCH', `/diagrams/${uuid}/versions/1`, { label: 'x' })).body.error.code,
      ).toBe('editor_required');
      expect(
        (await call(outsider.token, 'PATCH', `/diagrams/${uuid}/versions/1`, { label: 'x' })).status,
      ).toBe(404);
      expect((await call(writer.token, 'PATCH', `/diagrams/${uuid}/versions/9`, { label: 'x' })).status).toBe(
        404,
      );
      const other = await call(writer.token, 'PATCH', `/diagrams/${uuid}/versions/1`, {
        label: 'x',
        schema: {},
      });
      expect(other.status).toBe(422);
      expect(other.body.error.errors[0].path).toBe('schema');
      const long = await call(writer.token, 'PATCH', `/diagrams/${uuid}/versions/1`, {
        label: 'x'.repeat(101),
      });
      expect(long.status).toBe(422);
    });
  });

  describe('POST /diagrams/{uuid}/proposals with restore_version', () => {
    it('should propose a patch that, applied, gives back version 1’s schema as a new version', async () => {
      const uuid = await twoVersions();
      const proposed = await call(writer.token, 'POST', `/diagrams/${uuid}/proposals`, {
        title: 'Back to version 1',
        message: 'Invoices were a mistake.',
        restore_version: 1,
      });
      expect(proposed.status).toBe(201);
      expect(proposed.body.data.counts.deletions).toBeGreaterThan(0);
      await apply(proposed.body.data.uuid);
      const now = await call(writer.token, 'GET', `/diagrams/${uuid}/schema`);
      const old = await call(writer.token, 'GET', `/diagrams/${uuid}/versions/1/schema`);
      // The same schema; a column dropped since comes back as a new column (with a new uuid).
      expect(withoutUuids(now.body.data)).toEqual(withoutUuids(old.body.data));
      const versions = await call(writer.token, 'GET', `/diagrams/${uuid}/versions`);
      expect(versions.body.data[0]).toMatchObject({
        number: 3,
        source: 'proposal',
        proposal_uuid: proposed.body.data.uuid,
      });
    });

    it('should refuse restore_version with schema, a non-number, and a version the diagram lacks', async () => {
      const uuid = await twoVersions();
      const base = { title: 'Back', message: 'Why' };
      const both = await call(writer.token, 'POST', `/diagrams/${uuid}/proposals`, {
        ...base,
        restore_version: 1,
        schema: patch,
      });
      expect(both.status).toBe(422);
      expect(both.body.error.errors[0].path).toBe('restore_version');
      expect(
        (await call(writer.token, 'POST', `/diagrams/${uuid}/proposals`, { ...base, restore_version: '1' }))
          .status,
      ).toBe(422);
      expect(
        (await call(writer.token, 'POST', `/diagrams/${uuid}/proposals`, { ...base, restore_version: 7 }))
          .status,
      ).toBe(404);
      expect(
        (await call(outsider.token, 'POST', `/diagrams/${uuid}/proposals`, { ...base, restore_version: 1 }))
          .status,
      ).toBe(404);
    });
  });
});

function withoutUuids(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUuids);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'uuid' && !key.endsWith('_uuid'))
      .map(([key, entry]) => [key, withoutUuids(entry)]),
  );
}
