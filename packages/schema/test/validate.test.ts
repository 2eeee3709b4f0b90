import { normalize } from '../src/normalize';
import { MAX_PROBLEMS } from '../src/patch-types';
import { validate } from '../src/validate';
import { check, GROUP_UUID, merge, NOTE_UUID, problemsOf, sampleDocument } from './validate-fixtures';

const id = { name: 'id', type: 'int' };
const newTable = (name: string, extra: object = {}) => ({ name, columns: [id], ...extra });
const messages = (result: ReturnType<typeof check>) => problemsOf(result).map((problem) => problem.message);
const paths = (result: ReturnType<typeof check>) => problemsOf(result).map((problem) => problem.path);

describe('validate', () => {
  describe('input', () => {
    it('refuses input that is not a JSON object with invalid_schema, saying what it was', () => {
      const result = check('[1, 2]');
      expect(result).toMatchObject({ ok: false, code: 'invalid_schema' });
      expect(messages(result)).toEqual([
        'patch must be a JSON object: the patch is a string holding an array, not a JSON object',
      ]);
    });

    it('refuses an unparseable string with invalid_schema', () => {
      expect(messages(check('{"strategy": '))[0]).toMatch(/^patch must be a JSON object: .*not valid JSON/);
    });
  });

  describe('strategy', () => {
    it('requires a strategy', () => {
      expect(problemsOf(check({ tables: [newTable('t')] }))).toEqual([
        { path: 'strategy', message: 'is required: merge or additive' },
      ]);
    });

    it('refuses a strategy other than merge and additive', () => {
      expect(paths(check({ strategy: 'replace', tables: [newTable('t')] }))).toEqual(['strategy']);
    });

    it('refuses deletions unless the strategy is merge', () => {
      const result = check({ strategy: 'additive', deletions: { tables: ['posts'] } });
      expect(problemsOf(result)).toEqual([
        { path: 'deletions', message: 'need strategy merge (additive only adds)' },
      ]);
    });

    it('accepts an empty deletions section with additive', () => {
      expect(check({ strategy: 'additive', tables: [newTable('t')], deletions: {} }).ok).toBe(true);
    });

    it('refuses renames under additive, which only adds', () => {
      const result = check({ strategy: 'additive', tables: [newTable('people', { old_name: 'users' })] });
      expect(messages(result)).toEqual(['renaming table "users" needs strategy merge (additive only adds)']);
    });
  });

  describe('create mode', () => {
    it('refuses a patch that defines no tables with no_tables', () => {
      expect(check({ strategy: 'merge', groups: [{ name: 'g' }] }, { mode: 'create' })).toMatchObject({
        ok: false,
        code: 'no_tables',
        problems: [{ path: 'tables' }],
      });
      expect(check({ strategy: 'merge', tables: [] }, { mode: 'create' })).toMatchObject({
        code: 'no_tables',
      });
    });

    it('refuses left, top, width and height anywhere with unsupported_field, listing every path', () => {
      const result = check(
        {
          strategy: 'merge',
          tables: [newTable('a', { left: 1, top: 2 }), newTable('b', { width: 3 })],
          groups: [{ name: 'g', height: 4 }],
          sticky_notes: [{ content: 'x', left: 5 }],
        },
        { mode: 'create' },
      );
      expect(result).toMatchObject({
        ok: false,
        code: 'unsupported_field',
        paths: [
          'tables[0].left',
          'tables[0].top',
          'tables[1].width',
          'groups[0].height',
          'sticky_notes[0].left',
        ],
      });
    });

    it('puts unsupported_field before no_tables, and no_tables before invalid_schema', () => {
      expect(
        check({ strategy: 'bogus', groups: [{ name: 'g', left: 1 }] }, { mode: 'create' }),
      ).toMatchObject({
        code: 'unsupported_field',
      });
      expect(check({ strategy: 'bogus', groups: [{ name: 'g' }] }, { mode: 'create' })).toMatchObject({
        code: 'no_tables',
      });
    });

    it('lists every other problem beside the canvas positions, so one answer shows everything to fix', () => {
      const result = check(
        { strategy: 'merge', tables: [{ name: 't', left: 1, columns: [{ name: 'id' }] }] },
        { mode: 'create' },
      );
      expect(result).toMatchObject({ code: 'unsupported_field', paths: ['tables[0].left'] });
      expect(!result.ok && result.problems).toEqual([
        { path: 'tables[0].left', message: expect.stringMatching(/computed when a diagram is created/) },
        { path: 'tables[0].columns[0].type', message: 'is required' },
      ]);
      const noTables = check({ strategy: 'merge', groups: [{ name: 'g', left: 1 }] }, { mode: 'create' });
      expect(!noTables.ok && noTables.problems.map((p) => p.path)).toEqual(['groups[0].left', 'tables']);
    });

    it('states each problem once: the message does not repeat its path', () => {
      const result = check(merge({ tables: [{ name: 't', columns: [{ name: 'id' }] }] }));
      expect(result).toMatchObject({
        message: 'The patch has 1 problem, at tables[0].columns[0].type',
        problems: [{ path: 'tables[0].columns[0].type', message: 'is required' }],
      });
    });

    it('accepts positions and sizes on a proposal', () => {
      expect(check(merge({ tables: [newTable('t', { left: 10, top: 20, width: 30, height: 40 })] })).ok).toBe(
        true,
      );
    });

    it('validates against an empty diagram, so deletions and renames name nothing', () => {
      const result = check(
        merge({ tables: [newTable('t', { old_name: 'x' })], deletions: { tables: ['y'] } }),
        {
          mode: 'create',
        },
      );
      expect(messages(result)).toEqual([
        'table "y" does not exist in the diagram',
        'table "x" does not exist in the diagram',
      ]);
    });
  });

  describe('required fields and types', () => {
    it('requires name and type on columns', () => {
      const result = check(merge({ tables: [{ name: 't', columns: [{ type: 'int' }, { name: 'a' }] }] }));
      expect(problemsOf(result)).toEqual([
        { path: 'tables[0].columns[0].name', message: 'is required' },
        { path: 'tables[0].columns[1].type', message: 'is required' },
      ]);
    });

    it('requires content on sticky notes', () => {
      expect(paths(check(merge({ sticky_notes: [{ parent_name: 'content' }] })))).toEqual([
        'sticky_notes[0].content',
      ]);
    });

    it('refuses an empty name', () => {
      expect(messages(check(merge({ tables: [newTable('  ')] })))).toEqual(['must not be empty']);
    });

    it('refuses negative and fractional lengths and positions', () => {
      const result = check(
        merge({ tables: [{ name: 't', left: -1, columns: [{ name: 'a', type: 'varchar', length: 2.5 }] }] }),
      );
      expect(problemsOf(result)).toEqual([
        {
          path: 'tables[0].columns[0].length',
          message: 'must be an integer, got a fractional number',
        },
        { path: 'tables[0].left', message: 'must be non-negative' },
      ]);
    });

    it('refuses a boolean flag that is not a boolean', () => {
      expect(
        messages(check(merge({ tables: [{ name: 't', columns: [{ ...id, is_index: 'yes' }] }] }))),
      ).toEqual(['must be a boolean (true or false), got a string']);
    });
  });

  describe('data types', () => {
    it('refuses a type unknown for the driver, naming the driver', () => {
      const result = check(merge({ tables: [{ name: 't', columns: [{ name: 'a', type: 'jsonb' }] }] }));
      expect(problemsOf(result)).toEqual([
        { path: 'tables[0].columns[0].type', message: 'column "a": "jsonb" is not a mysql data type' },
      ]);
    });

    it('accepts the same type on the driver that has it', () => {
      const result = check(merge({ tables: [{ name: 't', columns: [{ name: 'a', type: 'jsonb' }] }] }), {
        driver: 'pgsql',
        document: sampleDocument('pgsql'),
      });
      expect(result.ok).toBe(true);
    });

    it('resolves the type with length and enum_values folded into its parameters', () => {
      const result = check(
        merge({
          tables: [
            {
              name: 't',
              columns: [
                { name: 'a', type: 'VARCHAR', length: 40 },
                { name: 'b', type: 'enum', enum_values: ['x', 'y'] },
                { name: 'c', type: 'bigint(20) unsigned' },
              ],
            },
          ],
        }),
      );
      if (!result.ok) throw new Error(result.message);
      expect(result.patch.tables[0]!.columns.map((column) => [column.data_type, column.is_unsigned])).toEqual(
        [
          [{ name: 'varchar', params: { length: 40 } }, undefined],
          [{ name: 'enum', params: { values: ['x', 'y'] } }, undefined],
          [{ name: 'bigint', params: { length: 20 } }, true],
        ],
      );
    });

    it('allows enum_values only on enum and set types', () => {
      const result = check(merge({ tables: [{ name: 't', columns: [{ ...id, enum_values: ['a'] }] }] }));
      expect(paths(result)).toEqual(['tables[0].columns[0].enum_values']);
    });

    it('refuses is_unsigned on a type that cannot be unsigned', () => {
      const result = check(
        merge({ tables: [{ name: 't', columns: [{ name: 'a', type: 'text', is_unsigned: true }] }] }),
      );
      expect(problemsOf(result)).toEqual([
        { path: 'tables[0].columns[0].is_unsigned', message: 'text on mysql cannot be unsigned' },
      ]);
    });

    it('refuses is_unsigned false on a type written unsigned', () => {
      const column = { name: 'a', type: 'int unsigned', is_unsigned: false };
      expect(paths(check(merge({ tables: [{ name: 't', columns: [column] }] })))).toEqual([
        'tables[0].columns[0].is_unsigned',
      ]);
    });

    it('refuses is_auto_increment on a type that cannot auto-increment', () => {
      const column = { name: 'a', type: 'varchar(3)', is_auto_increment: true };
      expect(paths(check(merge({ tables: [{ name: 't', columns: [column] }] })))).toEqual([
        'tables[0].columns[0].is_auto_increment',
      ]);
    });

    it('refuses a length out of the type bounds at the length path', () => {
      const column = { name: 'a', type: 'varchar', length: 70000 };
      expect(problemsOf(check(merge({ tables: [{ name: 't', columns: [column] }] })))).toEqual([
        {
          path: 'tables[0].columns[0].length',
          message: 'column "a": length of varchar must be between 0 and 65535, got 70000',
        },
      ]);
    });
  });

  describe('indexes', () => {
    it('requires all three fields of an index entry', () => {
      const result = check(merge({ tables: [newTable('t', { indexes: [{ name: 'i' }] })] }));
      expect(paths(result)).toEqual(['tables[0].indexes[0].type', 'tables[0].indexes[0].columns']);
    });

    it('refuses an index type other than primary, unique and index', () => {
      const result = check(
        merge({ tables: [newTable('t', { indexes: [{ name: 'i', type: 'fulltext', columns: ['id'] }] })] }),
      );
      expect(messages(result)).toEqual(['must be one of primary, unique, index']);
    });

    it('requires index columns to exist in the table, in the document or in the patch, after renames', () => {
      const indexes = [{ name: 'i', type: 'index', columns: ['mail', 'name', 'email', 'nope'] }];
      const result = check(
        merge({
          tables: [
            { name: 'users', columns: [{ name: 'mail', old_name: 'email', type: 'varchar(9)' }], indexes },
          ],
        }),
      );
      expect(problemsOf(result)).toEqual([
        {
          path: 'tables[0].indexes[0].columns[2]',
          message: 'index "i": column "email" of table "users" is renamed to "mail" by this patch',
        },
        { path: 'tables[0].indexes[0].columns[3]', message: 'index "i": table "users" has no column "nope"' },
      ]);
    });
  });

  describe('relationships', () => {
    const link = (fields: object) => ({
      type: 'many-to-one',
      source_table: 'posts',
      source_column: 'user_id',
      target_table: 'users',
      target_column: 'id',
      ...fields,
    });

    it('refuses a relationship type other than one-to-one, one-to-many and many-to-one', () => {
      expect(paths(check(merge({ relationships: [link({ type: 'many-to-many' })] })))).toEqual([
        'relationships[0].type',
      ]);
    });

    it('accepts endpoints in the diagram or in the patch', () => {
      const tables = [{ name: 'comments', columns: [id, { name: 'post_id', type: 'int' }] }];
      const relationships = [
        link({ source_table: 'comments', source_column: 'post_id', target_table: 'posts' }),
        link({
          type: 'one-to-many',
          source_table: 'users',
          source_column: 'id',
          target_table: 'posts',
          target_column: 'user_id',
        }),
      ];
      expect(check(merge({ tables, relationships })).ok).toBe(true);
    });

    it('refuses endpoints that exist neither in the diagram nor in the patch', () => {
      const result = check(
        merge({ relationships: [link({ target_table: 'accounts' }), link({ source_column: 'author' })] }),
      );
      expect(problemsOf(result)).toEqual([
        {
          path: 'relationships[0].target_column',
          message: 'table "accounts" exists neither in the diagram nor in the patch',
        },
        { path: 'relationships[1].source_column', message: 'table "posts" has no column "author"' },
      ]);
    });

    it('refuses a relationship listed twice', () => {
      const result = check(merge({ relationships: [link({}), link({ type: 'one-to-one' })] }));
      expect(messages(result)).toEqual(['relationship "posts"."user_id" – "users"."id" is listed twice']);
    });
  });

  describe('renames', () => {
    it('requires old_name to exist in the document', () => {
      expect(messages(check(merge({ tables: [newTable('people', { old_name: 'persons' })] })))).toEqual([
        'table "persons" does not exist in the diagram',
      ]);
    });

    it('refuses a rename that collides with an existing table', () => {
      expect(messages(check(merge({ tables: [newTable('posts', { old_name: 'users' })] })))).toEqual([
        'cannot rename table "users" to "posts": the diagram already has a table with that name',
      ]);
    });

    it('refuses two tables renamed to the same name', () => {
      const result = check(
        merge({ tables: [newTable('x', { old_name: 'users' }), newTable('x', { old_name: 'posts' })] }),
      );
      expect(messages(result)).toEqual(['two table entries are named "x" but rename different tables']);
    });

    it('refuses one table renamed twice', () => {
      const result = check(
        merge({ tables: [newTable('x', { old_name: 'users' }), newTable('y', { old_name: 'users' })] }),
      );
      expect(messages(result)).toEqual(['table "users" is renamed twice']);
    });

    it('refuses an entry that uses the old name of a table another entry renames', () => {
      const result = check(merge({ tables: [newTable('people', { old_name: 'users' }), newTable('users')] }));
      expect(messages(result)).toEqual([
        'table "users" is renamed by tables[0], so another entry cannot also use that name',
      ]);
    });

    it('applies the same rules to columns within a table', () => {
      const columns = [
        { name: 'title', old_name: 'id', type: 'int' },
        { name: 'x', old_name: 'nope', type: 'int' },
      ];
      expect(messages(check(merge({ tables: [{ name: 'posts', columns }] })))).toEqual([
        'cannot rename column "id" to "title": table "posts" already has a column with that name',
        'column "nope" does not exist in table "posts"',
      ]);
    });

    it('refuses a column rename in a new table', () => {
      const result = check(
        merge({ tables: [{ name: 'fresh', columns: [{ name: 'a', old_name: 'b', type: 'int' }] }] }),
      );
      expect(messages(result)).toEqual(['column "b" does not exist in new table "fresh"']);
    });
  });

  describe('groups and parents', () => {
    it('accepts parent_name naming a group of the diagram or of the patch', () => {
      const tables = [newTable('a', { parent_name: 'content' }), newTable('b', { parent_name: 'new' })];
      expect(check(merge({ tables, groups: [{ name: 'new' }] })).ok).toBe(true);
    });

    it('refuses parent_name naming no group', () => {
      expect(problemsOf(check(merge({ sticky_notes: [{ content: 'x', parent_name: 'nowhere' }] })))).toEqual([
        {
          path: 'sticky_notes[0].parent_name',
          message: 'group "nowhere" exists neither in the diagram nor in the patch',
        },
      ]);
    });

    it('requires parent_uuid to name an existing group', () => {
      expect(paths(check(merge({ tables: [newTable('a', { parent_uuid: NOTE_UUID })] })))).toEqual([
        'tables[0].parent_uuid',
      ]);
      expect(check(merge({ tables: [newTable('a', { parent_uuid: GROUP_UUID })] })).ok).toBe(true);
    });

    it('refuses parent_name and parent_uuid that name different groups', () => {
      const result = check(
        merge({
          tables: [newTable('a', { parent_name: 'g2', parent_uuid: GROUP_UUID })],
          groups: [{ name: 'g2' }],
        }),
      );
      expect(messages(result)).toEqual(['parent_uuid and parent_name name different groups']);
    });
  });

  describe('deletions', () => {
    it('accepts deletions of entities that exist, by name or, for columns and indexes, by table UUID', () => {
      const document = sampleDocument();
      const result = check(
        merge({
          deletions: {
            columns: [{ table: document.tables[1]!.uuid, columns: ['title'] }],
            indexes: { users: ['users_email'] },
            relationships: [
              { source_table: 'users', source_column: 'id', target_table: 'posts', target_column: 'user_id' },
            ],
            groups: [{ name: 'content' }],
            sticky_notes: [NOTE_UUID],
          },
        }),
        { document },
      );
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      expect(result.patch.deletions).toEqual({
        tables: [],
        columns: [{ table: document.tables[1]!.uuid, columns: ['title'] }],
        indexes: [{ table: 'users', indexes: ['users_email'] }],
        relationships: [
          { source_table: 'users', source_column: 'id', target_table: 'posts', target_column: 'user_id' },
        ],
        groups: [{ name: 'content', delete_children: false }],
        sticky_notes: [NOTE_UUID],
      });
    });

    it('refuses deletions of names that do not exist, naming each', () => {
      const result = check(
        merge({
          deletions: {
            tables: ['ghosts'],
            columns: { users: ['phone'], nobody: ['x'] },
            indexes: { users: ['missing_index'] },
            groups: [{ name: 'nope' }],
            sticky_notes: ['not-a-note'],
            relationships: [{ source_table: 'a', source_column: 'b', target_table: 'c', target_column: 'd' }],
          },
        }),
      );
      expect(messages(result)).toEqual([
        'table "ghosts" does not exist in the diagram',
        'group "nope" does not exist in the diagram',
        'column "phone" does not exist in table "users"',
        'table "nobody" does not exist in the diagram',
        'index "missing_index" does not exist in table "users"',
        'the diagram has no relationship "a"."b" – "c"."d"',
        'sticky note "not-a-note" does not exist in the diagram',
      ]);
    });
  });

  describe('a patch that conflicts with itself is refused with an error that names the entity', () => {
    it('refuses a table named both in tables and in deletions.tables', () => {
      expect(
        problemsOf(check(merge({ tables: [newTable('posts')], deletions: { tables: ['posts'] } }))),
      ).toEqual([
        { path: 'tables[0].name', message: 'table "posts" is both in tables and in deletions.tables' },
      ]);
    });

    it('refuses a table changed in tables and deleted with its group', () => {
      const result = check(
        merge({
          tables: [newTable('posts')],
          deletions: { groups: [{ name: 'content', delete_children: true }] },
        }),
      );
      expect(messages(result)).toEqual([
        'table "posts" is in tables but is also deleted with group "content" (delete_children)',
      ]);
    });

    it('refuses a column both changed and deleted', () => {
      const result = check(
        merge({
          tables: [{ name: 'users', columns: [{ name: 'email', type: 'text' }] }],
          deletions: { columns: { users: ['email'] } },
        }),
      );
      expect(messages(result)).toEqual([
        'column "email" of table "users" is both in tables and in deletions.columns',
      ]);
    });

    it('refuses an index both changed and deleted', () => {
      const indexes = [{ name: 'users_email', type: 'index', columns: ['email'] }];
      const result = check(
        merge({ tables: [{ name: 'users', indexes }], deletions: { indexes: { users: ['users_email'] } } }),
      );
      expect(messages(result)).toEqual([
        'index "users_email" of table "users" is both in tables and in deletions.indexes',
      ]);
    });

    it('refuses a relationship both added and deleted', () => {
      const endpoints = {
        source_table: 'posts',
        source_column: 'user_id',
        target_table: 'users',
        target_column: 'id',
      };
      const result = check(
        merge({
          relationships: [{ type: 'many-to-one', ...endpoints }],
          deletions: { relationships: [endpoints] },
        }),
      );
      expect(messages(result)).toEqual([
        'relationship "posts"."user_id" – "users"."id" is both in relationships and in deletions.relationships',
      ]);
    });

    it('refuses a group both in groups and deleted, and a parent pointing at a deleted group', () => {
      const result = check(
        merge({
          groups: [{ name: 'content' }],
          sticky_notes: [{ content: 'x', parent_uuid: GROUP_UUID }],
          deletions: { groups: [{ name: 'content' }] },
        }),
      );
      expect(messages(result)).toEqual([
        'group "content" is both in groups and in deletions.groups',
        'sticky note 1 is put in group "content", which deletions.groups deletes',
      ]);
    });

    it('refuses a relationship to a table or column the patch deletes', () => {
      const link = {
        type: 'many-to-one',
        source_table: 'posts',
        source_column: 'user_id',
        target_table: 'users',
        target_column: 'email',
      };
      const result = check(
        merge({ relationships: [link], deletions: { tables: ['posts'], columns: { users: ['email'] } } }),
      );
      expect(messages(result)).toEqual([
        'table "posts" is deleted by this patch (in deletions.tables)',
        'column "email" of table "users" is deleted by this patch',
      ]);
    });
  });

  describe('problems', () => {
    it(`lists at most ${MAX_PROBLEMS} problems and says how many there were`, () => {
      const tables = Array.from({ length: 40 }, (_, index) => ({
        name: `t${index}`,
        columns: [{ name: 'a', type: 'nope' }],
      }));
      const result = check(merge({ tables }));
      expect(problemsOf(result)).toHaveLength(MAX_PROBLEMS);
      expect(result).toMatchObject({
        message: `The patch has 40 problems; the first ${MAX_PROBLEMS} are listed`,
      });
    });

    it('does not report references to an entry that is itself invalid a second time', () => {
      const result = check(
        merge({
          tables: [{ name: 'fresh', columns: [{ name: 'a', type: 'nope' }] }],
          relationships: [
            {
              type: 'one-to-one',
              source_table: 'fresh',
              source_column: 'a',
              target_table: 'users',
              target_column: 'id',
            },
          ],
        }),
      );
      expect(paths(result)).toEqual(['tables[0].columns[0].type']);
    });
  });

  describe('a valid patch', () => {
    it('comes back fully typed, with every section present', () => {
      const result = check(
        merge({
          tables: [
            {
              name: 'accounts',
              comment: 'People',
              columns: [{ name: 'id', type: 'bigint', is_primary: 'true' }],
            },
          ],
        }),
      );
      expect(result).toEqual({
        ok: true,
        patch: {
          strategy: 'merge',
          tables: [
            {
              name: 'accounts',
              comment: 'People',
              columns: [
                {
                  name: 'id',
                  type: 'bigint',
                  data_type: { name: 'bigint', params: null },
                  is_primary_key: true,
                },
              ],
              indexes: [],
            },
          ],
          groups: [],
          relationships: [],
          sticky_notes: [],
          deletions: {
            tables: [],
            columns: [],
            indexes: [],
            relationships: [],
            groups: [],
            sticky_notes: [],
          },
        },
      });
    });

    it('treats a null document on propose as an empty diagram', () => {
      expect(validate(normalize(merge({ tables: [newTable('t')] })).patch, null, 'mysql', 'propose').ok).toBe(
        true,
      );
    });
  });
});
