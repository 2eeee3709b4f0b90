import { apply } from '../src/apply';
import type { DiagramDocument } from '../src/model';
import type { Patch } from '../src/patch-types';
import { type RebaseResult, rebaseConflictMessage, rebasePatch } from '../src/rebase';
import {
  column,
  deepFreeze,
  patchColumn,
  patchOf,
  patchTable,
  sequentialUuids,
  shopDocument,
  table,
  tableNamed,
} from './apply-fixtures';

/** The document after another change was applied to it (as another proposal or an editor save would). */
function changed(base: DiagramDocument, patch: Patch): DiagramDocument {
  return apply(base, patch, { newUuid: sequentialUuids('between') }).document;
}

function conflictsOf(result: RebaseResult) {
  if (result.ok) throw new Error('expected a conflict');
  return result.conflicts;
}

const retypeEmail = patchOf({
  tables: [patchTable('users', { columns: [patchColumn('email', 'varchar(320)')] })],
});

describe('rebasePatch', () => {
  describe('When the entities the patch touches did not change in between', () => {
    it('should return the patch unchanged for the current document when nothing changed', () => {
      const base = deepFreeze(shopDocument());
      expect(rebasePatch(retypeEmail, base, base)).toEqual({ ok: true, patch: retypeEmail });
      expect(rebasePatch(retypeEmail, base, structuredClone(base))).toEqual({ ok: true, patch: retypeEmail });
    });

    it('should rebase disjoint edits: another column of the same table, another table, a new table', () => {
      const base = deepFreeze(shopDocument());
      const current = changed(
        base,
        patchOf({
          tables: [
            patchTable('orders', {
              columns: [patchColumn('user_id', 'bigint'), patchColumn('total', 'int')],
            }),
            patchTable('users', { columns: [patchColumn('id', 'int', { comment: 'key' })] }),
            patchTable('audit', { columns: [patchColumn('id')] }),
          ],
        }),
      );
      const result = rebasePatch(retypeEmail, base, current);
      expect(result).toEqual({ ok: true, patch: retypeEmail });
      const email = tableNamed(apply(current, retypeEmail).document, 'users').columns.find(
        (c) => c.name === 'email',
      );
      expect(email).toMatchObject({ uuid: 'users.email', driver_data_type_params: { length: 320 } });
    });

    it('should ignore layout changes in between: positions, sizes, colors and group membership', () => {
      const base = deepFreeze(shopDocument());
      const current = structuredClone(base) as DiagramDocument;
      const users = tableNamed(current, 'users');
      Object.assign(users, { left: 900, top: 40, width: 300, color: '#ff0000' });
      expect(rebasePatch(retypeEmail, base, current).ok).toBe(true);
    });

    it('should rebase a relationship onto a key whose comment alone changed', () => {
      const base = deepFreeze(shopDocument());
      const link = patchOf({
        tables: [patchTable('invoices', { columns: [patchColumn('id'), patchColumn('user_id')] })],
        relationships: [
          {
            source_table: 'invoices',
            source_column: 'user_id',
            target_table: 'users',
            target_column: 'id',
            type: 'many-to-one',
          },
        ],
      });
      const current = changed(
        base,
        patchOf({
          tables: [patchTable('users', { columns: [patchColumn('id', 'int', { comment: 'the key' })] })],
        }),
      );
      expect(rebasePatch(link, base, current).ok).toBe(true);
    });

    it('should rebase a column rename over a change of a relationship that only follows the rename', () => {
      const base = deepFreeze(shopDocument());
      const rename = patchOf({
        tables: [
          patchTable('orders', { columns: [patchColumn('customer_id', 'int', { old_name: 'user_id' })] }),
        ],
      });
      const current = structuredClone(base) as DiagramDocument;
      current.relationships[0]!.on_delete = 'cascade';
      expect(rebasePatch(rename, base, current).ok).toBe(true);
    });

    it('should rebase an additive patch restating a column that changed (it changes nothing existing)', () => {
      const base = deepFreeze(shopDocument());
      const additive: Patch = { ...retypeEmail, strategy: 'additive' };
      const current = changed(base, retypeEmail);
      expect(rebasePatch(additive, base, current).ok).toBe(true);
    });
  });

  describe('When the same entity was edited in between', () => {
    it('should refuse, naming the column and the fields that changed', () => {
      const base = deepFreeze(shopDocument());
      const current = changed(
        base,
        patchOf({
          tables: [patchTable('users', { columns: [patchColumn('email', 'int', { is_nullable: true })] })],
        }),
      );
      expect(conflictsOf(rebasePatch(retypeEmail, base, current))).toEqual([
        {
          entity: 'column',
          table: 'users',
          column: 'email',
          change: 'changed',
          reason: 'column users.email was changed (is_nullable) after the patch was made',
        },
      ]);
    });

    it('should refuse a restated column under merge, which would undo the change made in between', () => {
      const base = deepFreeze(shopDocument());
      const restate = patchOf({ tables: [patchTable('users', { columns: [patchColumn('email', 'int')] })] });
      expect(conflictsOf(rebasePatch(restate, base, changed(base, retypeEmail)))[0]).toMatchObject({
        entity: 'column',
        column: 'email',
        change: 'changed',
      });
    });

    it('should refuse deleting a relationship whose actions changed in between', () => {
      const base = deepFreeze(shopDocument());
      const unlink = patchOf({
        deletions: {
          relationships: [
            { source_table: 'orders', source_column: 'user_id', target_table: 'users', target_column: 'id' },
          ],
        },
      });
      const current = structuredClone(base) as DiagramDocument;
      current.relationships[0]!.on_delete = 'cascade';
      expect(conflictsOf(rebasePatch(unlink, base, current))).toEqual([
        expect.objectContaining({
          entity: 'relationship',
          name: 'orders.user_id -> users.id',
          change: 'changed',
        }),
      ]);
    });

    it('should refuse a relationship to a key whose type changed in between', () => {
      const base = deepFreeze(shopDocument());
      const link = patchOf({
        tables: [patchTable('invoices', { columns: [patchColumn('id'), patchColumn('user_id')] })],
        relationships: [
          {
            source_table: 'invoices',
            source_column: 'user_id',
            target_table: 'users',
            target_column: 'id',
            type: 'many-to-one',
          },
        ],
      });
      const current = changed(
        base,
        patchOf({ tables: [patchTable('users', { columns: [patchColumn('id', 'bigint')] })] }),
      );
      expect(conflictsOf(rebasePatch(link, base, current))).toEqual([
        expect.objectContaining({ entity: 'column', table: 'users', column: 'id', change: 'changed' }),
      ]);
    });
  });

  describe('When an entity the patch uses was renamed in between', () => {
    it('should refuse a change of users.name after users.name was renamed (the stale proposal)', () => {
      const base = deepFreeze(shopDocument());
      const withName = changed(
        base,
        patchOf({ tables: [patchTable('users', { columns: [patchColumn('name', 'varchar(48)')] })] }),
      );
      const proposalB = patchOf({
        tables: [patchTable('users', { columns: [patchColumn('name', 'varchar(100)')] })],
      });
      const proposalA = patchOf({
        tables: [
          patchTable('users', { columns: [patchColumn('full_name', 'varchar(48)', { old_name: 'name' })] }),
        ],
      });
      const conflicts = conflictsOf(rebasePatch(proposalB, withName, changed(withName, proposalA)));
      expect(conflicts).toEqual([
        {
          entity: 'column',
          table: 'users',
          column: 'name',
          change: 'renamed',
          reason: 'column users.name was renamed to full_name after the patch was made',
        },
      ]);
      expect(rebaseConflictMessage(conflicts)).toBe(
        'The diagram changed since the version this change was made on: column users.name was renamed to full_name after the patch was made',
      );
    });

    it('should refuse adding a column to a table renamed in between', () => {
      const base = deepFreeze(shopDocument());
      const addColumn = patchOf({ tables: [patchTable('users', { columns: [patchColumn('nickname')] })] });
      const current = changed(base, patchOf({ tables: [patchTable('customers', { old_name: 'users' })] }));
      expect(conflictsOf(rebasePatch(addColumn, base, current))).toEqual([
        expect.objectContaining({
          entity: 'table',
          table: 'users',
          change: 'renamed',
          reason: expect.stringContaining('renamed to customers'),
        }),
      ]);
    });

    it('should refuse an additive patch restating a column that was renamed (it would add it again)', () => {
      const base = deepFreeze(shopDocument());
      const additive: Patch = { ...retypeEmail, strategy: 'additive' };
      const current = changed(
        base,
        patchOf({
          tables: [patchTable('users', { columns: [patchColumn('mail', 'int', { old_name: 'email' })] })],
        }),
      );
      expect(conflictsOf(rebasePatch(additive, base, current))[0]).toMatchObject({
        entity: 'column',
        change: 'renamed',
      });
    });
  });

  describe('When an entity the patch uses was dropped in between', () => {
    it('should refuse a change of a dropped column', () => {
      const base = deepFreeze(shopDocument());
      const current = changed(
        base,
        patchOf({ deletions: { columns: [{ table: 'users', columns: ['email'] }] } }),
      );
      expect(conflictsOf(rebasePatch(retypeEmail, base, current))).toEqual([
        {
          entity: 'column',
          table: 'users',
          column: 'email',
          change: 'dropped',
          reason: 'column users.email was dropped after the patch was made',
        },
      ]);
    });

    it('should refuse every entity of a dropped table the patch uses', () => {
      const base = deepFreeze(shopDocument());
      const current = changed(base, patchOf({ deletions: { tables: ['users'] } }));
      const conflicts = conflictsOf(rebasePatch(retypeEmail, base, current));
      expect(conflicts.map((c) => [c.entity, c.change])).toEqual(
        expect.arrayContaining([
          ['table', 'dropped'],
          ['column', 'dropped'],
        ]),
      );
    });

    it('should refuse an index entry whose index was dropped', () => {
      const base = deepFreeze(shopDocument());
      const reindex = patchOf({
        tables: [
          patchTable('users', {
            indexes: [{ name: 'users_email_unique', type: 'index', columns: ['email'] }],
          }),
        ],
      });
      const current = changed(
        base,
        patchOf({ deletions: { indexes: [{ table: 'users', indexes: ['users_email_unique'] }] } }),
      );
      expect(conflictsOf(rebasePatch(reindex, base, current))).toEqual([
        expect.objectContaining({
          entity: 'index',
          table: 'users',
          name: 'users_email_unique',
          change: 'dropped',
        }),
      ]);
    });
  });

  describe('When a name the patch introduces was introduced in between', () => {
    it('should refuse a new column whose name another change added', () => {
      const base = deepFreeze(shopDocument());
      const addColumn = patchOf({
        tables: [patchTable('users', { columns: [patchColumn('nickname', 'varchar(20)')] })],
      });
      const current = changed(
        base,
        patchOf({ tables: [patchTable('users', { columns: [patchColumn('nickname', 'int')] })] }),
      );
      expect(conflictsOf(rebasePatch(addColumn, base, current))).toEqual([
        {
          entity: 'column',
          table: 'users',
          column: 'nickname',
          change: 'added',
          reason: 'column users.nickname was added after the patch was made, and the patch adds one too',
        },
      ]);
    });

    it('should refuse a new table whose name another change took by a rename', () => {
      const base = deepFreeze(shopDocument());
      const addTable = patchOf({ tables: [patchTable('customers', { columns: [patchColumn('id')] })] });
      const current = changed(base, patchOf({ tables: [patchTable('customers', { old_name: 'users' })] }));
      const conflicts = conflictsOf(rebasePatch(addTable, base, current));
      expect(conflicts).toEqual([
        expect.objectContaining({ entity: 'table', table: 'customers', change: 'added' }),
      ]);
    });

    it('should refuse a link between two columns linked in between', () => {
      const base = deepFreeze({
        ...shopDocument(),
        tables: [...shopDocument().tables, table('notes', [column('id'), column('user_id')])],
      });
      const link = patchOf({
        relationships: [
          {
            source_table: 'notes',
            source_column: 'user_id',
            target_table: 'users',
            target_column: 'id',
            type: 'one-to-one',
          },
        ],
      });
      const current = changed(base, {
        ...link,
        relationships: [{ ...link.relationships[0]!, type: 'many-to-one' }],
      });
      expect(conflictsOf(rebasePatch(link, base, current))).toEqual([
        expect.objectContaining({
          entity: 'relationship',
          name: 'notes.user_id -> users.id',
          change: 'added',
        }),
      ]);
    });
  });

  describe('When a deletion would take along more than it did at the base', () => {
    it('should refuse dropping a column that an index added in between uses', () => {
      const base = deepFreeze(shopDocument());
      const drop = patchOf({ deletions: { columns: [{ table: 'users', columns: ['email'] }] } });
      const current = changed(
        base,
        patchOf({
          tables: [
            patchTable('users', {
              indexes: [{ name: 'users_email_lookup', type: 'index', columns: ['email'] }],
            }),
          ],
        }),
      );
      expect(conflictsOf(rebasePatch(drop, base, current))).toEqual([
        expect.objectContaining({
          entity: 'column',
          column: 'email',
          change: 'changed',
          reason: expect.stringContaining('(indexes)'),
        }),
      ]);
    });

    it('should refuse dropping a table that gained a column in between', () => {
      const base = deepFreeze(shopDocument());
      const drop = patchOf({ deletions: { tables: ['orders'] } });
      const current = changed(
        base,
        patchOf({ tables: [patchTable('orders', { columns: [patchColumn('total')] })] }),
      );
      expect(conflictsOf(rebasePatch(drop, base, current))).toEqual([
        expect.objectContaining({ entity: 'table', table: 'orders', change: 'changed' }),
      ]);
    });

    it('should refuse dropping a column that a relationship added in between links', () => {
      const base = deepFreeze({
        ...shopDocument(),
        tables: [...shopDocument().tables, table('notes', [column('id'), column('user_id')])],
      });
      const drop = patchOf({ deletions: { columns: [{ table: 'notes', columns: ['user_id'] }] } });
      const current = changed(
        base,
        patchOf({
          relationships: [
            {
              source_table: 'notes',
              source_column: 'user_id',
              target_table: 'users',
              target_column: 'id',
              type: 'many-to-one',
            },
          ],
        }),
      );
      expect(conflictsOf(rebasePatch(drop, base, current))).toEqual([
        expect.objectContaining({
          entity: 'column',
          table: 'notes',
          column: 'user_id',
          reason: expect.stringContaining('(relationships)'),
        }),
      ]);
    });
  });
});
