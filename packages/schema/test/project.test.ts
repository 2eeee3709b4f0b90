import type { DiagramDocument } from '../src/model';
import { toFullDocument, toSchema } from '../src/project';
import { column, documentOf, group, note, relationship, shopDocument, table } from './apply-fixtures';

describe('projection', () => {
  describe('toSchema', () => {
    it('sorts tables by name in code-unit order', () => {
      const document = documentOf({ tables: ['b', 'é', 'A', 'a', '_x'].map((name) => table(name, [])) });
      expect(toSchema(document).tables.map((t) => t.name)).toEqual(['A', '_x', 'a', 'b', 'é']);
    });

    it('keeps columns and indexes in schema order', () => {
      const document = documentOf({
        tables: [
          table('t', [column('z'), column('a')], {
            indexes: [
              { uuid: 'i2', name: 'z_idx', type: 'index', columns: ['z'] },
              { uuid: 'i1', name: 'a_idx', type: 'index', columns: ['a'] },
            ],
          }),
        ],
      });
      const [projected] = toSchema(document).tables;
      expect(projected!.columns.map((c) => c.name)).toEqual(['z', 'a']);
      expect(projected!.indexes.map((i) => i.name)).toEqual(['z_idx', 'a_idx']);
    });

    it('leaves out canvas fields, groups and sticky notes', () => {
      const document: DiagramDocument = {
        ...shopDocument(),
        groups: [group('g')],
        sticky_notes: [note('n', 'x')],
      };
      const schema = toSchema(document);
      expect(Object.keys(schema)).toEqual(['driver', 'schema_version', 'tables', 'relationships']);
      expect(Object.keys(schema.tables[0]!)).toEqual(['uuid', 'name', 'comment', 'columns', 'indexes']);
    });

    it('orders relationships by source table, source column, target table and target column', () => {
      const document = documentOf({
        relationships: [
          relationship('b.x', 'a.id'),
          relationship('a.y', 'c.id'),
          relationship('a.x', 'c.id'),
        ],
      });
      expect(toSchema(document).relationships.map((r) => `${r.source_table}.${r.source_column}`)).toEqual([
        'a.x',
        'a.y',
        'b.x',
      ]);
    });

    it('copies records, so changing the result leaves the document alone', () => {
      const document = shopDocument();
      toSchema(document).tables[0]!.columns[0]!.name = 'changed';
      expect(document.tables[1]!.columns[0]!.name).toBe('id');
    });
  });

  describe('toFullDocument', () => {
    it('returns the document with only the fields of the model', () => {
      const document = { ...shopDocument(), groups: [group('g')], sticky_notes: [note('n', 'x')] };
      const stored = structuredClone(document) as typeof document & { owner_token?: string };
      stored.owner_token = 'secret';
      (stored.tables[0] as unknown as Record<string, unknown>)['internal_id'] = 7;
      expect(toFullDocument(stored)).toEqual(document);
    });
  });
});
