// Rename, duplicate, Trash, restore and purge (src/lifecycle.ts, src/sweeper.ts) against a real service
// and PostgreSQL; the trash period's clock is injected so a test can step past 30 days.
import { randomUUID } from 'node:crypto';
import { sweepTrash } from '../src/sweeper';
import {
  createFromPatch,
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  shopPatch,
  startDiagramsHarness,
  type TestPrincipal,
  tablesPatch,
} from './helpers';

const DAY_MS = 86_400_000;

describe('Diagram lifecycle: UpdateDiagram, DuplicateDiagram, DeleteDiagram, RestoreDiagram, ListTrash, PurgeDiagram', () => {
  let harness: DiagramsHarness;
  let clock = Date.now();
  const now = () => new Date(clock);
  let owner: TestPrincipal;
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  let stranger: TestPrincipal;

  beforeAll(async () => {
    harness = await startDiagramsHarness({}, { now });
    owner = newPrincipal({ role: 'owner' });
    editor = newPrincipal({ team: owner, role: 'editor' });
    viewer = newPrincipal({ team: owner, role: 'viewer' });
    stranger = newPrincipal({ role: 'owner' });
  });
  afterAll(async () => {
    await harness.stop();
  });
  beforeEach(() => {
    clock = Date.now();
  });

  const query = (sql: string, params: unknown[] = []) => harness.service.pool.query(sql, params);
  // A fresh token each time, so no create replays an earlier one.
  const create = async (name = 'Shop', principal = owner) =>
    (
      await createFromPatch(harness.client, { ...principal, token_id: randomUUID() }, shopPatch(), {
        name,
        driver: 'pgsql',
      })
    ).diagram!;
  const eventsOf = async (uuid: string) =>
    (
      await query(
        `SELECT subject, payload FROM diagrams.outbox WHERE payload->>'diagram_uuid' = $1 ORDER BY position`,
        [uuid],
      )
    ).rows as { subject: string; payload: Record<string, unknown> }[];

  describe('UpdateDiagram', () => {
    it('should rename and describe the diagram, move updated_at and emit diagrams.renamed', async () => {
      const diagram = await create('Shop');
      const renamed = await harness.client.UpdateDiagram({
        principal: editor,
        uuid: diagram.uuid,
        name: '  Sales DB ',
        description: 'Orders and customers',
      });
      expect(renamed).toMatchObject({
        name: 'Sales DB',
        slug: 'sales-db',
        description: 'Orders and customers',
      });
      expect(new Date(renamed.updated_at).getTime()).toBeGreaterThan(new Date(diagram.updated_at).getTime());
      const read = await harness.client.GetDiagram({ principal: viewer, uuid: diagram.uuid });
      expect(read.name).toBe('Sales DB');
      expect((await eventsOf(diagram.uuid)).map((event) => event.subject)).toContain('diagrams.renamed');
      const renamedEvent = (await eventsOf(diagram.uuid)).find(
        (event) => event.subject === 'diagrams.renamed',
      );
      expect(renamedEvent!.payload).toMatchObject({
        name: 'Sales DB',
        previous_name: 'Shop',
        user_id: editor.user_id,
      });
    });

    it('should change only the description when no name is sent, and clear it with an empty one', async () => {
      const diagram = await create('Kept');
      const described = await harness.client.UpdateDiagram({
        principal: owner,
        uuid: diagram.uuid,
        description: 'x',
      });
      expect(described).toMatchObject({ name: 'Kept', description: 'x' });
      const cleared = await harness.client.UpdateDiagram({
        principal: owner,
        uuid: diagram.uuid,
        description: '',
      });
      expect(cleared.name).toBe('Kept');
      expect(cleared.description).toBeUndefined();
    });

    it('should write no version: the schema and its history are untouched', async () => {
      const diagram = await create();
      const before = await harness.client.GetSchema({
        principal: owner,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      await harness.client.UpdateDiagram({ principal: owner, uuid: diagram.uuid, name: 'Other' });
      const after = await harness.client.GetSchema({
        principal: owner,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      expect(after.etag).toBe(before.etag);
      expect(
        (await harness.client.ListVersions({ principal: owner, uuid: diagram.uuid })).versions,
      ).toHaveLength(1);
    });

    it('should refuse bad fields with invalid_request naming them', async () => {
      const diagram = await create();
      const cases = [
        [{}, ['name', 'description']],
        [{ name: '   ' }, ['name']],
        [{ name: 'x'.repeat(256) }, ['name']],
        [{ description: 'y'.repeat(2001) }, ['description']],
      ] as const;
      for (const [fields, paths] of cases) {
        const error = await failureOf(
          harness.client.UpdateDiagram({ principal: owner, uuid: diagram.uuid, ...fields }),
        );
        expect(error.code).toBe('invalid_request');
        expect(error.extra.errors!.map((entry) => entry.path)).toEqual(paths);
      }
    });

    it('should refuse a viewer with editor_required and another team with not_found', async () => {
      const diagram = await create();
      const refused = await failureOf(
        harness.client.UpdateDiagram({ principal: viewer, uuid: diagram.uuid, name: 'No' }),
      );
      expect(refused.code).toBe('editor_required');
      const hidden = await failureOf(
        harness.client.UpdateDiagram({ principal: stranger, uuid: diagram.uuid, name: 'No' }),
      );
      expect(hidden.code).toBe('not_found');
      expect((await harness.client.GetDiagram({ principal: owner, uuid: diagram.uuid })).name).toBe('Shop');
    });
  });

  describe('DuplicateDiagram', () => {
    it('should make a new diagram of the team with the same schema, named "<name> (copy)" by default', async () => {
      const diagram = await create('Shop');
      const copy = await harness.client.DuplicateDiagram({ principal: editor, uuid: diagram.uuid });
      expect(copy.diagram).toMatchObject({
        name: 'Shop (copy)',
        status: 'ready',
        driver: 'pgsql',
        table_count: 2,
      });
      expect(copy.diagram!.uuid).not.toBe(diagram.uuid);
      expect(JSON.parse(copy.counts_json)).toMatchObject({ tables: 2, relationships: 1 });
      const original = await harness.client.GetSchema({
        principal: owner,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      const copied = await harness.client.GetSchema({
        principal: owner,
        uuid: copy.diagram!.uuid,
        format: '',
        level: '',
      });
      expect(copied.body).toBe(original.body);
      const versions = await harness.client.ListVersions({ principal: owner, uuid: copy.diagram!.uuid });
      expect(versions.versions).toEqual([
        expect.objectContaining({ source: 'create', source_id: diagram.uuid }),
      ]);
      expect((await eventsOf(copy.diagram!.uuid))[0]).toMatchObject({
        subject: 'diagrams.changed',
        payload: expect.objectContaining({ source: 'create' }),
      });
    });

    it('should take the name asked for', async () => {
      const diagram = await create();
      const copy = await harness.client.DuplicateDiagram({
        principal: owner,
        uuid: diagram.uuid,
        name: 'Staging',
      });
      expect(copy.diagram!.name).toBe('Staging');
    });

    it('should apply the plan caps of a create', async () => {
      const team = newPrincipal({ role: 'owner', caps: { max_private_diagrams: 1 } });
      const diagram = await create('Only', team);
      const full = await failureOf(harness.client.DuplicateDiagram({ principal: team, uuid: diagram.uuid }));
      expect(full.code).toBe('plan_limit');
      expect(full.extra).toMatchObject({ limit_type: 'private_diagrams', limit: 1 });
      const small = newPrincipal({ team, role: 'owner', caps: { max_tables_per_diagram: 1 } });
      const tables = await failureOf(
        harness.client.DuplicateDiagram({ principal: small, uuid: diagram.uuid }),
      );
      expect(tables.code).toBe('plan_limit');
      expect(tables.extra).toMatchObject({ limit_type: 'tables', limit: 1, requested: 2 });
    });

    it('should refuse a viewer and another team', async () => {
      const diagram = await create();
      expect(
        (await failureOf(harness.client.DuplicateDiagram({ principal: viewer, uuid: diagram.uuid }))).code,
      ).toBe('editor_required');
      expect(
        (await failureOf(harness.client.DuplicateDiagram({ principal: stranger, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
    });
  });

  describe('DeleteDiagram and the Trash', () => {
    it('should answer not_found everywhere for a deleted diagram and list it in the Trash', async () => {
      const diagram = await create('Doomed');
      const trashed = await harness.client.DeleteDiagram({ principal: editor, uuid: diagram.uuid });
      expect(trashed).toMatchObject({
        deleted_by: editor.user_id,
        diagram: expect.objectContaining({ uuid: diagram.uuid }),
      });
      expect(new Date(trashed.purge_after).getTime() - new Date(trashed.deleted_at).getTime()).toBe(
        30 * DAY_MS,
      );
      const uuid = diagram.uuid;
      const reads = [
        harness.client.GetDiagram({ principal: owner, uuid }),
        harness.client.GetSchema({ principal: owner, uuid, format: '', level: '' }),
        harness.client.GetFullDocument({ principal: owner, uuid }),
        harness.client.ListVersions({ principal: owner, uuid }),
        harness.client.GetVersionSchema({ principal: owner, uuid, number: 1, format: '', level: '' }),
        harness.client.UpdateDiagram({ principal: owner, uuid, name: 'Back' }),
        harness.client.DuplicateDiagram({ principal: owner, uuid }),
        harness.client.DeleteDiagram({ principal: owner, uuid }),
        harness.client.ApplyPatch({
          diagram_uuid: uuid,
          team_id: owner.team_id,
          user_id: owner.user_id,
          patch_json: JSON.stringify(tablesPatch(1, 'x')),
          source: 'proposal',
          source_id: randomUUID(),
        }),
      ];
      for (const read of reads) expect((await failureOf(read)).code).toBe('not_found');
      const list = await harness.client.ListDiagrams({ principal: owner, limit: 100, cursor: '' });
      expect(list.diagrams.map((entry) => entry.uuid)).not.toContain(uuid);
      const trash = await harness.client.ListTrash({ principal: viewer });
      expect(trash.diagrams.map((entry) => entry.diagram!.uuid)).toContain(uuid);
      expect((await harness.client.ListTrash({ principal: stranger })).diagrams).toEqual([]);
      expect((await eventsOf(uuid)).at(-1)).toMatchObject({
        subject: 'diagrams.deleted',
        payload: expect.objectContaining({ team_id: owner.team_id, user_id: editor.user_id }),
      });
    });

    it('should refuse a viewer and another team', async () => {
      const diagram = await create();
      expect(
        (await failureOf(harness.client.DeleteDiagram({ principal: viewer, uuid: diagram.uuid }))).code,
      ).toBe('editor_required');
      expect(
        (await failureOf(harness.client.DeleteDiagram({ principal: stranger, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
      expect((await harness.client.GetDiagram({ principal: owner, uuid: diagram.uuid })).uuid).toBe(
        diagram.uuid,
      );
    });

    it('should let an owner restore it with its schema and history, announcing diagrams.restored', async () => {
      const diagram = await create('Back again');
      const schema = await harness.client.GetSchema({
        principal: owner,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      await harness.client.DeleteDiagram({ principal: owner, uuid: diagram.uuid });
      expect(
        (await failureOf(harness.client.RestoreDiagram({ principal: editor, uuid: diagram.uuid }))).code,
      ).toBe('forbidden');
      expect(
        (await failureOf(harness.client.RestoreDiagram({ principal: stranger, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
      clock += 29 * DAY_MS;
      const restored = await harness.client.RestoreDiagram({ principal: owner, uuid: diagram.uuid });
      expect(restored).toMatchObject({ uuid: diagram.uuid, name: 'Back again' });
      const again = await harness.client.GetSchema({
        principal: viewer,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      expect(again.body).toBe(schema.body);
      expect(
        (await harness.client.ListTrash({ principal: owner })).diagrams.map((d) => d.diagram!.uuid),
      ).not.toContain(diagram.uuid);
      expect((await eventsOf(diagram.uuid)).at(-1)!.subject).toBe('diagrams.restored');
      expect(
        (await failureOf(harness.client.RestoreDiagram({ principal: owner, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
    });

    it('should not count trashed diagrams against the plan, and check the cap again on restore', async () => {
      const team = newPrincipal({ role: 'owner', caps: { max_private_diagrams: 1 } });
      const first = await create('First', team);
      await harness.client.DeleteDiagram({ principal: team, uuid: first.uuid });
      await create('Second', team);
      const refused = await failureOf(harness.client.RestoreDiagram({ principal: team, uuid: first.uuid }));
      expect(refused.code).toBe('plan_limit');
    });

    it('should purge after 30 days: no restore, the sweeper removes every row and announces diagrams.purged', async () => {
      const diagram = await create('Old');
      await harness.client.DeleteDiagram({ principal: owner, uuid: diagram.uuid });
      clock += 29 * DAY_MS;
      expect(await sweepTrash(harness.service.pool, now)).toBe(0);
      clock += 2 * DAY_MS;
      expect(
        (await harness.client.ListTrash({ principal: owner })).diagrams.map((d) => d.diagram!.uuid),
      ).not.toContain(diagram.uuid);
      expect(
        (await failureOf(harness.client.RestoreDiagram({ principal: owner, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
      expect(await sweepTrash(harness.service.pool, now)).toBeGreaterThanOrEqual(1);
      for (const table of [
        'diagrams',
        'diagram_versions',
        'diagram_contents',
        'diagram_update_times',
        'create_replays',
      ]) {
        const column = table === 'diagrams' ? 'uuid' : 'diagram_uuid';
        const { rows } = await query(
          `SELECT count(*)::int AS n FROM diagrams.${table} WHERE ${column} = $1`,
          [diagram.uuid],
        );
        expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
      }
      expect((await eventsOf(diagram.uuid)).at(-1)).toMatchObject({
        subject: 'diagrams.purged',
        payload: expect.objectContaining({ team_id: owner.team_id }),
      });
    });

    it('should let an owner purge from the Trash at once, and nobody else', async () => {
      const diagram = await create('Gone');
      await harness.client.DeleteDiagram({ principal: owner, uuid: diagram.uuid });
      expect(
        (await failureOf(harness.client.PurgeDiagram({ principal: editor, uuid: diagram.uuid }))).code,
      ).toBe('forbidden');
      expect(
        (await failureOf(harness.client.PurgeDiagram({ principal: stranger, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
      await harness.client.PurgeDiagram({ principal: owner, uuid: diagram.uuid });
      const { rows } = await query('SELECT count(*)::int AS n FROM diagrams.diagrams WHERE uuid = $1', [
        diagram.uuid,
      ]);
      expect(rows[0].n).toBe(0);
      expect(
        (await failureOf(harness.client.RestoreDiagram({ principal: owner, uuid: diagram.uuid }))).code,
      ).toBe('not_found');
    });
  });

  describe('CreateDiagram from the web app (no token)', () => {
    const webPrincipal = (team: TestPrincipal) => ({
      ...newPrincipal({ team, role: 'editor' }),
      token_id: '',
      caps: {},
    });

    it('should make an empty diagram that is ready at once, with a first version of kind web', async () => {
      const person = webPrincipal(owner);
      const created = await harness.client.CreateDiagram({
        principal: person,
        name: 'Blank',
        driver: 'pgsql',
        empty: true,
      });
      expect(created.diagram).toMatchObject({
        name: 'Blank',
        status: 'ready',
        table_count: 0,
        driver: 'pgsql',
      });
      const schema = await harness.client.GetSchema({
        principal: owner,
        uuid: created.diagram!.uuid,
        format: '',
        level: '',
      });
      expect(JSON.parse(schema.body).data.tables).toEqual([]);
      const { rows } = await query(
        'SELECT source, source_kind FROM diagrams.diagram_versions WHERE diagram_uuid = $1',
        [created.diagram!.uuid],
      );
      expect(rows).toEqual([{ source: 'create', source_kind: 'web' }]);
    });

    it('should make two diagrams of two identical creates, from a schema or empty', async () => {
      const person = webPrincipal(owner);
      const schema = JSON.stringify(shopPatch());
      const first = await harness.client.CreateDiagram({
        principal: person,
        name: 'Same',
        driver: 'mysql',
        schema_json: schema,
      });
      const second = await harness.client.CreateDiagram({
        principal: person,
        name: 'Same',
        driver: 'mysql',
        schema_json: schema,
      });
      expect(second.replayed).toBe(false);
      expect(second.diagram!.uuid).not.toBe(first.diagram!.uuid);
      const blank = await harness.client.CreateDiagram({
        principal: person,
        name: 'B',
        driver: 'mysql',
        empty: true,
      });
      const again = await harness.client.CreateDiagram({
        principal: person,
        name: 'B',
        driver: 'mysql',
        empty: true,
      });
      expect(again.diagram!.uuid).not.toBe(blank.diagram!.uuid);
    });

    it('should still refuse an empty schema with no_tables', async () => {
      const error = await failureOf(
        harness.client.CreateDiagram({
          principal: webPrincipal(owner),
          name: 'Blank',
          driver: 'pgsql',
          schema_json: '{}',
        }),
      );
      expect(error.code).toBe('no_tables');
    });

    it('should apply the private-diagrams cap to an empty create', async () => {
      const team = newPrincipal({ role: 'owner', caps: { max_private_diagrams: 1 } });
      await create('Only', team);
      const error = await failureOf(
        harness.client.CreateDiagram({ principal: team, name: 'More', driver: 'pgsql', empty: true }),
      );
      expect(error.code).toBe('plan_limit');
    });
  });
});
