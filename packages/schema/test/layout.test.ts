import { apply } from '../src/apply';
import { layOutNewRecords, portLinks, WHOLE_SCHEMA } from '../src/layout';
import { portCrossings } from '../src/layout-refine';
import { generateDiagram } from '../src/generated/generate-diagram';
import type { DiagramDocument, Frame } from '../src/model';
import { estimateTableSize } from '../src/table-size';
import {
  column,
  documentOf,
  patchColumn,
  patchOf,
  patchTable,
  sequentialUuids,
  shopDocument,
  table,
  tableNamed,
} from './apply-fixtures';

const overlaps = (a: Frame, b: Frame) =>
  a.left < b.left + b.width &&
  b.left < a.left + a.width &&
  a.top < b.top + b.height &&
  b.top < a.top + a.height;

function overlappingPairs(frames: Frame[]): number {
  let pairs = 0;
  for (let i = 0; i < frames.length; i++)
    for (let j = i + 1; j < frames.length; j++) if (overlaps(frames[i]!, frames[j]!)) pairs++;
  return pairs;
}

const centre = (f: Frame) => ({ x: f.left + f.width / 2, y: f.top + f.height / 2 });
const distance = (a: Frame, b: Frame) => Math.hypot(centre(a).x - centre(b).x, centre(a).y - centre(b).y);

