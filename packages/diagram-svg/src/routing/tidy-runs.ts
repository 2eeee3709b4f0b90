// The last step over a drawing's orthogonal runs (after the lanes, the trades and the exchanges, before the
// fans). Two kinds of run remain that read wrong, a few on the large graphs:
// - a run along the outline of a table its line does not connect (3 px or nearer, over more than 10 px, as
//   line-metrics' border runs count it) reads as part of that table's border. The lanes leave some: a
//   corridor 26 px wide between two tables holding three lines, one of them held 20 px off its own table for
//   its end marker, has no place a lane off the others and clear of both tables, and the lanes' last repair
//   takes the nearest place merely out of the tables, which can be a table's outline;
// - a run lying on another line's run (SAME_LINE or closer, over more than MAX_SHARED outside the two lines'
//   own tables: geometry-check's shared runs), where the two read as one: two hubs' fans whose approach
//   columns meet in the gap between the hubs, neither of which the lanes move.
// Each such run moves to the nearest place (up to STEPS' reach) where it and the two runs it joins lie off
// every outline and out of every table, it lies no closer than TOO_CLOSE to another line's run beside it,
// and the line's first and last runs keep room for their end markers. A run along an outline with no such
// place moves only its stretch beside the table, stepping back onto its place past the table (splitOff).
// A run with no place either way stays.
import { ALONG_MINIMUM, ALONG_WITHIN, type AxisRun, eachTableAlong, lengthAlongOthers } from '../along-edge';
import { MAX_SHARED } from '../geometry-check';
import type { Point, Rect } from './grid-search';
import { entersTable, type LaneRoute, lengthOutside, MARKER_ROOM, TableIndex, TOO_CLOSE } from './lanes';

/**
 * Runs of two lines this close lie on one another. geometry-check's shared runs count 1.5 px; the repair
 * looks a little wider.
 */
const SAME_LINE = 2;
/**
 * Runs looked at, at most, per line: Lago and the generated 300 tables have under 0.1 per line to look at,
 * the page benchmark's 300 random tables 1.6; packages/schema's 1,000 random tables and 1,998 keys 13, where
 * looking at all took 1.6 s of the drawing.
 */
const RUNS_PER_LINE = 2;
/** Keys of runs: route × RUN_KEY + the index of the run's first point. */
const RUN_KEY = 1 << 16;
/** Where a run may move, nearest first: half a px at a time up to 12 px each way. */
const STEPS = Array.from({ length: 48 }, (_, k) => ((k >> 1) + 1) * 0.5 * (k % 2 === 0 ? 1 : -1));

interface Span extends AxisRun {
  route: number;
  /** The run's first point's index in its route's points (-1 for a run not in a route). */
  at: number;
}

/** Moves runs off tables' outlines and off other lines' runs (see the top); returns how many moved. */
export function tidyRuns(routes: readonly LaneRoute[], tableRects: readonly Rect[]): number {
  const tables = new TableIndex(tableRects);
  /** How far the run s–t lies along outlines of tables the route does not connect. */
  const along = (route: LaneRoute, s: Point, t: Point): number => {
    const span = spanOf(-1, s, t);
    return span === null ? 0 : lengthAlongOthers(span, tables, route.zones ?? []);
  };
  const enters = (s: Point, t: Point) => {
    const area = {
      left: Math.min(s[0], t[0]),
      right: Math.max(s[0], t[0]),
      top: Math.min(s[1], t[1]),
      bottom: Math.max(s[1], t[1]),
    };
    return tables.some(area, (table) => entersTable(s, t, table));
  };
  const sorted = new SortedSpans(routes);
  const suspects = sorted.suspects(tableRects);
  let left = RUNS_PER_LINE * routes.length;
  let splitsLeft = SPLITS_PER_LINE * routes.length;
  let moved = 0;
  routes.forEach((route, index) => {
    if (route.settled) return;
    const points = route.points;
    // Interior runs only: a first or last run leaves or reaches its own table on its row.
    for (let at = 1; at + 2 < points.length && left > 0; at++) {
      if (!suspects.has(index * RUN_KEY + at)) continue;
      left--;
      const a = points[at] as Point;
      const b = points[at + 1] as Point;
      if (along(route, a, b) <= 0 && onOthers(routes, sorted, index, a, b) <= MAX_SHARED) continue;
      const value = STEPS.map((step) => placeAt(points, at, step)).find((place) => {
        if (place === null) return false;
        const [before, movedA, movedB, after] = place;
        if (enters(before, movedA) || enters(movedA, movedB) || enters(movedB, after)) return false;
        if (along(route, before, movedA) + along(route, movedA, movedB) + along(route, movedB, after) > 0)
          return false;
        return !sorted.crowds(index, movedA, movedB);
      });
      if (value === undefined || value === null) {
        // No place for the whole run: only its stretch along the tables moves, with a step where it ends.
        if (
          splitsLeft-- > 0 &&
          along(route, a, b) > 0 &&
          splitOff(route, index, at, tables, sorted, along, enters)
        ) {
          moved++;
          // The route's later runs have new indices: its other suspects wait for another drawing.
          break;
        }
        continue;
      }
      // The three runs that change (the moved one and the two it joins) leave the index and come back.
      for (let run = at - 1; run <= at + 1; run++)
        sorted.remove(index, points[run] as Point, points[run + 1] as Point);
      points[at] = value[1];
      points[at + 1] = value[2];
      for (let run = at - 1; run <= at + 1; run++)
        sorted.add(index, points[run] as Point, points[run + 1] as Point, run);
      moved++;
    }
  });
  return moved;
}

