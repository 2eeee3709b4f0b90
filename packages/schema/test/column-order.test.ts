// Column order beside a patch: each list must name every column of its table once; applied by name;
// computed between two documents only for tables whose columns really moved (new columns last do not count).
import {
  apply,
  applyColumnOrder,
  columnOrderBetween,
  type DiagramDocument,
  emptyDocument,
  normalize,
  parseColumnOrder,
  validate,
} from '../src';

function applied(document: DiagramDocument, raw: unknown): DiagramDocument {
  const checked = validate(normalize(raw).patch, document, 'pgsql', 'propose');
  if (!checked.ok) throw new Error(checked.message);
  return apply(document, checked.patch).document;
}

const users = () =>
  applied(emptyDocument('pgsql'), {
    strategy: 'merge',
    tables: [
      {
        name: 'users',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'email', type: 'text' },
          { name: 'name', type: 'text' },
        ],
      },
    ],
  });

const names = (document: DiagramDocument) => document.tables[0]!.columns.map((column) => column.name);

describe('applyColumnOrder', () => {
  it('should put the columns in the given order and keep their records', () => {
    const document = users();
    const result = applyColumnOrder(document, { users: ['name', 'id', 'email'] });
    if (!result.ok) throw new Error(result.message);
    expect(names(result.value)).toEqual(['name', 'id', 'email']);
    expect(result.value.tables[0]!.columns[1]).toBe(document.tables[0]!.columns[0]);
    expect(names(document)).toEqual(['id', 'email', 'name']);
  });

  it.each([
    [{ users: ['id', 'email'] }, 'must name each column of users exactly once'],
    [{ users: ['id', 'email', 'email'] }, 'must name each column of users exactly once'],
    [{ users: ['id', 'email', 'nick'] }, 'must name each column of users exactly once'],
    [{ people: ['id'] }, 'the diagram has no table people'],
  ])('should refuse %j: %s', (order, message) => {
    const result = applyColumnOrder(users(), order);
    expect(result.ok ? '' : result.message).toBe(message);
  });

  it('should refuse what is not a map of name lists', () => {
    expect(parseColumnOrder({ users: 'id' }).ok).toBe(false);
    expect(parseColumnOrder({ users: [1] }).ok).toBe(false);
    expect(parseColumnOrder([]).ok).toBe(false);
  });
});

describe('columnOrderBetween', () => {
  it('should name a table whose columns moved, and not one that only gained a column at the end', () => {
    const before = users();
    const moved = applyColumnOrder(before, { users: ['email', 'id', 'name'] });
    if (!moved.ok) throw new Error(moved.message);
    expect(columnOrderBetween(before, moved.value)).toEqual({ users: ['email', 'id', 'name'] });
    const grown = applied(before, {
      strategy: 'merge',
      tables: [{ name: 'users', columns: [{ name: 'bio', type: 'text' }] }],
    });
    expect(columnOrderBetween(before, grown)).toBeUndefined();
  });
});
