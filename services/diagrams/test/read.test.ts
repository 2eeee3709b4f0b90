import { randomUUID } from 'node:crypto';
import {
  createFromPatch,
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  shopPatch,
  startDiagramsHarness,
  type TestPrincipal,
} from './helpers';

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
].sort();

describe('Diagrams reads: GetDiagram, GetSchema, GetFullDocument, ApplyPatch, ListVersions', () => {
  let harness: DiagramsHarness;
  let owner: TestPrincipal;
  let uuid: string;

  beforeAll(async () => {
    harness = await startDiagramsHarness();
    owner = newPrincipal({ slug: 'owners' });
    uuid = (await createFromPatch(harness.client, owner, shopPatch(), { name: 'Shop', driver: 'pgsql' }))
      .diagram!.uuid;
  });
  afterAll(async () => {
    await harness.stop();
  });

  const schema = (principal: TestPrincipal, format = '', level = '', id = uuid) =>
    harness.client.GetSchema({ principal, uuid: id, format, level });
  const fullDocument = (principal: TestPrincipal, id = uuid) =>
    harness.client.GetFullDocument({ principal, uuid: id });
  const applyPatch = (patch: unknown, principal: TestPrincipal = owner, id = uuid) =>
    harness.client.ApplyPatch({
      diagram_uuid: id,
      team_id: principal.team_id,
      user_id: principal.user_id,
      patch_json: JSON.stringify(patch),
      source: 'proposal',
      source_id: randomUUID(),
    });

  describe('visibility', () => {
    it('should answer the same not_found for an unknown, a malformed and another team’s uuid', async () => {
      const stranger = newPrincipal();
      const calls = [
        (id: string) => harness.client.GetDiagram({ principal: stranger, uuid: id }),
        (id: string) => schema(stranger, '', '', id),
        (id: string) => fullDocument(stranger, id),
        (id: string) => harness.client.ListVersions({ principal: stranger, uuid: id }),
      ];
      for (const call of calls) {
        const errors = await Promise.all(
          [uuid, randomUUID(), 'not-a-uuid', "'; DROP TABLE x; --"].map((id) => failureOf(call(id))),
        );
        for (const error of errors) {
          expect(error.code).toBe('not_found');
          expect(error.message).toBe(errors[0]!.message);
          expect(error.extra).toEqual({});
        }
      }
    });

    it('should let a member of the owning team read the diagram with the caller’s team names', async () => {
      const colleague = newPrincipal({ team: owner });
      const diagram = await harness.client.GetDiagram({
        principal: { ...colleague, team_name: 'Renamed' },
        uuid,
      });
      expect(diagram).toMatchObject({
        uuid,
        name: 'Shop',
        status: 'ready',
        team_name: 'Renamed',
        table_count: 2,
      });
    });

    it('should refuse ApplyPatch for another team’s diagram with not_found and leave it unchanged', async () => {
      const before = await fullDocument(owner);
      const error = await failureOf(
        applyPatch({ strategy: 'merge', tables: [{ name: 'x' }] }, newPrincipal()),
      );
      expect(error.code).toBe('not_found');
      expect((await fullDocument(owner)).etag).toBe(before.etag);
    });
  });

  describe('GetSchema', () => {
    it('should return {data: schema} JSON with every field of the spec’s column table', async () => {
      const answer = await schema(owner);
      expect(answer.content_type).toBe('application/json; charset=utf-8');
      expect(answer.etag).toMatch(/^"[^"]+"$/);
      const body = JSON.parse(answer.body);
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).toMatchObject({ driver: 'pgsql', schema_version: expect.any(Number) });
      expect(Object.keys(body.data).sort()).toEqual(['driver', 'relationships', 'schema_version', 'tables']);
      expect(body.data.tables.map((t: { name: string }) => t.name)).toEqual(['customers', 'orders']);
      const customers = body.data.tables[0];
      expect(Object.keys(customers).sort()).toEqual(['columns', 'comment', 'indexes', 'name', 'uuid']);
      expect(customers.comment).toBe('People who buy');
      expect(customers.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'email']);
      for (const column of customers.columns) expect(Object.keys(column).sort()).toEqual(COLUMN_FIELDS);
      expect(customers.columns[1]).toMatchObject({
        driver_data_type_name: 'character varying',
        driver_data_type_params: { length: 255 },
        is_unique_key: true,
        default: null,
        comment: null,
      });
      expect(body.data.relationships).toHaveLength(1);
      expect(body.data.tables[0]).not.toHaveProperty('left');
      expect(body.data).not.toHaveProperty('groups');
    });

    it('should render Markdown with types at level detailed and names only at level simple', async () => {
      const detailed = await schema(owner, 'markdown', 'detailed');
      const simple = await schema(owner, 'markdown', 'simple');
      const byDefault = await schema(owner, 'markdown');
      expect(detailed.content_type).toBe('text/markdown; charset=utf-8');
      expect(byDefault.body).toBe(detailed.body);
      expect(detailed.body).toContain('## customers');
      expect(detailed.body).toMatch(/email: character varying\(255\), unique/);
      expect(simple.body).toContain('customers: id, email');
      expect(simple.body).not.toContain('character varying');
      expect(new Set([detailed.etag, simple.etag, (await schema(owner)).etag]).size).toBe(3);
    });

    it('should refuse an unknown format or level with invalid_request', async () => {
      expect((await failureOf(schema(owner, 'yaml'))).code).toBe('invalid_request');
      expect((await failureOf(schema(owner, 'markdown', 'verbose'))).code).toBe('invalid_request');
    });
  });

  describe('revalidation with known_etag', () => {
    it('leaves the body out and answers unchanged when the caller already holds the current ETag', async () => {
      const first = await schema(owner, 'markdown', 'detailed');
      const again = await harness.client.GetSchema({
        principal: owner,
        uuid,
        format: 'markdown',
        level: 'detailed',
        known_etag: first.etag,
      });
      expect(again).toMatchObject({ unchanged: true, body: '', etag: first.etag });
    });

    it('sends the body when the ETag the caller holds is stale', async () => {
      const current = await fullDocument(owner);
      const stale = await harness.client.GetFullDocument({ principal: owner, uuid, known_etag: '"stale"' });
      expect(stale).toMatchObject({ unchanged: false, body: current.body, etag: current.etag });
    });

    it('still refuses another team, whatever ETag it offers', async () => {
      const first = await schema(owner);
      const stranger = newPrincipal();
      await expect(
        harness.client.GetSchema({
          principal: stranger,
          uuid,
          format: '',
          level: '',
          known_etag: first.etag,
        }),
      ).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('ETags across ApplyPatch', () => {
    it('should keep the schema ETags and change the full-document ETag when a table only moves', async () => {
      const jsonBefore = await schema(owner);
      const markdownBefore = await schema(owner, 'markdown');
      const fullBefore = await fullDocument(owner);
      const applied = await applyPatch({
        strategy: 'merge',
        tables: [{ name: 'customers', left: 1234, top: 567 }],
      });
      expect(applied.version_uuid).toEqual(expect.any(String));

      expect((await schema(owner)).etag).toBe(jsonBefore.etag);
      expect((await schema(owner)).body).toBe(jsonBefore.body);
      expect((await schema(owner, 'markdown')).etag).toBe(markdownBefore.etag);
      const fullAfter = await fullDocument(owner);
      expect(fullAfter.etag).not.toBe(fullBefore.etag);
      const moved = JSON.parse(fullAfter.body).data.tables.find(
        (t: { name: string }) => t.name === 'customers',
      );
      expect(moved).toMatchObject({ left: 1234, top: 567 });
    });

    it('should change the schema ETags when a column comment changes', async () => {
      const jsonBefore = await schema(owner);
      const markdownBefore = await schema(owner, 'markdown');
      await applyPatch({
        strategy: 'merge',
        tables: [{ name: 'orders', columns: [{ name: 'customer_id', type: 'bigint', comment: 'buyer' }] }],
      });
      const jsonAfter = await schema(owner);
      expect(jsonAfter.etag).not.toBe(jsonBefore.etag);
      expect((await schema(owner, 'markdown')).etag).not.toBe(markdownBefore.etag);
      const orders = JSON.parse(jsonAfter.body).data.tables.find(
        (t: { name: string }) => t.name === 'orders',
      );
      expect(orders.columns.find((c: { name: string }) => c.name === 'customer_id').comment).toBe('buyer');
    });
  });

  describe('ApplyPatch', () => {
    it('should write a version with source apply and move updated_at forward', async () => {
      const before = await harness.client.GetDiagram({ principal: owner, uuid });
      const applied = await applyPatch({
        strategy: 'additive',
        tables: [{ name: 'payments', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
      });
      expect(applied.diagram).toMatchObject({ uuid, table_count: 3 });
      expect(Date.parse(applied.diagram!.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
      const versions = (await harness.client.ListVersions({ principal: owner, uuid })).versions;
      expect(versions[0]).toMatchObject({
        uuid: applied.version_uuid,
        source: 'apply',
        author_user_id: owner.user_id,
      });
      expect(versions[versions.length - 1]!.source).toBe('create');
      const { rows } = await harness.service.pool.query(
        `SELECT count(*)::int AS n FROM diagrams.outbox WHERE payload->>'version_uuid' = $1`,
        [applied.version_uuid],
      );
      expect(rows[0].n).toBe(1);
    });

    it('should refuse a patch that no longer fits the diagram with invalid_schema and change nothing', async () => {
      const before = await fullDocument(owner);
      const error = await failureOf(
        applyPatch({
          strategy: 'merge',
          tables: [{ name: 'orders', columns: [{ name: 'x', type: 'nope' }] }],
        }),
      );
      expect(error.code).toBe('invalid_schema');
      expect(error.extra.errors?.length).toBeGreaterThan(0);
      expect((await fullDocument(owner)).etag).toBe(before.etag);
    });

    it('should move existing sticky notes by uuid and refuse an unknown note or a malformed position map', async () => {
      await applyPatch({ strategy: 'additive', sticky_notes: [{ content: 'Move me' }] });
      const document = JSON.parse((await fullDocument(owner)).body).data as {
        sticky_notes: { uuid: string; content: string; left: number; top: number }[];
      };
      const note = document.sticky_notes.find((entry) => entry.content === 'Move me')!;
      const layout = (note_positions_json: string) =>
        harness.client.ApplyPatch({
          diagram_uuid: uuid,
          team_id: owner.team_id,
          user_id: owner.user_id,
          patch_json: JSON.stringify({ strategy: 'merge' }),
          source: 'layout',
          source_id: '',
          note_positions_json,
        });
      await layout(JSON.stringify({ [note.uuid]: [note.left + 40.4, note.top + 20] }));
      const moved = (JSON.parse((await fullDocument(owner)).body).data as typeof document).sticky_notes.find(
        (entry) => entry.uuid === note.uuid,
      )!;
      expect([moved.left, moved.top]).toEqual([note.left + 40, note.top + 20]);
      for (const bad of [
        JSON.stringify({ [randomUUID()]: [1, 2] }),
        '[1, 2]',
        '{',
        JSON.stringify({ [note.uuid]: ['x', 2] }),
      ]) {
        const error = await failureOf(layout(bad));
        expect(error.code).toBe('invalid_request');
      }
    });

    it('should refuse patch JSON that does not parse with invalid_request', async () => {
      const error = await failureOf(
        harness.client.ApplyPatch({
          diagram_uuid: uuid,
          team_id: owner.team_id,
          user_id: owner.user_id,
          patch_json: '{',
          source: 'proposal',
          source_id: 'p1',
        }),
      );
      expect(error.code).toBe('invalid_request');
    });
  });
});
