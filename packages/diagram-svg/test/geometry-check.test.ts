import { crossings, type Drawing, measureSvg, pointsOfPath, sharedRuns } from '../src';

const table = (name: string, left: number, top: number, width = 100, height = 100) => ({
  name,
  box: { left, top, width, height },
});

describe('the drawing checks', () => {
  const tables = [table('a', 0, 0), table('b', 400, 0), table('c', 200, 0), table('d', 200, 300)];

  it('finds a line through a table it does not connect, and not one that goes round it', () => {
    const through: Drawing = {
      tables,
      relationships: [
        {
          id: 'r',
          source: 'a',
          target: 'b',
          points: [
            [100, 50],
            [400, 50],
          ],
        },
      ],
    };
    expect(crossings(through)).toEqual([{ relationship: 'r', table: 'c' }]);
    const round: Drawing = {
      tables,
      relationships: [
        {
          id: 'r',
          source: 'a',
          target: 'b',
          points: [
            [100, 50],
            [150, 50],
            [150, 150],
            [350, 150],
            [350, 50],
            [400, 50],
          ],
        },
      ],
    };
    expect(crossings(round)).toEqual([]);
  });

  it('lets a line touch a table outline without counting it as a crossing', () => {
    const grazing: Drawing = {
      tables,
      relationships: [
        {
          id: 'r',
          source: 'a',
          target: 'd',
          points: [
            [100, 99],
            [200, 99],
            [200, 350],
          ],
        },
      ],
    };
    expect(crossings(grazing)).toEqual([]);
  });

  it('finds two relationships sharing a long run, but not near their own tables nor on parallel lanes', () => {
    const run = (id: string, y: number, x = 150): Drawing['relationships'][number] => ({
      id,
      source: 'a',
      target: 'd',
      points: [
        [100, 20],
        [x, 20],
        [x, y],
        [200, y],
      ],
    });
    const trunk: Drawing = { tables, relationships: [run('r1', 330), run('r2', 340)] };
    expect(sharedRuns(trunk)).toEqual([{ first: 'r1', second: 'r2', length: expect.any(Number) }]);
    expect(sharedRuns(trunk)[0]!.length).toBeGreaterThan(40);
    const lanes: Drawing = { tables, relationships: [run('r1', 330, 150), run('r2', 340, 158)] };
    expect(sharedRuns(lanes)).toEqual([]);
    // Both lines end at a, so a shared run within 30 px of a does not count.
    const nearEnds: Drawing = {
      tables,
      relationships: [
        {
          id: 'r1',
          source: 'a',
          target: 'b',
          points: [
            [100, 40],
            [120, 40],
          ],
        },
        {
          id: 'r2',
          source: 'a',
          target: 'c',
          points: [
            [100, 40],
            [125, 40],
          ],
        },
      ],
    };
    expect(sharedRuns(nearEnds)).toEqual([]);
  });

  it('reads tables and lines from SVG through the markup contract', () => {
    const svg =
      '<svg><g class="dss-table" data-table="a&amp;b"><title>x</title><rect class="dss-box" x="1" y="2" width="30" height="40" rx="6"/></g>' +
      '<g class="dss-relationship" data-relationship="u1" data-source-table="a&amp;b" data-target-table="c" fill="none"><title>t</title><path class="dss-line" d="M0 0L10 0L10 5"/></g></svg>';
    expect(measureSvg(svg)).toEqual({
      tables: [{ name: 'a&amp;b', box: { left: 1, top: 2, width: 30, height: 40 } }],
      relationships: [
        {
          id: 'u1',
          source: 'a&amp;b',
          target: 'c',
          points: [
            [0, 0],
            [10, 0],
            [10, 5],
          ],
        },
      ],
    });
    expect(pointsOfPath('M1.5 2L-3 4e1')).toEqual([
      [1.5, 2],
      [-3, 40],
    ]);
  });
});
