// The last step over a drawing's orthogonal runs (after the lanes, the trades and the exchanges, before the
// fans): a run that still lies along the outline of a table its line does not connect (3 px or nearer, over
// more than 10 px, as line-metrics' border runs count it) reads as part of that table's border. The lanes
// leave a few: a corridor 26 px wide between two tables holding three lines, one of them held 20 px off its
// own table for its end marker, has no place a lane off the others and clear of both tables, and the lanes'
// last repair takes the nearest place that is merely out of the tables, which can be a table's outline. Each
// such run moves to the nearest place (up to STEPS' reach) where it and the two runs it joins lie off every
// outline and out of every table, it lies no closer than TOO_CLOSE to another line's run beside it, and the
// line's first and last runs keep room for their end markers. A run with no such place stays.
import { lengthAlongEdge } from '../along-edge';
import type { Point, Rect } from './grid-search';
import { entersTable, type LaneRoute, TableIndex } from './lanes';

/** Nearer than this to a table's outline, a run reads as the border (line-metrics' borderRuns: 3 px). */
const OUTLINE = 3;
/** Longer than this along an outline, a run is counted (line-metrics' borderRuns: 10 px). */
const ALONG = 10;
/** Runs of different lines closer than this read as one (the lanes' TOO_CLOSE). */
const TOO_CLOSE = 2.5;
/** Room a line's first and last runs keep for the end markers (the lanes' MARKER_ROOM). */
const MARKER_ROOM = 20;
/** Where a run may move, nearest first: half a px at a time up to 12 px each way. */
const STEPS = Array.from({ length: 48 }, (_, k) => ((k >> 1) + 1) * 0.5 * (k % 2 === 0 ? 1 : -1));

interface Span {
  route: number;
  vertical: boolean;
  across: number;
  from: number;
  to: number;
}

/** Moves runs off the outlines of tables their lines do not connect (see the top); returns how many moved. */
export function offOutlines(routes: readonly LaneRoute[], tableRects: readonly Rect[]): number {
  const tables = new TableIndex(tableRects);
  const own = (route: LaneRoute, table: Rect) =>
    (route.zones ?? []).some(
      (zone) =>
        zone.left <= table.left &&
        zone.right >= table.right &&
        zone.top <= table.top &&
        zone.bottom >= table.bottom,
    );
  /** How far the run s–t lies along outlines of tables the route does not connect. */
  const along = (route: LaneRoute, s: Point, t: Point): number => {
    const span = spanOf(-1, s, t);
    if (span === null) return 0;
    const area = span.vertical
      ? { left: span.across - OUTLINE, right: span.across + OUTLINE, top: span.from, bottom: span.to }
      : { left: span.from, right: span.to, top: span.across - OUTLINE, bottom: span.across + OUTLINE };
    let length = 0;
    tables.some(area, (table) => {
      const overlap = lengthAlongEdge(span, table, OUTLINE);
      if (overlap > ALONG && !own(route, table)) length += overlap;
      return false;
    });
    return length;
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
  let spans: Span[] | undefined;
  let moved = 0;
  routes.forEach((route, index) => {
    if (route.settled) return;
    const points = route.points;
    // Interior runs only: a first or last run leaves or reaches its own table on its row.
    for (let at = 1; at + 2 < points.length; at++) {
      const a = points[at] as Point;
      const b = points[at + 1] as Point;
      if (along(route, a, b) <= 0) continue;
      spans ??= allSpans(routes);
      const value = STEPS.map((step) => placeAt(points, at, step)).find((place) => {
        if (place === null) return false;
        const [before, movedA, movedB, after] = place;
        if (enters(before, movedA) || enters(movedA, movedB) || enters(movedB, after)) return false;
        if (along(route, before, movedA) + along(route, movedA, movedB) + along(route, movedB, after) > 0)
          return false;
        const span = spanOf(index, movedA, movedB) as Span;
        return !(spans as Span[]).some(
          (other) =>
            other.route !== index &&
            other.vertical === span.vertical &&
            Math.abs(other.across - span.across) < TOO_CLOSE &&
            Math.min(other.to, span.to) - Math.max(other.from, span.from) > 0.5,
        );
      });
      if (value === undefined || value === null) continue;
      points[at] = value[1];
      points[at + 1] = value[2];
      spans = undefined;
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

function allSpans(routes: readonly LaneRoute[]): Span[] {
  const out: Span[] = [];
  routes.forEach((route, index) => {
    for (let at = 1; at < route.points.length; at++) {
      const span = spanOf(index, route.points[at - 1] as Point, route.points[at] as Point);
      if (span !== null) out.push(span);
    }
  });
  return out;
}

function spanOf(route: number, s: Point, t: Point): Span | null {
  if (s[0] === t[0] && s[1] !== t[1])
    return { route, vertical: true, across: s[0], from: Math.min(s[1], t[1]), to: Math.max(s[1], t[1]) };
  if (s[1] === t[1] && s[0] !== t[0])
    return { route, vertical: false, across: s[1], from: Math.min(s[0], t[0]), to: Math.max(s[0], t[0]) };
  return null;
}