/**
 * The run at `at` moved `step` px across, with the points before and after it: null where a run it joins
 * would vanish or turn back, or a first or last run would leave no room for its end marker.
 */
function placeAt(points: readonly Point[], at: number, step: number): [Point, Point, Point, Point] | null {
  const before = points[at - 1] as Point;
  const a = points[at] as Point;
  const b = points[at + 1] as Point;
  const after = points[at + 2] as Point;
  const index = a[0] === b[0] ? 0 : 1;
  const shift = (point: Point): Point =>
    index === 0 ? [point[0] + step, point[1]] : [point[0], point[1] + step];
  const movedA = shift(a);
  const movedB = shift(b);
  // The joining runs lie across: their length along `index` changes by the step, keeping its sign.
  const kept = (from: Point, to: Point, movedTo: number, minimum: number) => {
    const was = to[index] - from[index];
    const now = movedTo - from[index];
    return Math.sign(was) === Math.sign(now) && Math.abs(now) >= minimum;
  };
  if (!kept(before, a, movedA[index], at - 1 === 0 ? MARKER_ROOM : 1)) return null;
  if (!kept(after, b, movedB[index], at + 2 === points.length - 1 ? MARKER_ROOM : 1)) return null;
  return [before, movedA, movedB, after];
}

/**
 * Runs split (splitOff) looked at, at most, per line: Lago has 1 run to split among 340 lines; the page
 * benchmark's 300 random tables 155 (14 of them split), which took 180 ms of the drawing.
 */
const SPLITS_PER_LINE = 0.1;
/**
 * Crossings a split may add, at most: stepping aside in a crowded corridor crosses the line next to it
 * twice (on the way out and on the step back), which reads better than a line on a table's outline.
 */
const SPLIT_CROSSINGS = 2;
/** How far past the tables' ends a split run steps back onto its place: a lane or more, clear of their corners. */
const STEP_CLEAR = [8, 16];

/**
 * For a run along the outline of a table (or tables) with no free place for the whole of it: its part from
 * one end to STEP_CLEAR past the tables moves aside (as a whole run would, half a px at a time up to 12 px)
 * and steps back onto the run's place there. A run held beside a table by its end marker's room (20 px off
 * its own table) is held so only where that table is: beside another table earlier along, the room is free.
 * Made where the moved part, the step and the run joined lie off every outline and out of every table, the
 * moved part and the step lie TOO_CLOSE or farther from other lines' runs, and the line crosses at most
 * SPLIT_CROSSINGS more runs than before. Returns whether the route changed.
 */
