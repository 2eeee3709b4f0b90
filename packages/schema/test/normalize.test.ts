import fc from 'fast-check';
import { normalize, RejectedPatchInput } from '../src/normalize';

const columnOf = (input: unknown) =>
  (normalize(input).patch as { tables: { columns: Record<string, unknown>[] }[] }).tables[0]!.columns[0]!;

const withColumn = (column: object) => ({ strategy: 'merge', tables: [{ name: 't', columns: [column] }] });

describe('normalize', () => {
  describe('input', () => {
    it('accepts a JSON string holding an object', () => {
      expect(normalize('{"strategy":"merge","tables":[]}').patch).toEqual({ strategy: 'merge', tables: [] });
    });

    it.each([
      ['an unparseable string', '{"strategy":', /not valid JSON/],
      ['a string holding an array', '[1,2]', /a string holding an array, not a JSON object/],
      ['an array', [{ strategy: 'merge' }], /an array, not a JSON object/],
      ['null', null, /null, not a JSON object/],
      ['a number', 42, /a number, not a JSON object/],
    ])('rejects %s without throwing, saying what it was', (_what, input, reason) => {
      const { patch, warnings } = normalize(input);
      expect(patch).toBeInstanceOf(RejectedPatchInput);
      expect((patch as RejectedPatchInput).reason).toMatch(reason);
      expect(warnings).toEqual([]);
    });
  });

  describe('aliases', () => {
    it('rewrites is_primary to is_primary_key and is_unique to is_unique_key', () => {
      expect(columnOf(withColumn({ name: 'a', type: 'int', is_primary: true, is_unique: false }))).toEqual({
        name: 'a',
        type: 'int',
        is_primary_key: true,
        is_unique_key: false,
      });
    });

    it('rewrites is_not_null to is_nullable, inverted', () => {
      expect(columnOf(withColumn({ name: 'a', type: 'int', is_not_null: true })).is_nullable).toBe(false);
      expect(columnOf(withColumn({ name: 'a', type: 'int', is_not_null: 'false' })).is_nullable).toBe(true);
    });

    it('lets the canonical field win over its alias and reports the alias as a warning', () => {
      const input = withColumn({ name: 'a', type: 'int', is_not_null: true, is_nullable: true });
      const { warnings } = normalize(input);
      expect(columnOf(input).is_nullable).toBe(true);
      expect(warnings).toEqual([
        expect.objectContaining({ code: 'unknown_key', path: 'tables[0].columns[0]', key: 'is_not_null' }),
      ]);
    });
  });

  describe('coercion', () => {
    it('coerces string booleans ("true", "false") where the contract says boolean', () => {
      expect(
        columnOf(withColumn({ name: 'a', type: 'int', is_index: 'true', is_nullable: ' FALSE ' })),
      ).toMatchObject({
        is_index: true,
        is_nullable: false,
      });
    });

    it('coerces string numbers where the contract says integer', () => {
      expect(columnOf(withColumn({ name: 'a', type: 'varchar', length: '255' })).length).toBe(255);
    });

    it('leaves strings that are neither alone, for validate to report', () => {
      expect(columnOf(withColumn({ name: 'a', type: 'int', is_index: 'yes', length: 'ten' }))).toMatchObject({
        is_index: 'yes',
        length: 'ten',
      });
    });

    it('does not turn numbers into strings where the contract says string', () => {
      expect(columnOf(withColumn({ name: 'a', type: 'int', default: 0 })).default).toBe(0);
    });
  });

  describe('whitespace around names is trimmed', () => {
    it('trims table, column, index, group and relationship names, old names and deletion names', () => {
      const { patch } = normalize({
        strategy: 'merge',
        tables: [
          {
            name: ' users ',
            old_name: '\tpeople ',
            parent_name: ' g ',
            columns: [{ name: ' id ', old_name: ' uid', type: ' int ' }],
            indexes: [{ name: ' i ', type: 'index', columns: [' id '] }],
          },
        ],
        groups: [{ name: ' g ' }],
        relationships: [
          {
            type: 'one-to-one',
            source_table: ' a ',
            source_column: ' b ',
            target_table: ' c ',
            target_column: ' d ',
          },
        ],
        deletions: { tables: [' x '], columns: { ' y ': [' z '] }, groups: [{ name: ' h ' }] },
      });
      expect(patch).toEqual({
        strategy: 'merge',
        tables: [
          {
            name: 'users',
            old_name: 'people',
            parent_name: 'g',
            columns: [{ name: 'id', old_name: 'uid', type: 'int' }],
            indexes: [{ name: 'i', type: 'index', columns: ['id'] }],
          },
        ],
        groups: [{ name: 'g' }],
        relationships: [
          {
            type: 'one-to-one',
            source_table: 'a',
            source_column: 'b',
            target_table: 'c',
            target_column: 'd',
          },
        ],
        deletions: { tables: ['x'], columns: [{ table: 'y', columns: ['z'] }], groups: [{ name: 'h' }] },
      });
    });

    it('keeps whitespace inside sticky note content and defaults', () => {
      const { patch } = normalize({ strategy: 'merge', sticky_notes: [{ content: '  indented  ' }] });
      expect(patch).toMatchObject({ sticky_notes: [{ content: '  indented  ' }] });
    });
  });

  describe('unknown keys', () => {
    it('strips each unknown key with one warning naming the path and the key', () => {
      const { patch, warnings } = normalize({
        strategy: 'merge',
        version: 2,
        tables: [
          {
            name: 't',
            colour: 'red',
            columns: [
              { name: 'a', type: 'int' },
              { name: 'b', type: 'int', size: 4 },
            ],
          },
        ],
      });
      expect(warnings).toEqual([
        {
          code: 'unknown_key',
          path: '',
          key: 'version',
          message: 'Unknown key "version" at the top level was ignored',
        },
        {
          code: 'unknown_key',
          path: 'tables[0]',
          key: 'colour',
          message: 'Unknown key "colour" at tables[0] was ignored',
        },
        {
          code: 'unknown_key',
          path: 'tables[0].columns[1]',
          key: 'size',
          message: 'Unknown key "size" at tables[0].columns[1] was ignored',
        },
      ]);
      expect(JSON.stringify(patch)).not.toMatch(/version|colour|size/);
    });

    it('cannot pollute any prototype through __proto__, constructor or prototype keys', () => {
      const input = JSON.parse(
        '{"strategy":"merge","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
          '"tables":[{"name":"t","__proto__":{"polluted":true},"columns":[{"name":"a","type":"int","prototype":1}]}],' +
          '"deletions":{"columns":{"__proto__":["a"],"constructor":["b"]}}}',
      );
      const { patch, warnings } = normalize(input);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(warnings.map((warning) => warning.key)).toEqual([
        '__proto__',
        'constructor',
        '__proto__',
        'prototype',
      ]);
      expect((patch as { deletions: unknown }).deletions).toEqual({
        columns: [
          { table: '__proto__', columns: ['a'] },
          { table: 'constructor', columns: ['b'] },
        ],
      });
      expect(Object.keys(patch)).toEqual(['strategy', 'tables', 'deletions']);
      expect(Object.getPrototypeOf(patch)).toBe(Object.prototype);
    });
  });

  describe('duplicate entries for one table are merged', () => {
    it('merges columns by name and indexes by name, later fields winning', () => {
      const { patch } = normalize({
        strategy: 'merge',
        tables: [
          {
            name: 'users',
            comment: 'first',
            columns: [
              { name: 'id', type: 'int' },
              { name: 'a', type: 'int' },
            ],
          },
          { name: 'other', columns: [] },
          {
            name: 'users',
            comment: 'second',
            columns: [
              { name: 'a', type: 'bigint', is_index: true },
              { name: 'b', type: 'int' },
            ],
            indexes: [{ name: 'i', type: 'index', columns: ['a'] }],
          },
          { name: 'users', indexes: [{ name: 'i', type: 'unique', columns: ['b'] }] },
        ],
      });
      expect((patch as { tables: unknown }).tables).toEqual([
        {
          name: 'users',
          comment: 'second',
          columns: [
            { name: 'id', type: 'int' },
            { name: 'a', type: 'bigint', is_index: true },
            { name: 'b', type: 'int' },
          ],
          indexes: [{ name: 'i', type: 'unique', columns: ['b'] }],
        },
        { name: 'other', columns: [] },
      ]);
    });

    it('does not merge entries that rename different tables to one name, so validate can refuse them', () => {
      const { patch } = normalize({
        strategy: 'merge',
        tables: [
          { name: 'x', old_name: 'a' },
          { name: 'x', old_name: 'b' },
        ],
      });
      expect((patch as { tables: unknown[] }).tables).toHaveLength(2);
    });
  });

  it('accepts the object shorthand for column and index deletions', () => {
    const { patch } = normalize({
      strategy: 'merge',
      deletions: { columns: { users: ['a', 'b'] }, indexes: { posts: ['i'] } },
    });
    expect((patch as { deletions: unknown }).deletions).toEqual({
      columns: [{ table: 'users', columns: ['a', 'b'] }],
      indexes: [{ table: 'posts', indexes: ['i'] }],
    });
  });

  describe('properties', () => {
    const name = fc.oneof(
      fc.constantFrom('users', ' users ', 'posts', 'a', '__proto__'),
      fc.string({ maxLength: 6 }),
    );
    const loose = fc.oneof(
      fc.boolean(),
      fc.constantFrom('true', 'false', ' 12 ', '-3', 'x'),
      fc.integer(),
      fc.string(),
    );
    const column = fc.record(
      {
        name,
        old_name: name,
        type: fc.constantFrom('int', 'varchar(20)', ' text '),
        length: loose,
        is_primary: loose,
        is_not_null: loose,
        is_nullable: loose,
        is_unique: loose,
        junk: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const tableEntry = fc.record(
      {
        name,
        old_name: name,
        columns: fc.oneof(fc.array(column, { maxLength: 4 }), fc.anything()),
        indexes: fc.array(
          fc.record({ name, type: fc.string(), columns: fc.array(name) }, { requiredKeys: [] }),
        ),
        left: loose,
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const patch = fc.record(
      {
        strategy: fc.oneof(fc.constantFrom('merge', 'additive'), fc.anything()),
        tables: fc.oneof(fc.array(tableEntry, { maxLength: 5 }), fc.anything()),
        deletions: fc.oneof(
          fc.record(
            { columns: fc.dictionary(name, fc.array(name)), tables: fc.array(name) },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        other: fc.anything(),
      },
      { requiredKeys: [] },
    );

    it('normalising twice equals normalising once, with no new warnings', () => {
      fc.assert(
        fc.property(fc.oneof(patch, fc.anything(), fc.json()), (input) => {
          const once = normalize(input);
          const twice = normalize(once.patch);
          expect(twice.patch).toEqual(once.patch);
          expect(JSON.stringify(twice.patch)).toBe(JSON.stringify(once.patch));
          expect(twice.warnings).toEqual([]);
        }),
        { numRuns: 500 },
      );
    });
  });
});
