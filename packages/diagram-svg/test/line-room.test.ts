// Room for the lines (line-room.ts): after a large whole schema's layout, tables move apart where the
// routed lines run closer than 8 px side by side, and only there; the tables keep their order and never
// come to overlap. Measured on the drawing, in drawing units.
import { type DiagramDocument, reLayOut } from '@dss/schema';
import { makeRoomForLines, measureSvg, nearParallelPairs, renderDiagramSvg, sharedRuns } from '../src';
import { generatedDiagram, inSeededOrder } from '../src/bench/schema-generator';

const nearParallel = (document: DiagramDocument) =>
  nearParallelPairs(measureSvg(renderDiagramSvg(document))).length;

/** Whether two tables' boxes overlap. */
function overlaps(a: DiagramDocument['tables'][number], b: DiagramDocument['tables'][number]): boolean {
  return (
    a.left < b.left + b.width &&
    b.left < a.left + a.width &&
    a.top < b.top + b.height &&
    b.top < a.top + a.height
  );
}

describe('room for the lines of a large schema', () => {
  const laidOut = generatedDiagram({ tables: 140, relationships: 340 });
  const roomy = makeRoomForLines(laidOut);

  it('halves the pairs of lines running 2–8 px apart', () => {
    const before = nearParallel(laidOut);
    const after = nearParallel(roomy);
    expect(before).toBeGreaterThan(100);
    expect(after).toBeLessThan(before / 2);
  });

  it('moves tables only apart: every pair keeps its order along both axes, and none comes to overlap', () => {
    const moved = roomy.tables.filter((table, at) => {
      const was = laidOut.tables[at]!;
      return table.left !== was.left || table.top !== was.top;
    });
    expect(moved.length).toBeGreaterThan(0);
    const disorders: string[] = [];
    const overlapping: string[] = [];
    for (let i = 0; i < roomy.tables.length; i++)
      for (let j = i + 1; j < roomy.tables.length; j++) {
        const [a, b] = [roomy.tables[i]!, roomy.tables[j]!];
        const [wasA, wasB] = [laidOut.tables[i]!, laidOut.tables[j]!];
        for (const axis of ['left', 'top'] as const) {
          const gapBefore = wasB[axis] - wasA[axis];
          const gapAfter = b[axis] - a[axis];
          // Apart only: the distance between the two grows or stays, and no pair swaps.
          if (Math.sign(gapBefore) !== Math.sign(gapAfter) || Math.abs(gapAfter) < Math.abs(gapBefore))
            disorders.push(`${a.name}/${b.name} ${axis}`);
        }
        if (overlaps(a, b)) overlapping.push(`${a.name}/${b.name}`);
      }
    expect(disorders).toEqual([]);
    expect(overlapping).toEqual([]);
    // Everything but the positions is as it was.
    expect(roomy.tables.map(({ left: _l, top: _t, ...rest }) => rest)).toEqual(
      laidOut.tables.map(({ left: _l, top: _t, ...rest }) => rest),
    );
    expect(roomy.relationships).toEqual(laidOut.relationships);
  });

  it('leaves a schema under 30 tables, and one with a group or a sticky note, as it is', () => {
    const small = generatedDiagram({ tables: 29, relationships: 60 });
    expect(makeRoomForLines(small)).toBe(small);
    const grouped: DiagramDocument = {
      ...laidOut,
      groups: [
        {
          uuid: '00000000-0000-4000-8000-000000000001',
          name: 'billing',
          left: 0,
          top: 0,
          width: 400,
          height: 400,
          color: null,
          parent_uuid: null,
        } as unknown as DiagramDocument['groups'][number],
      ],
    };
    expect(makeRoomForLines(grouped)).toBe(grouped);
    const noted: DiagramDocument = {
      ...laidOut,
      sticky_notes: [
        {
          uuid: '00000000-0000-4000-8000-000000000002',
          content: 'read me',
          left: 0,
          top: 0,
          width: 200,
          height: 100,
          color: null,
          parent_uuid: null,
        } as unknown as DiagramDocument['sticky_notes'][number],
      ],
    };
    expect(makeRoomForLines(noted)).toBe(noted);
  });

  // The same 140-table schema with its tables listed in two other orders (as another dump would list them):
  // with only the two passes for lines closer than 8 px, these left 10 and 22 pairs of lines lying on one
  // another (four to six lines riding one vertical into a hub's squeezed approach column).
  it.each([2, 3])(
    'opens the corridors where lines lie on one another: order %i of the schema leaves no shared run',
    (order) => {
      const drawing = measureSvg(renderDiagramSvg(makeRoomForLines(reLayOut(inSeededOrder(laidOut, order)))));
      expect(sharedRuns(drawing).map((run) => `${run.first}/${run.second} ${run.length}`)).toEqual([]);
    },
  );

  // From 30 tables to 100, only those corridors open (the others keep the layout they have): two orders of
  // an 80-table schema left 2 and 3 shared runs without, none with.
  it.each([6, 8])(
    'opens only where lines lie on one another below 100 tables: order %i of 80 tables',
    (order) => {
      const eighty = reLayOut(inSeededOrder(generatedDiagram({ tables: 80, relationships: 160 }), order));
      const roomy80 = makeRoomForLines(eighty);
      expect(sharedRuns(measureSvg(renderDiagramSvg(roomy80))).length).toBe(0);
      // A corridor or two open, not every gap where lines run close: the drawing grows under 3% each way.
      const extent = (document: DiagramDocument) => [
        Math.max(...document.tables.map((table) => table.left + table.width)),
        Math.max(...document.tables.map((table) => table.top + table.height)),
      ];
      const [width, height] = extent(eighty) as [number, number];
      const [roomyWidth, roomyHeight] = extent(roomy80) as [number, number];
      expect(roomyWidth + roomyHeight).toBeGreaterThan(width + height);
      expect(roomyWidth / width).toBeLessThan(1.03);
      expect(roomyHeight / height).toBeLessThan(1.03);
    },
  );
});
