import { apply } from '../src/apply';
import { relationshipIssues, typeMismatch } from '../src/integrity';
import { renderMarkdown } from '../src/markdown';
import type { Column, DiagramDocument } from '../src/model';
import { check, column, merge, problemsOf, sampleDocument } from './validate-fixtures';

const link = (source: string, target: string, type = 'many-to-one') => {
  const [source_table, source_column] = source.split('.');
  const [target_table, target_column] = target.split('.');
  return { type, source_table, source_column, target_table, target_column };
};

/** users(id PK, email unique index, name), posts(id PK, user_id → users.id, title): all int. */
function shop(driver: DiagramDocument['driver'] = 'mysql'): DiagramDocument {
  return sampleDocument(driver);
}

const typed = (type: string, fields: Partial<Column> = {}): Column => ({
  ...column('c', type),
  ...fields,
});

describe('relationship integrity in validation', () => {
  describe('When a patch adds a relationship', () => {
    it('should refuse one whose target column is not a primary or unique key, naming it at the entry', () => {
      const result = check(merge({ relationships: [link('posts.title', 'users.name')] }), {
        document: shop(),
      });
      expect(problemsOf(result)).toEqual([
        {
          path: 'relationships[0]',
          message:
            'relationship posts.title -> users.name: users(name) is not a primary key or unique key of users, and a foreign key must reference one',
        },
      ]);
      expect(result).toMatchObject({ code: 'invalid_schema' });
    });

    it('should accept one to the primary key, to a unique index and to a column marked unique', () => {
      expect(check(merge({ relationships: [link('posts.title', 'users.email')] })).ok).toBe(true);
      const marked = merge({
        tables: [{ name: 'users', columns: [{ name: 'name', type: 'int', is_unique_key: true }] }],
        relationships: [link('posts.title', 'users.name')],
      });
      expect(check(marked).ok).toBe(true);
    });

    it('should accept a composite key naming every column of a composite primary key, and refuse part of it', () => {
      const tables = [
        {
          name: 'lines',
          columns: [
            { name: 'order_id', type: 'int', is_primary_key: true },
            { name: 'line_no', type: 'int', is_primary_key: true },
          ],
        },
        {
          name: 'notes',
          columns: [
            { name: 'order_id', type: 'int' },
            { name: 'line_no', type: 'int' },
          ],
        },
      ];
      // A composite foreign key is one relationship per column pair, named alike (as the SQL export groups them).
      const named = (column: string) => ({
        ...link(`notes.${column}`, `lines.${column}`),
        name: 'notes_line_fk',
      });
      const composite = {
        tables,
        relationships: [link('notes.order_id', 'lines.order_id'), link('notes.line_no', 'lines.line_no')],
      };
      expect(problemsOf(check(merge(composite), { mode: 'create', document: null })).length).toBe(2);
      const document = apply(shop(), (check(merge({ tables })) as { ok: true; patch: never }).patch).document;
      const keyed = { ...document, relationships: [] };
      const byName = {
        ...keyed,
        relationships: ['order_id', 'line_no'].map((name, index) => ({
          uuid: `r${index}`,
          on_delete: null,
          on_update: null,
          ...named(name),
          type: 'many-to-one' as const,
        })),
      };
      expect(relationshipIssues(byName)).toEqual([]);
      expect(relationshipIssues({ ...byName, relationships: byName.relationships.slice(0, 1) })).toEqual([
        expect.objectContaining({ kind: 'target_not_key' }),
      ]);
    });

    it('should refuse int to bigint on MySQL and accept it on PostgreSQL', () => {
      const patch = merge({
        tables: [{ name: 'visits', columns: [{ name: 'user_id', type: 'bigint' }] }],
        relationships: [link('visits.user_id', 'users.id')],
      });
      expect(problemsOf(check(patch, { document: shop('mysql') }))[0]).toEqual({
        path: 'relationships[0]',
        message:
          'relationship visits.user_id -> users.id: visits.user_id (bigint) and users.id (int) cannot be a foreign key on MySQL: the columns must be of the same type',
      });
      expect(check(patch, { document: shop('pgsql'), driver: 'pgsql' }).ok).toBe(true);
    });
  });

  describe('When a patch changes what an existing relationship links', () => {
    it('should refuse changing the type of a referenced key so the referencing column no longer matches', () => {
      const retype = merge({ tables: [{ name: 'users', columns: [{ name: 'id', type: 'bigint' }] }] });
      expect(problemsOf(check(retype))).toEqual([
        {
          path: 'tables[0].columns[0]',
          message: expect.stringContaining(
            'posts.user_id (int) and users.id (bigint) cannot be a foreign key on MySQL',
          ),
        },
      ]);
    });

    it('should accept the same change when the patch retypes the referencing column too', () => {
      const both = merge({
        tables: [
          { name: 'users', columns: [{ name: 'id', type: 'bigint' }] },
          { name: 'posts', columns: [{ name: 'user_id', type: 'bigint' }] },
        ],
      });
      expect(check(both).ok).toBe(true);
    });

    it('should refuse adding a column to a referenced primary key', () => {
      const widen = merge({
        tables: [{ name: 'users', columns: [{ name: 'name', type: 'int', is_primary_key: true }] }],
      });
      expect(problemsOf(check(widen))).toEqual([
        { path: 'tables[0].columns[0]', message: expect.stringContaining('users(id) is not a primary key') },
      ]);
    });

    it('should accept adding plain columns to both ends of a relationship', () => {
      const add = merge({
        tables: [
          { name: 'users', columns: [{ name: 'nick', type: 'varchar(40)', is_unique_key: true }] },
          { name: 'posts', columns: [{ name: 'body', type: 'text' }] },
        ],
      });
      expect(check(add).ok).toBe(true);
    });

    it('should check a new column that a relationship already names (one the diagram held without it)', () => {
      const document = shop();
      document.relationships.push({
        ...document.relationships[0]!,
        uuid: 'to-missing',
        source_column: 'editor_id',
      });
      const added = merge({
        tables: [{ name: 'posts', columns: [{ name: 'editor_id', type: 'varchar(20)' }] }],
      });
      expect(problemsOf(check(added, { document }))).toEqual([
        {
          path: 'tables[0].columns[0]',
          message: expect.stringContaining('posts.editor_id (varchar(20)) and users.id (int)'),
        },
      ]);
    });

    it('should refuse deleting the unique index a relationship targets', () => {
      const document = shop();
      document.relationships.push({
        ...document.relationships[0]!,
        uuid: 'to-email',
        source_column: 'title',
        target_column: 'email',
      });
      const drop = merge({ deletions: { indexes: [{ table: 'users', indexes: ['users_email'] }] } });
      expect(problemsOf(check(drop, { document }))).toEqual([
        {
          path: 'deletions.indexes[0]',
          message: expect.stringContaining('users(email) is not a primary key'),
        },
      ]);
    });
  });

  describe('When the diagram already holds a relationship the database would refuse (an import)', () => {
    function broken(): DiagramDocument {
      const document = shop();
      document.relationships.push({
        ...document.relationships[0]!,
        uuid: 'to-name',
        source_column: 'title',
        target_column: 'name',
      });
      return document;
    }

    it('should list it among the diagram’s issues', () => {
      expect(relationshipIssues(broken())).toEqual([
        expect.objectContaining({
          kind: 'target_not_key',
          message: expect.stringContaining('posts.title -> users.name'),
        }),
      ]);
    });

    it('should flag it in the Markdown rendering, and only it', () => {
      const markdown = renderMarkdown(broken());
      expect(markdown).toContain(
        '- posts.title -> users.name (many-to-one; not a valid foreign key: the target is not a primary or unique key)',
      );
      expect(markdown).toContain('- posts.user_id -> users.id (many-to-one)\n');
    });

    it('should keep it through unrelated changes and renames', () => {
      const document = broken();
      expect(
        check(merge({ tables: [{ name: 'tags', columns: [{ name: 'id', type: 'int' }] }] }), { document }).ok,
      ).toBe(true);
      expect(check(merge({ tables: [{ name: 'people', old_name: 'users' }] }), { document }).ok).toBe(true);
    });

    it('should refuse making it worse', () => {
      const retype = merge({ tables: [{ name: 'users', columns: [{ name: 'name', type: 'varchar(20)' }] }] });
      expect(problemsOf(check(retype, { document: broken() }))).toEqual([
        {
          path: 'tables[0].columns[0]',
          message: expect.stringContaining('different families (integer, string)'),
        },
      ]);
    });
  });

  describe('typeMismatch', () => {
    it('should follow each driver’s rule for integers, signedness, decimals and strings', () => {
      expect(typeMismatch('mysql', typed('int'), typed('int'))).toBeNull();
      expect(typeMismatch('mysql', typed('int', { is_unsigned: true }), typed('int'))).toBe(
        'one is unsigned and the other is not',
      );
      expect(typeMismatch('mysql', typed('varchar'), typed('char'))).toBeNull();
      expect(
        typeMismatch(
          'mysql',
          typed('decimal', { driver_data_type_params: { precision: 10, scale: 2 } }),
          typed('decimal', { driver_data_type_params: { precision: 12, scale: 2 } }),
        ),
      ).toBe('decimals must have the same precision and scale');
      expect(typeMismatch('pgsql', typed('integer'), typed('bigint'))).toBeNull();
      expect(typeMismatch('pgsql', typed('text'), typed('character varying'))).toBeNull();
      expect(typeMismatch('pgsql', typed('numeric'), typed('integer'))).toContain('different families');
      expect(typeMismatch('pgsql', typed('numeric'), typed('money'))).toBe(
        'the columns must be of the same type',
      );
      expect(
        typeMismatch(
          'pgsql',
          typed('integer', { driver_data_type_params: { array: true } }),
          typed('integer'),
        ),
      ).toBe('one is an array and the other is not');
      expect(typeMismatch('sqlsrv', typed('int'), typed('bigint'))).toBe(
        'the columns must be of the same type',
      );
      expect(typeMismatch('sqlsrv', typed('nvarchar'), typed('nvarchar'))).toBeNull();
    });
  });

  describe('apply after validate', () => {
    it('should hand the caller the document validation computed, once', () => {
      const document = shop();
      const result = check(merge({ relationships: [link('posts.title', 'users.email')] }), { document });
      if (!result.ok) throw new Error('expected a valid patch');
      const first = apply(document, result.patch);
      const second = apply(document, result.patch);
      expect(second.document).toEqual({
        ...first.document,
        relationships: [
          first.document.relationships[0],
          { ...first.document.relationships[1], uuid: second.document.relationships[1]!.uuid },
        ],
      });
      expect(second.document.relationships[1]!.uuid).not.toBe(first.document.relationships[1]!.uuid);
    });
  });
});
