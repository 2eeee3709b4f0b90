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
// and the line's first and last runs keep room for their end markers. A run with no such place stays.
import { ALONG_MINIMUM, ALONG_WITHIN, type AxisRun, lengthAlongOthers } from '../along-edge';
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
        const span = spanOf(index, movedA, movedB) as Span;
        return !sorted
          .near(span, TOO_CLOSE)
          .some(
            (other) =>
              other.route !== index &&
              Math.abs(other.across - span.across) < TOO_CLOSE &&
              Math.min(other.to, span.to) - Math.max(other.from, span.from) > 0.5,
          );
      });
      if (value === undefined || value === null) continue;
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
   * ALONG_MINIMUM (the
   * exact measures, zones and own tables, are taken on these only).
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
