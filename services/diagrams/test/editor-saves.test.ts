// Editor saves through ApplyPatch (source `editor`): editing sessions amend one version, a save on an
// older version is rebased when it touches other tables and refused with `conflict` naming the table
// when it touches a changed one; every save answers its version's number.
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

describe('ApplyPatch from the editor', () => {
  let harness: DiagramsHarness;
  let alice: TestPrincipal;
  let bob: TestPrincipal;

  beforeAll(async () => {
    harness = await startDiagramsHarness();
    alice = newPrincipal({ role: 'editor' });
    bob = newPrincipal({ team: alice, role: 'editor' });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const query = (sql: string, params: unknown[] = []) => harness.service.pool.query(sql, params);
  const newDiagram = async () => {
    const created = await createFromPatch(harness.client, { ...alice, token_id: randomUUID() }, shopPatch(), {
      driver: 'pgsql',
    });
    const versions = await harness.client.ListVersions({ principal: alice, uuid: created.diagram!.uuid });
    return { uuid: created.diagram!.uuid, first: versions.versions[0]!.uuid };
  };
  /** A save as the web editor sends it; `beside` holds what travels beside the patch. */
  const saveWith = (
    uuid: string,
    who: TestPrincipal,
    patch: unknown,
    base: string,
    source: string,
    beside: { colors_json?: string; column_order_json?: string; max_tables_per_diagram?: number },
  ) =>
    harness.client.ApplyPatch({
      diagram_uuid: uuid,
      team_id: who.team_id,
      user_id: who.user_id,
      patch_json: JSON.stringify(patch),
      source,
      source_id: '',
      base_version_uuid: base,
      ...beside,
    });
  const save = (
    uuid: string,
    who: TestPrincipal,
    patch: unknown,
    base: string,
    source = 'editor',
    colors?: unknown,
  ) =>
    saveWith(
      uuid,
      who,
      patch,
      base,
      source,
      colors === undefined ? {} : { colors_json: JSON.stringify(colors) },
    );
  const addColumn = (table: string, column: string) => ({
    strategy: 'merge',
    tables: [{ name: table, columns: [{ name: column, type: 'text' }] }],
  });
  const columnsOf = async (uuid: string, table: string) => {
    const schema = await harness.client.GetSchema({ principal: alice, uuid, format: '', level: '' });
    const found = JSON.parse(schema.body).data.tables.find((entry: { name: string }) => entry.name === table);
    return found.columns.map((column: { name: string }) => column.name) as string[];
  };

  describe('editing sessions', () => {
    it('should amend one History entry for consecutive saves by one person, with a new uuid and ETag each time', async () => {
      const diagram = await newDiagram();
      const one = await save(diagram.uuid, alice, addColumn('orders', 'note'), diagram.first);
      const etagOne = (
        await harness.client.GetSchema({ principal: alice, uuid: diagram.uuid, format: '', level: '' })
      ).etag;
      const two = await save(diagram.uuid, alice, addColumn('orders', 'status'), one.version_uuid);
      const etagTwo = (
        await harness.client.GetSchema({ principal: alice, uuid: diagram.uuid, format: '', level: '' })
      ).etag;
      expect(one.version_number).toBe(2);
      expect(two.version_number).toBe(2);
      expect(two.version_uuid).not.toBe(one.version_uuid);
      expect(etagTwo).not.toBe(etagOne);
      const versions = (await harness.client.ListVersions({ principal: alice, uuid: diagram.uuid })).versions;
      expect(
        versions.map((version) => [version.number, version.uuid, version.source, version.author_user_id]),
      ).toEqual([
        [2, two.version_uuid, 'editor', alice.user_id],
        [1, diagram.first, 'create', alice.user_id],
      ]);
      const change = await harness.client.GetVersionChange({
        principal: alice,
        uuid: diagram.uuid,
        version_uuid: two.version_uuid,
      });
      expect(change.number).toBe(2);
      expect(change.before_json).not.toBe('');
      expect(
        JSON.parse(change.before_json)
          .tables.find((t: { name: string }) => t.name === 'orders')
          .columns.map((c: { name: string }) => c.name),
      ).not.toContain('note');
      const latest = await harness.client.GetVersionSchema({
        principal: alice,
        uuid: diagram.uuid,
        number: 2,
        format: '',
        level: '',
      });
      expect(
        JSON.parse(latest.body)
          .data.tables.find((t: { name: string }) => t.name === 'orders')
          .columns.map((c: { name: string }) => c.name),
      ).toEqual(expect.arrayContaining(['note', 'status']));
      const { rows } = await query(
        `SELECT count(*)::int AS n FROM diagrams.outbox WHERE payload->>'diagram_uuid' = $1 AND subject = 'diagrams.changed'`,
        [diagram.uuid],
      );
      expect(rows[0].n).toBe(3);
    });

    it('should start a new entry when someone else saved in between', async () => {
      const diagram = await newDiagram();
      const one = await save(diagram.uuid, alice, addColumn('orders', 'a'), diagram.first);
      const other = await save(diagram.uuid, bob, addColumn('customers', 'b'), one.version_uuid);
      const three = await save(diagram.uuid, alice, addColumn('orders', 'c'), other.version_uuid);
      expect([one.version_number, other.version_number, three.version_number]).toEqual([2, 3, 4]);
    });

    it('should start a new entry when the other change was not an editor save (a proposal applied)', async () => {
      const diagram = await newDiagram();
      const one = await save(diagram.uuid, alice, addColumn('orders', 'a'), diagram.first);
      const applied = await harness.client.ApplyPatch({
        diagram_uuid: diagram.uuid,
        team_id: alice.team_id,
        user_id: alice.user_id,
        patch_json: JSON.stringify(addColumn('customers', 'p')),
        source: 'proposal',
        source_id: randomUUID(),
      });
      const three = await save(diagram.uuid, alice, addColumn('orders', 'c'), applied.version_uuid);
      expect([one.version_number, applied.version_number, three.version_number]).toEqual([2, 3, 4]);
    });

    it('should start a new entry 10 minutes after the session’s first save', async () => {
      const diagram = await newDiagram();
      const one = await save(diagram.uuid, alice, addColumn('orders', 'a'), diagram.first);
      await query(
        `UPDATE diagrams.diagram_versions SET session_started_at = session_started_at - interval '11 minutes' WHERE uuid = $1`,
        [one.version_uuid],
      );
      const two = await save(diagram.uuid, alice, addColumn('orders', 'b'), one.version_uuid);
      expect(two.version_number).toBe(3);
    });
  });

  describe('rebase of a save made on an older version', () => {
    it('should apply a save touching another table onto the current version and keep both edits', async () => {
      const diagram = await newDiagram();
      const bobs = await save(diagram.uuid, bob, addColumn('customers', 'phone'), diagram.first);
      const alices = await save(diagram.uuid, alice, addColumn('orders', 'note'), diagram.first);
      expect(alices.rebased).toBe(true);
      expect(alices.version_number).toBe(3);
      expect(await columnsOf(diagram.uuid, 'customers')).toContain('phone');
      expect(await columnsOf(diagram.uuid, 'orders')).toContain('note');
      expect(bobs.rebased).toBe(false);
    });

    it('should refuse a save that adds the same column as the save before it, naming it, storing nothing', async () => {
      const diagram = await newDiagram();
      await save(diagram.uuid, bob, addColumn('orders', 'note'), diagram.first);
      const before = await harness.client.GetSchema({
        principal: alice,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      const error = await failureOf(
        save(
          diagram.uuid,
          alice,
          {
            strategy: 'merge',
            tables: [{ name: 'orders', columns: [{ name: 'note', type: 'varchar(20)' }] }],
          },
          diagram.first,
        ),
      );
      expect(error.code).toBe('conflict');
      expect(error.message).toContain('note');
      expect(error.extra.errors).toEqual([expect.objectContaining({ path: 'tables.orders.columns.note' })]);
      const after = await harness.client.GetSchema({
        principal: alice,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      expect(after.etag).toBe(before.etag);
    });

    it('should refuse a save into a table renamed since its version, naming the table', async () => {
      const diagram = await newDiagram();
      await save(
        diagram.uuid,
        bob,
        { strategy: 'merge', tables: [{ name: 'purchases', old_name: 'orders', columns: [] }] },
        diagram.first,
      );
      const error = await failureOf(save(diagram.uuid, alice, addColumn('orders', 'x'), diagram.first));
      expect(error.code).toBe('conflict');
      expect(error.message).toContain('orders');
      expect(error.extra.errors!.map((entry) => entry.path)).toContain('tables.orders');
    });

    it('should rebase edits to different columns of one table', async () => {
      const diagram = await newDiagram();
      await save(diagram.uuid, bob, addColumn('orders', 'phone'), diagram.first);
      const alices = await save(diagram.uuid, alice, addColumn('orders', 'note'), diagram.first);
      expect(alices.rebased).toBe(true);
      expect(await columnsOf(diagram.uuid, 'orders')).toEqual(expect.arrayContaining(['phone', 'note']));
    });

    it('should refuse a base that is not a version of the diagram, and keep preview conflicts for other sources', async () => {
      const diagram = await newDiagram();
      const other = await newDiagram();
      const unknown = await failureOf(save(diagram.uuid, alice, addColumn('orders', 'x'), other.first));
      expect(unknown.code).toBe('invalid_request');
      await save(diagram.uuid, bob, addColumn('customers', 'y'), diagram.first);
      const paste = await failureOf(
        save(diagram.uuid, alice, addColumn('orders', 'x'), diagram.first, 'paste'),
      );
      expect(paste.code).toBe('conflict');
    });

    it('should rebase a person’s own second save sent before the first one answered', async () => {
      const diagram = await newDiagram();
      const one = await save(diagram.uuid, alice, addColumn('orders', 'a'), diagram.first);
      const two = await save(diagram.uuid, alice, addColumn('customers', 'b'), diagram.first);
      expect(two.version_number).toBe(one.version_number);
      expect(await columnsOf(diagram.uuid, 'orders')).toContain('a');
      expect(await columnsOf(diagram.uuid, 'customers')).toContain('b');
    });
  });

  describe('colours beside the patch', () => {
    const empty = { strategy: 'merge' };
    const document = async (uuid: string) => {
      const full = await harness.client.GetFullDocument({ principal: alice, uuid, known_etag: '' });
      return JSON.parse(full.body).data as {
        tables: { name: string; color: string | null }[];
        groups: { name: string; color: string | null }[];
      };
    };

    it('should set a table’s colour and the colour of a group made in the same save, by name, leaving the schema ETag alone', async () => {
      const diagram = await newDiagram();
      const before = await harness.client.GetSchema({
        principal: alice,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      await save(
        diagram.uuid,
        alice,
        { strategy: 'merge', groups: [{ name: 'sales' }] },
        diagram.first,
        'editor',
        { tables: { orders: '#3B82F6' }, groups: { sales: '#22c55e' } },
      );
      const after = await document(diagram.uuid);
      expect(after.tables.find((table) => table.name === 'orders')?.color).toBe('#3b82f6');
      expect(after.tables.find((table) => table.name === 'customers')?.color).toBeNull();
      expect(after.groups.find((group) => group.name === 'sales')?.color).toBe('#22c55e');
      const schema = await harness.client.GetSchema({
        principal: alice,
        uuid: diagram.uuid,
        format: '',
        level: '',
      });
      expect(schema.etag).toBe(before.etag);
    });

    it('should put a table back to the default colour with null', async () => {
      const diagram = await newDiagram();
      const one = await save(diagram.uuid, alice, empty, diagram.first, 'editor', {
        tables: { orders: '#abc' },
      });
      expect((await document(diagram.uuid)).tables.find((table) => table.name === 'orders')?.color).toBe(
        '#abc',
      );
      await save(diagram.uuid, alice, empty, one.version_uuid, 'editor', { tables: { orders: null } });
      expect(
        (await document(diagram.uuid)).tables.find((table) => table.name === 'orders')?.color,
      ).toBeNull();
    });

    it('should refuse a colour that is not a hex colour and a name the diagram lacks, naming the place, storing nothing', async () => {
      const diagram = await newDiagram();
      const script = await failureOf(
        save(diagram.uuid, alice, empty, diagram.first, 'editor', { tables: { orders: 'red;fill:url(x)' } }),
      );
      expect(script.code).toBe('invalid_request');
      expect(script.message).toContain('colors.tables.orders');
      const missing = await failureOf(
        save(diagram.uuid, alice, empty, diagram.first, 'editor', { tables: { nowhere: '#fff' } }),
      );
      expect(missing.code).toBe('invalid_request');
      expect(missing.message).toContain('nowhere');
      const versions = await harness.client.ListVersions({ principal: alice, uuid: diagram.uuid });
      expect(versions.versions).toHaveLength(1);
    });

    it('should answer conflict when a rebased save colours a table renamed since its version', async () => {
      const diagram = await newDiagram();
      await save(
        diagram.uuid,
        bob,
        { strategy: 'merge', tables: [{ name: 'purchases', old_name: 'orders', columns: [] }] },
        diagram.first,
      );
      const error = await failureOf(
        save(diagram.uuid, alice, empty, diagram.first, 'editor', { tables: { orders: '#fff' } }),
      );
      expect(error.code).toBe('conflict');
      expect(error.message).toContain('orders');
    });
  });

  describe('column order beside the patch', () => {
    const saveOrdered = (uuid: string, base: string, patch: unknown, order: unknown) =>
      saveWith(uuid, alice, patch, base, 'editor', { column_order_json: JSON.stringify(order) });

    it('should reorder a table’s columns after the patch, with a column the same patch adds', async () => {
      const diagram = await newDiagram();
      const before = await columnsOf(diagram.uuid, 'orders');
      const wanted = ['note', ...[...before].reverse()];
      await saveOrdered(diagram.uuid, diagram.first, addColumn('orders', 'note'), { orders: wanted });
      expect(await columnsOf(diagram.uuid, 'orders')).toEqual(wanted);
    });

    it('should refuse a list that leaves a column out, storing nothing', async () => {
      const diagram = await newDiagram();
      const before = await columnsOf(diagram.uuid, 'orders');
      const error = await failureOf(
        saveOrdered(diagram.uuid, diagram.first, { strategy: 'merge' }, { orders: before.slice(1) }),
      );
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('column_order.orders');
      expect(await columnsOf(diagram.uuid, 'orders')).toEqual(before);
    });
  });

  describe('the plan’s table cap on editor saves', () => {
    const capped = (uuid: string, base: string, patch: unknown, max: number) =>
      saveWith(uuid, alice, patch, base, 'editor', { max_tables_per_diagram: max });
    const newTable = (name: string) => ({
      strategy: 'merge',
      tables: [{ name, columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
    });
    const tableCount = async (uuid: string) => {
      const schema = await harness.client.GetSchema({ principal: alice, uuid, format: '', level: '' });
      return JSON.parse(schema.body).data.tables.length as number;
    };

    it('should refuse a save that grows the diagram past the cap with plan_limit, storing nothing', async () => {
      const diagram = await newDiagram();
      const tables = await tableCount(diagram.uuid);
      const error = await failureOf(capped(diagram.uuid, diagram.first, newTable('extra'), tables));
      expect(error.code).toBe('plan_limit');
      expect(error.extra).toMatchObject({ limit_type: 'tables', limit: tables, requested: tables + 1 });
      expect(await tableCount(diagram.uuid)).toBe(tables);
      await capped(diagram.uuid, diagram.first, newTable('fits'), tables + 1);
      expect(await tableCount(diagram.uuid)).toBe(tables + 1);
    });

    it('should let a diagram already past the cap be edited as long as it does not grow', async () => {
      const diagram = await newDiagram();
      const saved = await capped(diagram.uuid, diagram.first, addColumn('orders', 'note'), 1);
      expect(saved.version_uuid).toBeTruthy();
    });
  });
});
