// Runs left on the outline of a table their line does not connect, or on another line's run, move off it
// (routing/tidy-runs.ts): hand-made routes, as the router leaves them after the lanes.
import type { Point, Rect } from '../src/routing/grid-search';
import type { LaneRoute } from '../src/routing/lanes';
import { borderRuns } from '../src/line-metrics';
import { tidyRuns } from '../src/routing/tidy-runs';

/** A table the line passes, its left edge at x = 300. */
const BESIDE: Rect = { left: 300, top: 200, right: 500, bottom: 400 };

/** From (100, 100) right to x = 300, down the table's left edge to y = 500, right to (700, 500). */
function onOutline(): LaneRoute {
  return {
    points: [
      [100, 100],
      [300, 100],
      [300, 500],
      [700, 500],
    ],
    sourceSide: 1,
    targetSide: -1,
  };
}

function line(points: Point[]): LaneRoute {
  return { points, sourceSide: 1, targetSide: -1 };
}

/** Lines at x 298, 295, 292 and 289 below the table (y 420–480), each less than 2.5 px from the next place. */
function linesBelow(): LaneRoute[] {
  return [298, 295, 292, 289].map((x) =>
    line([
      [x, 420],
      [x, 480],
    ]),
  );
}

describe('tidyRuns', () => {
  it('moves a run on the outline of a table its line does not connect to the nearest place more than 3 px off it', () => {
    const route = onOutline();
    expect(tidyRuns([route], [BESIDE])).toBe(1);
    // Out of the table (its left edge at 300) and more than 3 px off its outline: 296.5.
    expect(route.points).toEqual([
      [100, 100],
      [296.5, 100],
      [296.5, 500],
      [700, 500],
    ]);
  });

  it('keeps the run a little farther where another line lies right beside the nearest place', () => {
    const route = onOutline();
    const other = line([
      [296, 150],
      [296, 450],
    ]);
    expect(tidyRuns([route, other], [BESIDE])).toBe(1);
    // 296.5 to 294 lie closer than 2.5 px to the other line's run at 296; 293.5 is the nearest free place.
    expect(route.points[1]).toEqual([293.5, 100]);
  });

  it('leaves a run with no such place, a kept line of the editor, and a line along its own table', () => {
    // Lines at 296, 292, 288 and 284: every place up to 12 px off lies closer than 2.5 px to one of them.
    const crowd = [296, 292, 288, 284].map((x) =>
      line([
        [x, 150],
        [x, 450],
      ]),
    );
    const crowded = onOutline();
    expect(tidyRuns([crowded, ...crowd], [BESIDE])).toBe(0);
    expect(crowded.points).toEqual(onOutline().points);
    const kept = { ...onOutline(), settled: true };
    expect(tidyRuns([kept], [BESIDE])).toBe(0);
    const ownTable = { ...onOutline(), zones: [{ left: 270, top: 170, right: 530, bottom: 430 }] };
    expect(tidyRuns([ownTable], [BESIDE])).toBe(0);
    expect(ownTable.points).toEqual(onOutline().points);
  });

  it('where the whole run has no place, moves only its stretch beside the table and steps back past it', () => {
    // Lines at 298, 295, 292 and 289 below the table (y 420–480): every place up to 12 px off for the whole
    // run lies closer than 2.5 px to one of them, but the stretch from the line's turn to 8 px past the
    // table's bottom (y 408) meets none of them.
    const below = linesBelow();
    const route = onOutline();
    expect(tidyRuns([route, ...below], [BESIDE])).toBe(1);
    expect(route.points).toEqual([
      [100, 100],
      [296.5, 100],
      [296.5, 408],
      [300, 408],
      [300, 500],
      [700, 500],
    ]);
    expect(
      borderRuns({
        tables: [{ name: 'beside', box: { left: 300, top: 200, width: 200, height: 200 } }],
        relationships: [{ id: 'r', source: 's', target: 't', points: route.points }],
      }),
    ).toEqual([]);
  });

  it('makes no such step where it would cross more than two other lines', () => {
    const below = linesBelow();
    // Three lines ending just short of the run (x 286–298.5, y 150–170): wherever the stretch moves, 3.5 to
    // 12 px left, it crosses all three.
    const short = [150, 160, 170].map((y) =>
      line([
        [286, y],
        [298.5, y],
      ]),
    );
    const route = onOutline();
    expect(tidyRuns([route, ...below, ...short], [BESIDE])).toBe(0);
    expect(route.points).toEqual(onOutline().points);
  });

  it('keeps room for the end marker on a first or last run', () => {
    // The run before the outline is the line's first, 22 px long: moving 3.5 px left would leave 18.5.
    const route = line([
      [278, 100],
      [300, 100],
      [300, 500],
      [700, 500],
    ]);
    // The run's stretch beside the table moves instead, from 8 px above the table's top on: the first run
    // keeps its 22 px.
    expect(tidyRuns([route], [BESIDE])).toBe(1);
    expect(route.points).toEqual([
      [278, 100],
      [300, 100],
      [300, 192],
      [296.5, 192],
      [296.5, 500],
      [700, 500],
    ]);
  });

  it('moves a run lying on another line’s run (1 px apart over 300 px) to the nearest place 2.5 px or more off it', () => {
    const route = line([
      [100, 100],
      [400, 100],
      [400, 500],
      [700, 500],
    ]);
    const other = line([
      [401, 120],
      [401, 420],
    ]);
    expect(tidyRuns([route, other], [])).toBe(1);
    // 398.5 is the nearest place no closer than 2.5 px to the other run at 401.
    expect(route.points[1]).toEqual([398.5, 100]);
    expect(route.points[2]).toEqual([398.5, 500]);
    // Lying on it over 40 px or less (the shared-run measure's limit) is left as it is.
    const short = line([
      [100, 100],
      [400, 100],
      [400, 500],
      [700, 500],
    ]);
    expect(
      tidyRuns(
        [
          short,
          line([
            [401, 120],
            [401, 160],
          ]),
        ],
        [],
      ),
    ).toBe(0);
  });
});
