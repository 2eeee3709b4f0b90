import { apply } from '../src/apply';
import { diff, isEmptyDiff } from '../src/diff';
import {
  column,
  documentOf,
  group,
  note,
  patchColumn,
  patchOf,
  patchTable,
  sequentialUuids,
  shopDocument,
  table,
} from './apply-fixtures';

describe('diff', () => {
  it('is empty for a document compared with itself or a copy', () => {
    const document = shopDocument();
    expect(isEmptyDiff(diff(document, document))).toBe(true);
    expect(isEmptyDiff(diff(document, structuredClone(document)))).toBe(true);
  });

  it('shows a renamed table as a change of name, matched by uuid', () => {
    const { diff: result } = apply(
      shopDocument(),
      patchOf({ tables: [patchTable('customers', { old_name: 'users' })] }),
    );
    expect(result.tables).toEqual({
      added: [],
      changed: [
        {
          uuid: 'tbl-users',
          name: 'customers',
          changes: [{ field: 'name', before: 'users', after: 'customers' }],
        },
      ],
      removed: [],
    });
    expect(result.relationships.changed).toEqual([
      {
        uuid: 'rel-orders.user_id-users.id',
        changes: [{ field: 'target_table', before: 'users', after: 'customers' }],
      },
    ]);
  });

  it('lists added, changed and removed columns with their table, before and after values', () => {
    const patch = patchOf({
      tables: [
        patchTable('users', {
          columns: [patchColumn('email', 'varchar(100)', { is_nullable: true }), patchColumn('name')],
        }),
      ],
      deletions: { columns: [{ table: 'orders', columns: ['user_id'] }] },
    });
    const { diff: result } = apply(shopDocument(), patch, { newUuid: sequentialUuids() });
    expect(result.columns.added).toEqual([
      {
        table_uuid: 'tbl-users',
        table: 'users',
        record: expect.objectContaining({ uuid: 'new-1', name: 'name' }),
      },
    ]);
    expect(result.columns.changed).toEqual([
      {
        table_uuid: 'tbl-users',
        table: 'users',
        uuid: 'users.email',
        name: 'email',
        changes: [
          { field: 'driver_data_type_name', before: 'int', after: 'varchar' },
          { field: 'driver_data_type_params', before: null, after: { length: 100 } },
          { field: 'is_nullable', before: false, after: true },
        ],
      },
    ]);
    expect(result.columns.removed.map((r) => [r.table, r.record.name])).toEqual([['orders', 'user_id']]);
    expect(result.indexes.removed.map((r) => r.record.name)).toEqual(['orders_user_id']);
    expect(result.relationships.removed.map((r) => r.uuid)).toEqual(['rel-orders.user_id-users.id']);
  });

  it('lists columns of an added table with the table, not as added columns', () => {
    const { diff: result } = apply(
      shopDocument(),
      patchOf({ tables: [patchTable('tags', { columns: [patchColumn('id')] })] }),
    );
    expect(result.tables.added.map((t) => t.name)).toEqual(['tags']);
    expect(result.columns.added).toEqual([]);
  });

  it('covers groups and sticky notes', () => {
    const before = documentOf({ groups: [group('old')], sticky_notes: [note('n1', 'bye')] });
    const patch = patchOf({
      groups: [{ name: 'new', left: 1, top: 1 }],
      sticky_notes: [{ content: 'hi', left: 0, top: 900 }],
      deletions: { groups: [{ name: 'old', delete_children: false }], sticky_notes: ['n1'] },
    });
    const { diff: result } = apply(before, patch, { newUuid: sequentialUuids() });
    expect([result.groups.added.map((g) => g.name), result.groups.removed.map((g) => g.name)]).toEqual([
      ['new'],
      ['old'],
    ]);
    expect([
      result.sticky_notes.added.map((n) => n.content),
      result.sticky_notes.removed.map((n) => n.content),
    ]).toEqual([['hi'], ['bye']]);
  });

  it('lists canvas changes of a table field by field', () => {
    const before = shopDocument();
    const after = {
      ...before,
      tables: [{ ...before.tables[0]!, left: 99, color: '#fff' }, before.tables[1]!],
    };
    expect(diff(before, after).tables.changed[0]!.changes).toEqual([
      { field: 'color', before: null, after: '#fff' },
      { field: 'left', before: 0, after: 99 },
    ]);
  });

  it('orders every section deterministically, whatever the order of the records', () => {
    const before = documentOf();
    const tables = ['b', 'a', 'C'].map((name) => table(name, [column('id')]));
    const forward = diff(before, documentOf({ tables }));
    const backward = diff(before, documentOf({ tables: [...tables].reverse() }));
    expect(forward).toEqual(backward);
    expect(forward.tables.added.map((t) => t.name)).toEqual(['C', 'a', 'b']);
  });
});