describe('layout', () => {
  describe('estimateTableSize', () => {
    it('grows the height by one row per column and clamps the width', () => {
      expect(estimateTableSize({ name: 'a', columns: [] })).toEqual({ width: 180, height: 68 });
      const long = { name: 'x'.repeat(100), columns: [{ name: 'a', driver_data_type_name: 'int' }] };
      expect(estimateTableSize(long)).toEqual({ width: 480, height: 68 });
      const medium = { name: 't', columns: [{ name: 'created_at_utc', driver_data_type_name: 'timestamp' }] };
      expect(estimateTableSize(medium).width).toBe(8 * (14 + 9 + 2) + 48);
    });
  });

  describe('tables without positions', () => {
    it('never overlap existing tables or each other', () => {
      const before = generateDiagram({ tables: 120, columnsPerTable: 8, seed: 3 });
      const tables = before.tables
        .slice(0, 30)
        .map((existing, n) => patchTable(`new_${n}`, { columns: [patchColumn(`${existing.name}_id`)] }));
      const relationships = tables.map((entry, n) => ({
        type: 'many-to-one' as const,
        source_table: entry.name,
        source_column: entry.columns[0]!.name,
        target_table: before.tables[n]!.name,
        target_column: 'id',
      }));
      const after = apply(before, patchOf({ tables, relationships })).document;
      expect(overlappingPairs(after.tables)).toBe(0);
    });

    it('land near the table they relate to', () => {
      const before = documentOf({
        tables: [
          table('far', [column('id')], { left: 5000, top: 5000 }),
          table('home', [column('id')], { left: 0, top: 0 }),
        ],
      });
      const patch = patchOf({
        tables: [patchTable('child', { columns: [patchColumn('home_id')] })],
        relationships: [
          {
            type: 'many-to-one',
            source_table: 'child',
            source_column: 'home_id',
            target_table: 'home',
            target_column: 'id',
          },
        ],
      });
      const after = apply(before, patch).document;
      const child = tableNamed(after, 'child');
      expect(distance(child, tableNamed(after, 'home'))).toBeLessThan(600);
      expect(overlappingPairs(after.tables)).toBe(0);
    });

    it('move nothing that was already placed', () => {
      const before = shopDocument();
      const after = apply(before, patchOf({ tables: [patchTable('a'), patchTable('b')] })).document;
      expect(after.tables.slice(0, 2)).toEqual(before.tables);
    });

    it('lay out a diagram created from scratch without overlaps and at non-negative coordinates', () => {
      const tables = Array.from({ length: 40 }, (_, n) =>
        patchTable(`t${n}`, { columns: [patchColumn('id'), patchColumn('ref')] }),
      );
      const relationships = tables.slice(1).map((entry, n) => ({
        type: 'many-to-one' as const,
        source_table: entry.name,
        source_column: 'ref',
        target_table: `t${Math.floor(n / 3)}`,
        target_column: 'id',
      }));
      const after = apply(documentOf(), patchOf({ tables, relationships })).document;
      expect(overlappingPairs(after.tables)).toBe(0);
      expect(Math.min(...after.tables.map((t) => Math.min(t.left, t.top)))).toBeGreaterThanOrEqual(0);
    });

    it('is deterministic', () => {
      const patch = patchOf({ tables: [patchTable('a', { columns: [patchColumn('x')] }), patchTable('b')] });
      const first = apply(shopDocument(), patch, { newUuid: sequentialUuids() }).document;
      const second = apply(shopDocument(), patch, { newUuid: sequentialUuids() }).document;
      expect(second).toEqual(first);
    });
  });

  describe('a whole schema', () => {
    // 60 tables, each referencing one table of a tree and one elsewhere: an import's whole-schema layout.
    const imported = () => {
      const tables = Array.from({ length: 60 }, (_, n) =>
        patchTable(`t${n}`, { columns: [patchColumn('id'), patchColumn('a'), patchColumn('b')] }),
      );
      const relationships = tables.slice(1).flatMap((entry, at) => {
        const n = at + 1;
        const other = (n * 17 + 5) % 60;
        return [
          {
            type: 'many-to-one' as const,
            source_table: entry.name,
            source_column: 'a',
            target_table: `t${Math.floor(n / 3)}`,
            target_column: 'id',
          },
          ...(other === n
            ? []
            : [
                {
                  type: 'many-to-one' as const,
                  source_table: entry.name,
                  source_column: 'b',
                  target_table: `t${other}`,
                  target_column: 'id',
                },
              ]),
        ];
      });
      return apply(documentOf(), patchOf({ tables, relationships })).document;
    };

    it('crosses fewer lines than the force layout it refines, overlapping nothing', () => {
      const document = imported();
      expect(document.tables.length).toBeGreaterThanOrEqual(WHOLE_SCHEMA);
      const sizes = document.tables.map(({ name, width, height }) => ({ name, width, height }));
      const all = {
        tables: new Set(document.tables.map((t) => t.uuid)),
        groups: new Set<string>(),
        notes: new Set<string>(),
      };
      const byName = (frames: Map<string, Frame>) =>
        new Map(document.tables.map((t) => [t.name, frames.get(t.uuid)!] as const));
      const forceAlone = byName(layOutNewRecords(document, all, { refine: false }));
      const kept = new Map(document.tables.map((t) => [t.name, t] as const));
      expect(portCrossings(sizes, portLinks(document), kept)).toBeLessThan(
        portCrossings(sizes, portLinks(document), forceAlone),
      );
      expect(overlappingPairs(document.tables)).toBe(0);
    });
  });

  describe('groups and notes', () => {
    it('frame a new group around its new tables', () => {
      const patch = patchOf({
        groups: [{ name: 'billing' }],
        tables: [
          patchTable('invoices', { parent_name: 'billing' }),
          patchTable('payments', { parent_name: 'billing' }),
        ],
      });
      const after = apply(shopDocument(), patch).document;
      const frame = after.groups[0]!;
      for (const name of ['invoices', 'payments']) {
        const member = tableNamed(after, name);
        expect(member.left).toBeGreaterThan(frame.left);
        expect(member.top).toBeGreaterThan(frame.top);
        expect(member.left + member.width).toBeLessThan(frame.left + frame.width);
        expect(member.top + member.height).toBeLessThan(frame.top + frame.height);
      }
      expect(overlappingPairs([frame, ...shopDocument().tables])).toBe(0);
    });

    it('grow a placed group to enclose a new member', () => {
      const before: DiagramDocument = {
        ...shopDocument(),
        groups: [
          {
            uuid: 'g',
            name: 'core',
            color: null,
            parent_uuid: null,
            left: -50,
            top: -80,
            width: 800,
            height: 300,
          },
        ],
      };
      const after = apply(
        before,
        patchOf({ tables: [patchTable('audit', { parent_uuid: 'g', columns: [patchColumn('id')] })] }),
      ).document;
      const audit = tableNamed(after, 'audit');
      const frame = after.groups[0]!;
      expect(audit.top + audit.height).toBeLessThanOrEqual(frame.top + frame.height);
      expect(audit.left + audit.width).toBeLessThanOrEqual(frame.left + frame.width);
      expect(overlappingPairs(after.tables)).toBe(0);
    });

    it('place a new sticky note beside its group without overlapping anything', () => {
      const before: DiagramDocument = {
        ...shopDocument(),
        groups: [
          {
            uuid: 'g',
            name: 'core',
            color: null,
            parent_uuid: null,
            left: -50,
            top: -80,
            width: 800,
            height: 300,
          },
        ],
      };
      const after = apply(
        before,
        patchOf({ sticky_notes: [{ content: 'hello', parent_name: 'core' }] }),
      ).document;
      const stickyNote = after.sticky_notes[0]!;
      expect(stickyNote.left).toBeGreaterThanOrEqual(750);
      expect([...after.tables, ...after.groups].filter((other) => overlaps(stickyNote, other))).toEqual([]);
    });
  });

  describe('cost', () => {
    // Its time is measured by the layout benchmark (npm run bench -w packages/schema), not asserted here.
    it('lays out 200 new tables against a 1,000-table diagram beside their neighbours, overlapping nothing', () => {
      const before = generateDiagram({ tables: 1000, columnsPerTable: 20 });
      const tables = Array.from({ length: 200 }, (_, n) =>
        patchTable(`extra_${n}`, { columns: [patchColumn('id'), patchColumn('ref')] }),
      );
      const relationships = tables.map((entry, n) => ({
        type: 'many-to-one' as const,
        source_table: entry.name,
        source_column: 'ref',
        target_table: before.tables[(n * 7) % 1000]!.name,
        target_column: 'id',
      }));
      const after = apply(before, patchOf({ tables, relationships })).document;
      const added = after.tables.slice(1000);
      const neighbours = after.tables.filter((t) =>
        added.some((a) =>
          overlaps({ ...a, left: a.left - 1, top: a.top - 1, width: a.width + 2, height: a.height + 2 }, t),
        ),
      );
      expect(neighbours.filter((t) => !added.includes(t))).toEqual([]);
      expect(overlappingPairs(added)).toBe(0);
    });
  });
});
