import { apply } from '../src/apply';
import { diff } from '../src/diff';
import { renderMarkdown } from '../src/markdown';
import type { DiagramDocument } from '../src/model';
import { normalize } from '../src/normalize';
import { validate } from '../src/validate';
import { column, documentOf, sequentialUuids, table } from './apply-fixtures';

const integer = (name: string, fields: Parameters<typeof column>[1] = {}) =>
  column(name, { driver_data_type_name: 'integer', ...fields });

/** users(id PK, tenant_id, email unique), with the records an import brings: users_pkey and users_email_key. */
function users(): DiagramDocument {
  return documentOf({
    driver: 'pgsql',
    tables: [
      table(
        'users',
        [
          integer('id', { is_primary_key: true }),
          integer('tenant_id'),
          integer('email', { is_unique_key: true }),
        ],
        {
          indexes: [
            { uuid: 'idx-pkey', name: 'users_pkey', type: 'primary', columns: ['id'] },
            { uuid: 'idx-email', name: 'users_email_key', type: 'unique', columns: ['email'] },
          ],
        },
      ),
    ],
  });
}

function applied(document: DiagramDocument, input: object): DiagramDocument {
  const result = validate(normalize(input).patch, document, document.driver, 'propose');
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return apply(document, result.patch, { newUuid: sequentialUuids() }).document;
}

const usersTable = (document: DiagramDocument) => document.tables.find((t) => t.name === 'users')!;

describe('one truth for keys', () => {
  describe('When the primary key changes through the column flags or through the index entry', () => {
    const byFlags = {
      strategy: 'merge',
      tables: [{ name: 'users', columns: [{ name: 'tenant_id', type: 'int', is_primary_key: true }] }],
    };
    const byIndex = {
      strategy: 'merge',
      tables: [
        { name: 'users', indexes: [{ name: 'users_pkey', type: 'primary', columns: ['id', 'tenant_id'] }] },
      ],
    };

    it('should give identical documents, so diff and Markdown agree', () => {
      const base = users();
      const flags = applied(base, byFlags);
      const index = applied(base, byIndex);
      expect(index).toEqual(flags);
      expect(usersTable(flags).indexes[0]).toEqual({
        uuid: 'idx-pkey',
        name: 'users_pkey',
        type: 'primary',
        columns: ['id', 'tenant_id'],
      });
      expect(
        usersTable(flags)
          .columns.filter((c) => c.is_primary_key)
          .map((c) => c.name),
      ).toEqual(['id', 'tenant_id']);
      expect(usersTable(flags).columns[1]!.is_nullable).toBe(false);
      expect(diff(base, index)).toEqual(diff(base, flags));
      expect(renderMarkdown(index)).toBe(renderMarkdown(flags));
      expect(renderMarkdown(index)).toContain('- users_pkey: primary (id, tenant_id)');
    });

    it('should unmark columns an index entry leaves out of the key', () => {
      const narrowed = applied(users(), {
        strategy: 'merge',
        tables: [
          { name: 'users', indexes: [{ name: 'users_pkey', type: 'primary', columns: ['tenant_id'] }] },
        ],
      });
      expect(usersTable(narrowed).columns.map((c) => [c.name, c.is_primary_key])).toEqual([
        ['id', false],
        ['tenant_id', true],
        ['email', false],
      ]);
    });

    it('should remove the primary record when no column is marked any more, and clear the flags when the record is deleted', () => {
      const unmarked = applied(users(), {
        strategy: 'merge',
        tables: [{ name: 'users', columns: [{ name: 'id', type: 'int', is_primary_key: false }] }],
      });
      const deleted = applied(users(), {
        strategy: 'merge',
        deletions: { indexes: [{ table: 'users', indexes: ['users_pkey'] }] },
      });
      expect(deleted).toEqual(unmarked);
      expect(usersTable(deleted).indexes.map((i) => i.name)).toEqual(['users_email_key']);
      expect(usersTable(deleted).columns.some((c) => c.is_primary_key)).toBe(false);
    });

    it('should mark the columns of a primary index entry on a new table', () => {
      const created = applied(users(), {
        strategy: 'merge',
        tables: [
          {
            name: 'memberships',
            columns: [
              { name: 'user_id', type: 'int' },
              { name: 'team_id', type: 'int' },
            ],
            indexes: [{ name: 'memberships_pkey', type: 'primary', columns: ['user_id', 'team_id'] }],
          },
        ],
      });
      const memberships = created.tables.find((t) => t.name === 'memberships')!;
      expect(memberships.columns.map((c) => [c.is_primary_key, c.is_nullable])).toEqual([
        [true, false],
        [true, false],
      ]);
    });
  });

  describe('When a single-column unique key changes through the flag or through its index record', () => {
    it('should give identical documents for clearing the flag and deleting the record', () => {
      const base = users();
      const flag = applied(base, {
        strategy: 'merge',
        tables: [{ name: 'users', columns: [{ name: 'email', type: 'int', is_unique_key: false }] }],
      });
      const record = applied(base, {
        strategy: 'merge',
        deletions: { indexes: [{ table: 'users', indexes: ['users_email_key'] }] },
      });
      expect(record).toEqual(flag);
      expect(usersTable(flag).indexes.map((i) => i.name)).toEqual(['users_pkey']);
      expect(usersTable(flag).columns[2]!.is_unique_key).toBe(false);
      expect(renderMarkdown(record)).toBe(renderMarkdown(flag));
    });

    it('should mark the column of a one-column unique index entry, and unmark it when the entry makes it a plain index', () => {
      const marked = applied(users(), {
        strategy: 'merge',
        tables: [
          { name: 'users', indexes: [{ name: 'users_tenant_key', type: 'unique', columns: ['tenant_id'] }] },
        ],
      });
      expect(usersTable(marked).columns[1]!.is_unique_key).toBe(true);
      const plain = applied(users(), {
        strategy: 'merge',
        tables: [
          { name: 'users', indexes: [{ name: 'users_email_key', type: 'index', columns: ['email'] }] },
        ],
      });
      expect(usersTable(plain).columns[2]!.is_unique_key).toBe(false);
    });
  });
});