function splitOff(
  route: LaneRoute,
  index: number,
  at: number,
  tables: TableIndex,
  sorted: SortedSpans,
  along: (route: LaneRoute, s: Point, t: Point) => number,
  enters: (s: Point, t: Point) => boolean,
): boolean {
  const points = route.points;
  const a = points[at] as Point;
  const b = points[at + 1] as Point;
  const axis = a[0] === b[0] ? 1 : 0;
  const span = spanOf(index, a, b) as Span;
  // The stretch of the run beside the tables it lies along.
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  // Which side across the tables lie on (1: beyond the run), both sides: 0.
  let side: number | null = null;
  eachTableAlong(span, tables, route.zones ?? [], (table) => {
    const [start, end, near, far] = span.vertical
      ? [table.top, table.bottom, table.left, table.right]
      : [table.left, table.right, table.top, table.bottom];
    const beyond = Math.sign((near + far) / 2 - span.across);
    side = side === null || side === beyond ? beyond : 0;
    low = Math.min(low, Math.max(start, span.from));
    high = Math.max(high, Math.min(end, span.to));
  });
  if (!(low < high) || side === null || side === 0) return false;
  // The stretch moves away from the tables: towards them it would enter one.
  const steps = STEPS.filter((step) => Math.sign(step) !== side);
  const forward = b[axis] > a[axis];
  const across = 1 - axis;
  const crossedRun = sorted.crossings(index, a, b);
  // The part from a (the head) or the part to b (the tail) moves.
  for (const head of [true, false]) {
    // The moved part's end and the run joined there (the line's first or last run keeps room for its end
    // marker): the only runs that change with the run itself.
    const [end, joined] = head ? [a, points[at - 1] as Point] : [b, points[at + 2] as Point];
    const endRun = head ? at - 1 === 0 : at + 2 === points.length - 1;
    const crossedBefore = crossedRun + sorted.crossings(index, joined, end);
    for (const clear of STEP_CLEAR) {
      // Where the step lies along the run: past the tables' stretch, on the side away from the moved end.
      const stepAt = head === forward ? high + clear : low - clear;
      if (!(Math.min(a[axis], b[axis]) + 1 < stepAt && stepAt < Math.max(a[axis], b[axis]) - 1)) continue;
      const split: Point = axis === 1 ? [a[0], stepAt] : [stepAt, a[1]];
      for (const step of steps) {
        const was = end[across] - joined[across];
        const now = was + step;
        if (Math.sign(now) !== Math.sign(was) || Math.abs(now) < (endRun ? MARKER_ROOM : 1)) continue;
        const shift = (point: Point): Point =>
          across === 0 ? [point[0] + step, point[1]] : [point[0], point[1] + step];
        const movedEnd = shift(end);
        const movedSplit = shift(split);
        const runs: [Point, Point][] = [
          [joined, movedEnd],
          [movedEnd, movedSplit],
          [movedSplit, split],
        ];
        if (runs.some(([s, t]) => enters(s, t) || along(route, s, t) > 0)) continue;
        if (runs.slice(1).some(([s, t]) => sorted.crowds(index, s, t))) continue;
        const crossedAfter =
          runs.reduce((sum, [s, t]) => sum + sorted.crossings(index, s, t), 0) +
          (head ? sorted.crossings(index, split, b) : sorted.crossings(index, a, split));
        if (crossedAfter > crossedBefore + SPLIT_CROSSINGS) continue;
        for (let run = at - 1; run <= at + 1; run++)
          sorted.remove(index, points[run] as Point, points[run + 1] as Point);
        const middle: Point[] = head ? [movedEnd, movedSplit, split] : [split, movedSplit, movedEnd];
        points.splice(at, 2, ...(head ? [...middle, b] : [a, ...middle]));
        for (let run = at - 1; run <= at + 3; run++)
          sorted.add(index, points[run] as Point, points[run + 1] as Point, run);
        return true;
      }
    }
  }
  return false;
}

/** Every run of the routes, by orientation, sorted by where it lies across (kept so as runs move). */
class SortedSpans {
  private readonly vertical: Span[] = [];
  private readonly horizontal: Span[] = [];

  constructor(routes: readonly LaneRoute[]) {
    routes.forEach((route, index) => {
      for (let at = 1; at < route.points.length; at++) {
        const span = spanOf(index, route.points[at - 1] as Point, route.points[at] as Point, at - 1);
        if (span !== null) (span.vertical ? this.vertical : this.horizontal).push(span);
      }
    });
    this.vertical.sort((a, b) => a.across - b.across);
    this.horizontal.sort((a, b) => a.across - b.across);
  }

  /**
   * The runs (route × RUN_KEY + the run's first point) that may need a move: those lying SAME_LINE or
   * nearer to another line's run, and those ALONG_WITHIN or nearer to a table's edge over more than
   * ALONG_MINIMUM (the exact measures, zones and own tables, are taken on these only).
   */
  suspects(tables: readonly Rect[]): Set<number> {
    const out = new Set<number>();
    for (const list of [this.vertical, this.horizontal]) {
      for (let i = 0; i < list.length; i++) {
        const a = list[i] as Span;
        for (let j = i + 1; j < list.length; j++) {
          const b = list[j] as Span;
          if (b.across - a.across > SAME_LINE) break;
          if (a.route === b.route || Math.min(a.to, b.to) - Math.max(a.from, b.from) <= 0) continue;
          out.add(a.route * RUN_KEY + a.at);
          out.add(b.route * RUN_KEY + b.at);
        }
      }
    }
    for (const table of tables) {
      const edges: [Span[], number, number, number][] = [
        [this.vertical, table.left, table.top, table.bottom],
        [this.vertical, table.right, table.top, table.bottom],
        [this.horizontal, table.top, table.left, table.right],
        [this.horizontal, table.bottom, table.left, table.right],
      ];
      for (const [list, across, from, to] of edges) {
        for (let at = firstFrom(list, across - ALONG_WITHIN); at < list.length; at++) {
          const span = list[at] as Span;
          if (span.across > across + ALONG_WITHIN) break;
          if (Math.min(span.to, to) - Math.max(span.from, from) > ALONG_MINIMUM)
            out.add(span.route * RUN_KEY + span.at);
        }
      }
    }
    return out;
  }

