import { apply } from '../src/apply';
import {
  column,
  deepFreeze,
  documentOf,
  group,
  note,
  patchColumn,
  patchOf,
  patchTable,
  relationship,
  sequentialUuids,
  shopDocument,
  table,
  tableNamed,
} from './apply-fixtures';

const run = (document: ReturnType<typeof shopDocument>, patch: ReturnType<typeof patchOf>) =>
  apply(document, patch, { newUuid: sequentialUuids() }).document;

describe('apply', () => {
  describe('purity', () => {
    it('never mutates the input document', () => {
      const before = deepFreeze(shopDocument());
      const snapshot = JSON.stringify(before);
      const patch = patchOf({
        tables: [
          patchTable('users', {
            comment: 'x',
            columns: [patchColumn('email', 'varchar(100)', { old_name: 'email' })],
          }),
        ],
        deletions: { tables: ['orders'] },
      });
      expect(() => apply(before, patch)).not.toThrow();
      expect(JSON.stringify(before)).toBe(snapshot);
    });

    it('uses crypto.randomUUID when no uuid source is given', () => {
      const result = apply(shopDocument(), patchOf({ tables: [patchTable('tags')] })).document;
      expect(tableNamed(result, 'tags').uuid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    });

    it('copies an input column moved by a deletion before editing it, and keeps untouched columns', () => {
      const before = deepFreeze(shopDocument());
      const snapshot = JSON.stringify(before);
      const patch = patchOf({
        tables: [patchTable('users', { columns: [patchColumn('email', 'text', { comment: 'changed' })] })],
        deletions: { columns: [{ table: 'users', columns: ['id'] }] },
      });
      const users = tableNamed(run(before, patch), 'users');
      expect(JSON.stringify(before)).toBe(snapshot);
      expect(users.columns.map((c) => [c.name, c.comment])).toEqual([['email', 'changed']]);
      expect(users.columns[0]).not.toBe(tableNamed(before, 'users').columns[1]);
      const orders = tableNamed(
        run(before, patchOf({ tables: [patchTable('orders', { comment: 'x' })] })),
        'orders',
      );
      expect(orders.columns[0]).toBe(tableNamed(before, 'orders').columns[0]);
    });

    it('edits a column it created earlier in the same patch in place', () => {
      const patch = patchOf({
        tables: [
          patchTable('users', { columns: [patchColumn('nickname', 'text')] }),
          patchTable('users', { columns: [patchColumn('nickname', 'text', { comment: 'second entry' })] }),
        ],
      });
      const users = tableNamed(run(shopDocument(), patch), 'users');
      expect(users.columns.filter((c) => c.name === 'nickname').map((c) => c.comment)).toEqual([
        'second entry',
      ]);
    });

    it('shares the records the patch does not touch', () => {
      const before = shopDocument();
      const after = run(before, patchOf({ tables: [patchTable('tags')] }));
      expect(tableNamed(after, 'users')).toBe(tableNamed(before, 'users'));
    });
  });

  describe('additive strategy', () => {
    it('never touches an existing column', () => {
      const patch = patchOf({
        strategy: 'additive',
        tables: [
          patchTable('users', {
            comment: 'changed',
            columns: [patchColumn('email', 'text', { is_nullable: true })],
          }),
        ],
      });
      const after = run(shopDocument(), patch);
      expect(tableNamed(after, 'users')).toEqual(tableNamed(shopDocument(), 'users'));
    });

    it('adds new columns and indexes to an existing table', () => {
      const patch = patchOf({
        strategy: 'additive',
        tables: [
          patchTable('users', {
            columns: [patchColumn('name', 'varchar(80)')],
            indexes: [{ name: 'users_name', type: 'index', columns: ['name'] }],
          }),
        ],
      });
      const users = tableNamed(run(shopDocument(), patch), 'users');
      expect(users.columns.map((c) => c.name)).toEqual(['id', 'email', 'name']);
      expect(users.indexes.map((i) => i.name)).toEqual(['PRIMARY', 'users_email_unique', 'users_name']);
    });

    it('ignores old_name and deletions', () => {
      const patch = patchOf({
        strategy: 'additive',
        tables: [patchTable('customers', { old_name: 'users' })],
        deletions: { tables: ['orders'] },
      });
      const after = run(shopDocument(), patch);
      expect(after.tables.map((t) => t.name)).toEqual(['users', 'orders', 'customers']);
    });

    it('does not change the type of an existing relationship', () => {
      const patch = patchOf({
        strategy: 'additive',
        relationships: [
          {
            type: 'one-to-one',
            source_table: 'orders',
            source_column: 'user_id',
            target_table: 'users',
            target_column: 'id',
          },
        ],
      });
      expect(run(shopDocument(), patch).relationships).toEqual(shopDocument().relationships);
    });
  });

  describe('merge strategy', () => {
    it('updates only the fields a column entry carries', () => {
      const before = shopDocument();
      const patch = patchOf({
        tables: [patchTable('users', { columns: [patchColumn('email', 'varchar(120)', { default: "''" })] })],
      });
      const email = tableNamed(run(before, patch), 'users').columns[1]!;
      expect(email).toEqual({
        ...tableNamed(before, 'users').columns[1],
        driver_data_type_name: 'varchar',
        driver_data_type_params: { length: 120 },
        default: "''",
      });
    });

    it('updates the table comment, parent and frame when sent', () => {
      const before = documentOf({ ...shopDocument(), groups: [group('core')] });
      const patch = patchOf({
        tables: [
          patchTable('users', { comment: 'People', parent_name: 'core', left: 10, top: 20, width: 300 }),
        ],
      });
      const users = tableNamed(run(before, patch), 'users');
      expect(users).toMatchObject({
        comment: 'People',
        parent_uuid: 'grp-core',
        left: 10,
        top: 20,
        width: 300,
        height: 120,
      });
    });

    it('makes a column not nullable when it becomes a primary key without is_nullable', () => {
      const before = documentOf({ tables: [table('t', [column('code', { is_nullable: true })])] });
      const patch = patchOf({
        tables: [patchTable('t', { columns: [patchColumn('code', 'int', { is_primary_key: true })] })],
      });
      expect(tableNamed(run(before, patch), 't').columns[0]).toMatchObject({
        is_primary_key: true,
        is_nullable: false,
      });
    });

    it('replaces an index of the same name and keeps its uuid', () => {
      const patch = patchOf({
        tables: [
          patchTable('users', {
            indexes: [{ name: 'users_email_unique', type: 'index', columns: ['email', 'id'] }],
          }),
        ],
      });
      const index = tableNamed(run(shopDocument(), patch), 'users').indexes[1];
      expect(index).toEqual({
        uuid: 'idx-users-email',
        name: 'users_email_unique',
        type: 'index',
        columns: ['email', 'id'],
      });
    });

    it('updates the frame of an existing group', () => {
      const before = documentOf({ groups: [group('core', { left: 5 })] });
      const after = run(before, patchOf({ groups: [{ name: 'core', top: 70 }] }));
      expect(after.groups).toEqual([{ ...group('core'), left: 5, top: 70 }]);
    });
  });

  describe('new columns', () => {
    it('are nullable unless they are primary keys, with every other flag false', () => {
      const patch = patchOf({
        tables: [
          patchTable('t', {
            columns: [patchColumn('id', 'int', { is_primary_key: true }), patchColumn('note', 'text')],
          }),
        ],
      });
      const [id, text] = tableNamed(run(documentOf(), patch), 't').columns;
      expect(id).toMatchObject({
        is_primary_key: true,
        is_nullable: false,
        is_unique_key: false,
        default: null,
        comment: null,
      });
      expect(text).toMatchObject({
        is_primary_key: false,
        is_nullable: true,
        is_auto_increment: false,
        is_unsigned: false,
      });
    });

    it('take driver_data_type_name and driver_data_type_params from data_type', () => {
      const entry = {
        ...patchColumn('state', 'enum'),
        data_type: { name: 'enum', params: { values: ['a', 'b'] } },
      };
      const patch = patchOf({ tables: [patchTable('t', { columns: [entry] })] });
      const state = tableNamed(run(documentOf(), patch), 't').columns[0]!;
      expect([state.driver_data_type_name, state.driver_data_type_params]).toEqual([
        'enum',
        { values: ['a', 'b'] },
      ]);
      entry.data_type.params.values.push('c');
      expect(state.driver_data_type_params).toEqual({ values: ['a', 'b'] });
    });

    it('keep every flag the entry sends', () => {
      const flags = {
        is_auto_increment: true,
        is_unique_key: true,
        is_index: true,
        is_unsigned: true,
        is_nullable: false,
        default: '0',
        comment: 'c',
      };
      const patch = patchOf({ tables: [patchTable('t', { columns: [patchColumn('n', 'int', flags)] })] });
      expect(tableNamed(run(documentOf(), patch), 't').columns[0]).toMatchObject(flags);
    });
  });

  describe('renames', () => {
    it('keep the uuid of a renamed table and carry the name into relationships', () => {
      const after = run(
        shopDocument(),
        patchOf({ tables: [patchTable('customers', { old_name: 'users' })] }),
      );
      expect(tableNamed(after, 'customers').uuid).toBe('tbl-users');
      expect(after.relationships[0]).toMatchObject({
        uuid: 'rel-orders.user_id-users.id',
        target_table: 'customers',
      });
    });

    it('keep the uuid of a renamed column and carry the name into indexes and relationships', () => {
      const patch = patchOf({
        tables: [
          patchTable('orders', { columns: [patchColumn('customer_id', 'int', { old_name: 'user_id' })] }),
        ],
      });
      const after = run(shopDocument(), patch);
      const orders = tableNamed(after, 'orders');
      expect(orders.columns[1]).toMatchObject({ uuid: 'orders.user_id', name: 'customer_id' });
      expect(orders.indexes[0]!.columns).toEqual(['customer_id']);
      expect(after.relationships[0]).toMatchObject({ source_table: 'orders', source_column: 'customer_id' });
    });

    it('follow a table and a column renamed in the same patch', () => {
      const patch = patchOf({
        tables: [
          patchTable('accounts', {
            old_name: 'users',
            columns: [patchColumn('account_id', 'int', { old_name: 'id' })],
          }),
        ],
      });
      const [link] = run(shopDocument(), patch).relationships;
      expect(link).toMatchObject({ target_table: 'accounts', target_column: 'account_id' });
    });

    it('swap two table names', () => {
      const patch = patchOf({
        tables: [patchTable('orders', { old_name: 'users' }), patchTable('users', { old_name: 'orders' })],
      });
      const after = run(shopDocument(), patch);
      expect(tableNamed(after, 'orders').uuid).toBe('tbl-users');
      expect(tableNamed(after, 'users').uuid).toBe('tbl-orders');
      expect(after.relationships[0]).toMatchObject({ source_table: 'users', target_table: 'orders' });
    });

    it('keep group membership, which is by uuid', () => {
      const before = documentOf({ tables: [table('a', [], { parent_uuid: 'grp-g' })], groups: [group('g')] });
      const after = run(before, patchOf({ tables: [patchTable('b', { old_name: 'a' })] }));
      expect(tableNamed(after, 'b').parent_uuid).toBe('grp-g');
    });

    it('falls back to the name when old_name no longer exists', () => {
      const after = run(
        shopDocument(),
        patchOf({ tables: [patchTable('users', { old_name: 'people', comment: 'c' })] }),
      );
      expect(after.tables).toHaveLength(2);
      expect(tableNamed(after, 'users').comment).toBe('c');
    });
  });

  describe('deletions', () => {
    it('remove a table with its relationships', () => {
      const after = run(shopDocument(), patchOf({ deletions: { tables: ['users'] } }));
      expect(after.tables.map((t) => t.name)).toEqual(['orders']);
      expect(after.relationships).toEqual([]);
    });

    it('remove a column with the indexes and relationships that use it', () => {
      const after = run(
        shopDocument(),
        patchOf({ deletions: { columns: [{ table: 'orders', columns: ['user_id'] }] } }),
      );
      const orders = tableNamed(after, 'orders');
      expect(orders.columns.map((c) => c.name)).toEqual(['id']);
      expect(orders.indexes).toEqual([]);
      expect(after.relationships).toEqual([]);
    });

    it('accept a table uuid for columns and indexes', () => {
      const patch = patchOf({
        deletions: { indexes: [{ table: 'tbl-users', indexes: ['users_email_unique'] }] },
      });
      expect(tableNamed(run(shopDocument(), patch), 'users').indexes.map((i) => i.name)).toEqual(['PRIMARY']);
    });

    it('remove a relationship written in either direction', () => {
      const endpoints = {
        source_table: 'users',
        source_column: 'id',
        target_table: 'orders',
        target_column: 'user_id',
      };
      expect(
        run(shopDocument(), patchOf({ deletions: { relationships: [endpoints] } })).relationships,
      ).toEqual([]);
    });

    it('ungroup the members of a group deleted without its children', () => {
      const before = documentOf({
        tables: [table('a', [], { parent_uuid: 'grp-g' })],
        groups: [group('g'), group('inner', { parent_uuid: 'grp-g' })],
        sticky_notes: [note('n1', 'hi', { parent_uuid: 'grp-g' })],
      });
      const after = run(before, patchOf({ deletions: { groups: [{ name: 'g', delete_children: false }] } }));
      expect(after.groups.map((g) => [g.name, g.parent_uuid])).toEqual([['inner', null]]);
      expect(after.tables[0]!.parent_uuid).toBeNull();
      expect(after.sticky_notes[0]!.parent_uuid).toBeNull();
    });

    it('delete the members, notes and nested groups of a group deleted with its children', () => {
      const before = documentOf({
        tables: [
          table('a', [column('id')], { parent_uuid: 'grp-g' }),
          table('b', [column('a_id')], { parent_uuid: 'grp-inner' }),
          table('c', [column('id')]),
        ],
        relationships: [relationship('b.a_id', 'c.id')],
        groups: [group('g'), group('inner', { parent_uuid: 'grp-g' })],
        sticky_notes: [note('n1', 'hi', { parent_uuid: 'grp-inner' })],
      });
      const after = run(before, patchOf({ deletions: { groups: [{ name: 'g', delete_children: true }] } }));
      expect(after.tables.map((t) => t.name)).toEqual(['c']);
      expect([after.groups, after.sticky_notes, after.relationships]).toEqual([[], [], []]);
    });

    it('remove sticky notes by uuid', () => {
      const before = documentOf({ sticky_notes: [note('n1', 'a'), note('n2', 'b')] });
      expect(
        run(before, patchOf({ deletions: { sticky_notes: ['n1'] } })).sticky_notes.map((n) => n.uuid),
      ).toEqual(['n2']);
    });

    it('skip references that no longer resolve', () => {
      const patch = patchOf({
        deletions: { tables: ['gone'], columns: [{ table: 'gone', columns: ['x'] }], sticky_notes: ['nope'] },
      });
      expect(run(shopDocument(), patch)).toEqual(shopDocument());
    });

    it('resolve a table by the new name the same patch gives it', () => {
      const patch = patchOf({
        tables: [patchTable('people', { old_name: 'users' })],
        deletions: { columns: [{ table: 'people', columns: ['email'] }] },
      });
      expect(tableNamed(run(shopDocument(), patch), 'people').columns.map((c) => c.name)).toEqual(['id']);
    });
  });

  describe('relationships', () => {
    it('store one-to-many the other way round, as many-to-one from the foreign-key side', () => {
      const patch = patchOf({
        tables: [patchTable('items', { left: 0, top: 500, columns: [patchColumn('order_id')] })],
        relationships: [
          {
            type: 'one-to-many',
            source_table: 'orders',
            source_column: 'id',
            target_table: 'items',
            target_column: 'order_id',
          },
        ],
      });
      expect(run(shopDocument(), patch).relationships[1]).toEqual({
        uuid: 'new-3',
        name: null,
        type: 'many-to-one',
        source_table: 'items',
        source_column: 'order_id',
        target_table: 'orders',
        target_column: 'id',
        on_delete: null,
        on_update: null,
      });
    });

    it('keep the written direction of one-to-one', () => {
      const patch = patchOf({
        relationships: [
          {
            type: 'one-to-one',
            source_table: 'users',
            source_column: 'id',
            target_table: 'orders',
            target_column: 'id',
          },
        ],
      });
      expect(run(shopDocument(), patch).relationships[1]).toMatchObject({
        type: 'one-to-one',
        source_table: 'users',
        target_table: 'orders',
      });
    });

    it('update the type of the stored link under merge, whichever way it is written', () => {
      const patch = patchOf({
        relationships: [
          {
            type: 'one-to-one',
            source_table: 'users',
            source_column: 'id',
            target_table: 'orders',
            target_column: 'user_id',
          },
        ],
      });
      const after = run(shopDocument(), patch);
      expect(after.relationships).toHaveLength(1);
      expect(after.relationships[0]).toMatchObject({
        uuid: 'rel-orders.user_id-users.id',
        type: 'one-to-one',
        source_table: 'users',
      });
    });

    it('do not duplicate a link that is already stored', () => {
      const patch = patchOf({
        relationships: [
          {
            type: 'one-to-many',
            source_table: 'users',
            source_column: 'id',
            target_table: 'orders',
            target_column: 'user_id',
          },
        ],
      });
      expect(run(shopDocument(), patch).relationships).toEqual(shopDocument().relationships);
    });
  });

  describe('groups and sticky notes', () => {
    it('resolve parent_name to a group created in the same patch', () => {
      const patch = patchOf({
        groups: [{ name: 'billing' }],
        tables: [patchTable('invoices', { parent_name: 'billing' })],
      });
      const after = run(documentOf(), patch);
      expect(tableNamed(after, 'invoices').parent_uuid).toBe(after.groups[0]!.uuid);
    });

    it('use parent_uuid as it is', () => {
      const patch = patchOf({ tables: [patchTable('t', { parent_uuid: 'grp-elsewhere' })] });
      expect(tableNamed(run(documentOf(), patch), 't').parent_uuid).toBe('grp-elsewhere');
    });

    it('add every sticky note entry as a new note', () => {
      const before = documentOf({ groups: [group('g')], sticky_notes: [note('n1', 'same')] });
      const patch = patchOf({ sticky_notes: [{ content: 'same', parent_name: 'g', left: 1, top: 2 }] });
      const after = run(before, patch);
      expect(after.sticky_notes[1]).toEqual({
        uuid: 'new-1',
        content: 'same',
        color: null,
        parent_uuid: 'grp-g',
        left: 1,
        top: 2,
        width: 240,
        height: 160,
      });
    });
  });

  describe('positions', () => {
    it('put a table where the patch sends it, with an estimated size', () => {
      const patch = patchOf({
        tables: [patchTable('t', { left: 1234, top: -50, columns: [patchColumn('a'), patchColumn('b')] })],
      });
      expect(tableNamed(run(documentOf(), patch), 't')).toMatchObject({
        left: 1234,
        top: -50,
        width: 180,
        height: 36 + 48 + 8,
      });
    });
  });
});
