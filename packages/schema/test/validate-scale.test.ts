import fc from 'fast-check';
import type { DiagramDocument } from '../src/model';
import { emptyDocument } from '../src/model';
import { normalize } from '../src/normalize';
import { validate } from '../src/validate';
import { column } from './validate-fixtures';

function largeDocument(tableCount: number): DiagramDocument {
  const document = emptyDocument('mysql');
  for (let index = 0; index < tableCount; index++)
    document.tables.push({
      uuid: `table-${index}`,
      name: `table_${index}`,
      comment: null,
      columns: ['id', 'name', 'created_at', 'parent_id'].map((name) => ({
        ...column(name),
        is_primary_key: name === 'id',
      })),
      indexes: [{ uuid: `index-${index}`, name: `table_${index}_name`, type: 'index', columns: ['name'] }],
      left: 0,
      top: 0,
      width: 200,
      height: 100,
      color: null,
      parent_uuid: null,
    });
  return document;
}

/** About 500KB: changes to every existing table plus new tables linked to them. */
function largePatchText(tableCount: number): string {
  const tables = [];
  const relationships = [];
  for (let index = 0; index < tableCount; index++) {
    tables.push({
      name: `table_${index}`,
      columns: [
        { name: 'name', type: 'varchar(255)', is_nullable: 'false' },
        { name: 'status', type: 'enum', enum_values: ['active', 'blocked'], default: 'active' },
      ],
      indexes: [{ name: `table_${index}_status`, type: 'index', columns: ['status', 'name'] }],
    });
    tables.push({
      name: `extra_${index}`,
      comment: 'Added by the scale test',
      columns: [
        { name: 'id', type: 'bigint', is_primary: true, is_auto_increment: true, is_unsigned: true },
        { name: 'owner_id', type: 'int', is_index: true },
        { name: 'amount', type: 'decimal(10,2)' },
      ],
    });
    relationships.push({
      type: 'many-to-one',
      source_table: `extra_${index}`,
      source_column: 'owner_id',
      target_table: `table_${index}`,
      target_column: 'id',
    });
  }
  return JSON.stringify({ strategy: 'merge', tables, relationships });
}

describe('validate at scale', () => {
  // Speed is measured by `npm run bench` in this package (medians against JSON.parse in the same run),
  // never by timed assertions here; this test checks that the large case is handled correctly.
  it('accepts a 500KB patch against a 1,000-table document and resolves every column type', () => {
    const document = largeDocument(1000);
    const text = largePatchText(1000);
    expect(text.length).toBeGreaterThan(500_000);
    const result = validate(normalize(text).patch, document, 'mysql', 'propose');
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.patch.tables).toHaveLength(2000);
    expect(result.patch.relationships).toHaveLength(1000);
    const amount = result.patch.tables[1]!.columns.find((entry) => entry.name === 'amount')!;
    expect(amount.data_type).toEqual({ name: 'decimal', params: { precision: 10, scale: 2 } });
  });

  it('never throws, whatever JSON it is given', () => {
    const document = largeDocument(3);
    const deep = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.json(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie('node')),
      ),
    })).node;
    const entries = fc.oneof(
      fc.anything({ maxDepth: 6 }),
      fc.record(
        { name: fc.oneof(fc.string(), fc.anything()), columns: fc.anything(), old_name: fc.anything() },
        { requiredKeys: [] },
      ),
      fc.record({
        name: fc.constantFrom('table_0', 'x'),
        columns: fc.array(fc.record({ name: fc.string(), type: fc.string() })),
      }),
    );
    const patchLike = fc.record(
      {
        strategy: fc.oneof(fc.constantFrom('merge', 'additive'), fc.anything()),
        tables: fc.oneof(fc.array(entries, { maxLength: 4 }), fc.anything()),
        relationships: fc.oneof(fc.array(fc.anything(), { maxLength: 3 }), fc.anything()),
        groups: fc.anything(),
        sticky_notes: fc.anything(),
        deletions: fc.oneof(
          fc.dictionary(
            fc.constantFrom('tables', 'columns', 'indexes', 'groups', 'relationships', 'sticky_notes'),
            fc.anything(),
          ),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    );
    const input = fc.oneof(
      patchLike,
      fc.anything({ maxDepth: 8, withNullPrototype: true }),
      deep,
      fc.json(),
      fc.string({ maxLength: 2000 }),
    );
    fc.assert(
      fc.property(
        input,
        fc.constantFrom('create', 'propose') as fc.Arbitrary<'create' | 'propose'>,
        (value, mode) => {
          const result = validate(normalize(value).patch, mode === 'create' ? null : document, 'mysql', mode);
          if (!result.ok) expect(result.problems.length).toBeLessThanOrEqual(15);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('handles deep nesting and huge strings without throwing', () => {
    let nested: unknown = { strategy: 'merge' };
    for (let depth = 0; depth < 10_000; depth++) nested = [nested];
    const huge = 'x'.repeat(600_000);
    const inputs = [
      nested,
      { strategy: 'merge', tables: nested },
      {
        strategy: 'merge',
        tables: [{ name: huge, columns: [{ name: huge, type: huge }] }],
        deletions: { tables: [huge] },
      },
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    ];
    for (const input of inputs)
      expect(validate(normalize(input).patch, null, 'mysql', 'create').ok).toBe(false);
  });
});
