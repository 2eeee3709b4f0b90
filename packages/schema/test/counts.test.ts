import { documentCounts, proposalCounts } from '../src/counts';
import { patchColumn, patchOf, patchTable, shopDocument } from './apply-fixtures';

describe('counts', () => {
  describe('proposalCounts', () => {
    it('counts the entries each section names, columns across all tables', () => {
      const patch = patchOf({
        tables: [
          patchTable('a', { columns: [patchColumn('x'), patchColumn('y')] }),
          patchTable('b', { columns: [patchColumn('z')] }),
        ],
        groups: [{ name: 'g' }],
        relationships: [
          {
            type: 'one-to-one',
            source_table: 'a',
            source_column: 'x',
            target_table: 'b',
            target_column: 'z',
          },
        ],
        sticky_notes: [{ content: '1' }, { content: '2' }],
      });
      expect(proposalCounts(patch)).toEqual({
        tables: 2,
        columns: 3,
        relationships: 1,
        groups: 1,
        sticky_notes: 2,
        deletions: 0,
      });
    });

    it('totals every entry under deletions', () => {
      const endpoints = { source_table: 'a', source_column: 'x', target_table: 'b', target_column: 'y' };
      const patch = patchOf({
        deletions: {
          tables: ['t1', 't2'],
          columns: [
            { table: 'a', columns: ['x', 'y'] },
            { table: 'b', columns: ['z'] },
          ],
          indexes: [{ table: 'a', indexes: ['i1'] }],
          relationships: [endpoints],
          groups: [{ name: 'g', delete_children: true }],
          sticky_notes: ['n1', 'n2'],
        },
      });
      expect(proposalCounts(patch).deletions).toBe(2 + 3 + 1 + 1 + 1 + 2);
    });
  });

  describe('documentCounts', () => {
    it('counts the records of the diagram', () => {
      expect(documentCounts(shopDocument())).toEqual({
        tables: 2,
        columns: 4,
        indexes: 3,
        relationships: 1,
        groups: 0,
        sticky_notes: 0,
      });
    });
  });
});