  /** Whether a run of another line than `route` lies closer than TOO_CLOSE beside the run s–t. */
  crowds(route: number, s: Point, t: Point): boolean {
    const span = spanOf(route, s, t);
    if (span === null) return false;
    return this.near(span, TOO_CLOSE).some(
      (other) =>
        other.route !== route &&
        Math.abs(other.across - span.across) < TOO_CLOSE &&
        Math.min(other.to, span.to) - Math.max(other.from, span.from) > 0.5,
    );
  }

  /** How many runs of other lines than `route` the run s–t crosses (inside both, as line-metrics counts). */
  crossings(route: number, s: Point, t: Point): number {
    const span = spanOf(route, s, t);
    if (span === null) return 0;
    const list = span.vertical ? this.horizontal : this.vertical;
    let count = 0;
    for (let at = firstFrom(list, span.from + 0.5); at < list.length; at++) {
      const other = list[at] as Span;
      if (other.across > span.to - 0.5) break;
      if (other.route === route) continue;
      if (other.from + 0.5 <= span.across && span.across <= other.to - 0.5) count++;
    }
    return count;
  }

  /** The runs of the span's orientation lying `reach` px across from it or nearer. */
  near(span: Span, reach: number): Span[] {
    const list = span.vertical ? this.vertical : this.horizontal;
    const out: Span[] = [];
    for (let at = firstFrom(list, span.across - reach); at < list.length; at++) {
      const other = list[at] as Span;
      if (other.across > span.across + reach) break;
      out.push(other);
    }
    return out;
  }

  /** Takes route `route`'s run s–t out. */
  remove(route: number, s: Point, t: Point): void {
    const span = spanOf(route, s, t);
    if (span === null) return;
    const list = span.vertical ? this.vertical : this.horizontal;
    for (let at = firstFrom(list, span.across); at < list.length; at++) {
      const other = list[at] as Span;
      if (other.across > span.across) break;
      if (other.route === route && other.from === span.from && other.to === span.to) {
        list.splice(at, 1);
        return;
      }
    }
  }

  /** Puts route `route`'s run s–t in. */
  add(route: number, s: Point, t: Point, at: number): void {
    const span = spanOf(route, s, t, at);
    if (span === null) return;
    const list = span.vertical ? this.vertical : this.horizontal;
    list.splice(firstFrom(list, span.across), 0, span);
  }
}

/** The first index of `list` (sorted by across) whose run lies at `across` or beyond. */
function firstFrom(list: readonly Span[], across: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle] as Span).across < across) low = middle + 1;
    else high = middle;
  }
  return low;
}

function spanOf(route: number, s: Point, t: Point, at = -1): Span | null {
  if (s[0] === t[0] && s[1] !== t[1])
    return { route, at, vertical: true, across: s[0], from: Math.min(s[1], t[1]), to: Math.max(s[1], t[1]) };
  if (s[1] === t[1] && s[0] !== t[0])
    return { route, at, vertical: false, across: s[1], from: Math.min(s[0], t[0]), to: Math.max(s[0], t[0]) };
  return null;
}

/**
 * How far the run a–b of route `index` lies on other lines' runs (SAME_LINE px apart or less), outside both
 * lines' own tables' zones (roughly: the part outside the run's own zones).
 */
function onOthers(
  routes: readonly LaneRoute[],
  spans: SortedSpans,
  index: number,
  a: Point,
  b: Point,
): number {
  const span = spanOf(index, a, b);
  if (span === null) return 0;
  const zones = routes[index]?.zones ?? [];
  let length = 0;
  for (const other of spans.near(span, SAME_LINE)) {
    if (other.route === index) continue;
    if (Math.abs(other.across - span.across) > SAME_LINE) continue;
    const from = Math.max(span.from, other.from);
    const to = Math.min(span.to, other.to);
    if (to <= from) continue;
    length += lengthOutside(
      span.across,
      from,
      to,
      zones,
      routes[other.route]?.zones ?? [],
      span.vertical ? 'vertical' : 'horizontal',
    );
  }
  return length;
}
