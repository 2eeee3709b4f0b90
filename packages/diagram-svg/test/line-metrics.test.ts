// The readability measures of the layout benchmark, on drawings made by hand, in drawing units.
import type { Drawing } from '../src/geometry-check';
import {
  borderRuns,
  lineCrossings,
  medianLengthInTableWidths,
  nearParallelPairs,
  readabilityMetrics,
  sharedEndCrossings,
} from '../src/line-metrics';
import { renderDiagramSvg } from '../src/render';
import { documentFrom, shopPatch } from './fixtures';
import { parseSvg, withClass } from './svg-tree';

const box = (left: number, top: number, width = 100, height = 100) => ({ left, top, width, height });

function drawing(lines: [number, number][][], tables = [{ name: 'a', box: box(0, 0) }]): Drawing {
  return {
    tables,
    relationships: lines.map((points, at) => ({ id: `r${at}`, source: 'x', target: 'y', points })),
  };
}

describe('sharedEndCrossings', () => {
  it('should count only crossings between lines that end on one table', () => {
    const plus = (first: [string, string], second: [string, string]): Drawing => ({
      tables: [],
      relationships: [
        {
          id: 'r0',
          source: first[0],
          target: first[1],
          points: [
            [0, 50],
            [100, 50],
          ],
        },
        {
          id: 'r1',
          source: second[0],
          target: second[1],
          points: [
            [50, 0],
            [50, 100],
          ],
        },
      ],
    });
    expect(sharedEndCrossings(plus(['a', 'hub'], ['b', 'hub']))).toBe(1);
    expect(sharedEndCrossings(plus(['hub', 'a'], ['b', 'hub']))).toBe(1);
    expect(sharedEndCrossings(plus(['a', 'b'], ['c', 'd']))).toBe(0);
    expect(lineCrossings(plus(['a', 'b'], ['c', 'd']))).toBe(1);
  });
});

describe('lineCrossings', () => {
  it('should count where a horizontal run of one line crosses a vertical run of another', () => {
    const plus = drawing([
      [
        [0, 50],
        [100, 50],
      ],
      [
        [50, 0],
        [50, 100],
      ],
    ]);
    expect(lineCrossings(plus)).toBe(1);
  });

  it('should not count lines that only touch at an end, or a line crossing itself', () => {
    const touching = drawing([
      [
        [0, 50],
        [50, 50],
      ],
      [
        [50, 50],
        [50, 100],
      ],
      [
        [200, 0],
        [300, 0],
        [300, 100],
        [250, 100],
        [250, -50],
      ],
    ]);
    expect(lineCrossings(touching)).toBe(0);
  });
});

describe('nearParallelPairs', () => {
  const pair = (gap: number, length: number) =>
    drawing([
      [
        [0, 0],
        [length, 0],
      ],
      [
        [0, gap],
        [length, gap],
      ],
    ]);

  it('should find two lines 2–8 px apart over more than 80 px', () => {
    expect(nearParallelPairs(pair(5, 120))).toEqual([{ first: 0, second: 1, length: 120 }]);
  });

  it('should leave lines 8 px or more apart, shorter side-by-side runs, and lines on one track to other checks', () => {
    expect(nearParallelPairs(pair(8, 400))).toEqual([]);
    expect(nearParallelPairs(pair(5, 80))).toEqual([]);
    expect(nearParallelPairs(pair(1, 400))).toEqual([]);
  });
});

describe('borderRuns', () => {
  it('should find a line running along the border of a table it does not connect', () => {
    const along = drawing(
      [
        [
          [-20, -2],
          [150, -2],
        ],
      ],
      [{ name: 'a', box: box(0, 0) }],
    );
    expect(borderRuns(along)).toEqual([{ relationship: 'r0', table: 'a', length: 100 }]);
  });

  it('should leave lines 4 px or more from the border, and the tables a line connects', () => {
    const clear = drawing([
      [
        [-20, -4],
        [150, -4],
      ],
    ]);
    expect(borderRuns(clear)).toEqual([]);
    const own: Drawing = {
      tables: [{ name: 'x', box: box(0, 0) }],
      relationships: [
        {
          id: 'r0',
          source: 'x',
          target: 'y',
          points: [
            [-20, 0],
            [150, 0],
          ],
        },
      ],
    };
    expect(borderRuns(own)).toEqual([]);
  });
});

describe('medianLengthInTableWidths', () => {
  it('should divide the median line length by the median table width', () => {
    const lines = drawing(
      [
        [
          [0, 0],
          [200, 0],
        ],
        [
          [0, 0],
          [0, 300],
          [100, 300],
        ],
        [
          [0, 0],
          [50, 0],
        ],
      ],
      [
        { name: 'a', box: box(0, 0, 100) },
        { name: 'b', box: box(0, 0, 100) },
      ],
    );
    expect(medianLengthInTableWidths(lines)).toBe(2);
  });
});

describe('crossings drawn as crossings', () => {
  it('should draw a casing in the background colour under each line, so a later line gaps an earlier one', () => {
    const root = parseSvg(renderDiagramSvg(documentFrom(shopPatch).document));
    for (const relationship of withClass(root, 'dss-relationship')) {
      const paths = relationship.children.filter((child) => child.name === 'path');
      const halo = paths[0]!;
      const line = paths[1]!;
      expect(halo.attributes['class']).toBe('dss-halo');
      expect(line.attributes['class']).toBe('dss-line');
      expect(halo.attributes['d']).toBe(line.attributes['d']);
      expect(Number(halo.attributes['stroke-width'])).toBeGreaterThanOrEqual(3);
    }
  });

  it('should report the measures of the layout benchmark for a drawing', () => {
    const metrics = readabilityMetrics(
      drawing([
        [
          [0, 50],
          [100, 50],
        ],
        [
          [50, 0],
          [50, 100],
        ],
      ]),
    );
    expect(metrics).toMatchObject({ crossings: 1, crossingsPerRelationship: 0.5, nearParallelPairs: 0 });
  });
});
