// Separates lines that the search put on the same, or nearly the same, grid line ("trunks"): interior
// segments of different relationships that run side by side closer than a lane and overlap get lanes of
// their own, spread over the free space between the tables on either side, so no two relationships share
// a run. A line's first and last segments hold the rows of its columns and never move; a move that would
// take a segment (or the segments it joins) into a table is made smaller or not made.
import { MAX_SHARED } from '../geometry-check';
import type { Point, Rect } from './grid-search';

/** The widest spacing between lanes; less when many lines share a narrow gap. */
const LANE = 8;
/** Closest a lane comes to a table's edge. */
const CLEARANCE = 5;
/** Closest a lane next to a line's end comes to that end's table: room for the end markers. */
export const MARKER_ROOM = 20;
/**
 * Farthest the turn next to a shared end (several lines on one row) goes from the table: inside the
 * 30 px where lines converge on their row, so their short common stub is all they share.
 */
const SHARED_END_REACH = 28;
const ROUNDS = 3;
/** How far beside a group of runs its lanes may spread, at most (up to the nearest table). */
const LANE_ROOM = 80;
/** Tables this far from a run or nearer can bound where its lanes go: LANE_ROOM and CLEARANCE off them. */
const TABLE_REACH = LANE_ROOM + CLEARANCE + 1;

interface Segment {
  route: number;
  /** Index of the segment's first point in its route. */
  at: number;
  /** The fixed coordinate (x of a vertical segment, y of a horizontal one). */
  line: number;
  from: number;
  to: number;
  /** Where the line is heading overall, to order lanes so that they cross as little as possible. */
  order: number;
  /** Limits from the line's own ends: the lane must stay within [low, high]. */
  low: number;
  high: number;
  /** A line's first or last run (on its column's row): never moved, but others keep clear of it. */
  fixed: boolean;
  /**
   * Freed from a first or last run (cutSharedEnds): only the repair moves it, off the run it lay on; the
   * spread of a corridor's lanes keeps it where it is, as it kept the whole run.
   */
  cut: boolean;
}

export interface LaneRoute {
  points: Point[];
  sourceSide: 1 | -1;
  targetSide: 1 | -1;
  /**
   * Whether this line's source (target) end gathers with others beside its table: other lines end on the
   * same row and edge, and the row holds them all (a fanned end has an approach point of its own instead).
   */
  sourceShared?: boolean;
  targetShared?: boolean;
  /** For a shared end: the band beside its table where its lines gather (the y range of that zone). */
  sourceBand?: [number, number];
  targetBand?: [number, number];
  /**
   * Where the line converges on its own tables (their boxes, OWN_ZONE px wider): lines sharing a run there
   * read as converging on a row, not as a relationship of their own.
   */
  zones?: readonly Rect[];
  /** A line kept as the previous drawing drew it (RouteMemory): none of its runs move; others keep clear. */
  settled?: boolean;
  /** While lanes are separated: the first point of each run freed from a first or last run (cutSharedEnds). */
  cuts?: Point[];
}

export function separateLanes(routes: LaneRoute[], tableRects: readonly Rect[]): void {
  const tables = new TableIndex(tableRects);
  cutSharedEnds(routes);
  const runs = new Runs(routes);
  for (let round = 0; round < ROUNDS; round++) {
    const moved = spread(runs, tables, 'vertical') + spread(runs, tables, 'horizontal');
    if (moved === 0) break;
  }
  // The lanes can stretch a first or last run over another's (a turn next to a shared end moved beside its
  // table lengthens the run before it): cut those too, for the repair to move.
  cutSharedEnds(routes);
  repair(runs, tables, 'vertical');
  repair(runs, tables, 'horizontal');
  // Then runs a lane or less apart, where a free place clear of tables is near.
  repair(runs, tables, 'vertical', LANE - 0.01);
  repair(runs, tables, 'horizontal', LANE - 0.01);
  for (const route of routes) delete route.cuts;
}

type Orientation = 'vertical' | 'horizontal';

/** Where a first or last run is cut (cutSharedEnds): the port's distance from the table, past the markers. */
const CUT_AT = MARKER_ROOM + 2;
/**
 * A line's first and last runs hold its columns' rows and never move. Where one lies on another line's run
 * for more than MAX_SHARED px beyond the lines' own tables (two facing tables with rows at one height:
 * both lines run along that height across the gap between them, each from its own end), it is cut at
 * CUT_AT px from its table: a turn there, of no length until a lane moves the rest of the run, which is then
 * a run like any other.
 */
function cutSharedEnds(routes: LaneRoute[]): void {
  type End = { route: number; at: number; line: number; from: number; to: number; end: boolean };
  const runs: End[] = [];
  routes.forEach((route, index) => {
    const points = route.points;
    const last = points.length - 1;
    for (let at = 0; at < last; at++) {
      const a = points[at] as Point;
      const b = points[at + 1] as Point;
      if (a[1] !== b[1] || a[0] === b[0]) continue;
      const end = route.settled !== true && (at === 0 || at === last - 1);
      runs.push({ route: index, at, line: a[1], from: Math.min(a[0], b[0]), to: Math.max(a[0], b[0]), end });
    }
  });
  runs.sort((a, b) => a.line - b.line);
  const cut: End[] = [];
  for (const run of runs)
    if (run.end && lengthOnOthers(routes, runs, run, run.line, 'horizontal') > MAX_SHARED) cut.push(run);
  // Last runs first: a route's cut at its end leaves the index of its first run as it was.
  cut.sort((a, b) => a.route - b.route || b.at - a.at);
  for (const run of cut) {
    const route = routes[run.route] as LaneRoute;
    const points = route.points;
    const first = run.at === 0;
    const edge = (first ? points[0] : points.at(-1)) as Point;
    const side = first ? route.sourceSide : route.targetSide;
    const x = edge[0] + side * CUT_AT;
    if (x <= run.from || x >= run.to) continue;
    const turn: Point[] = [
      [x, edge[1]],
      [x, edge[1]],
    ];
    points.splice(first ? 1 : points.length - 1, 0, ...turn);
    route.cuts = [...(route.cuts ?? []), (first ? turn[1] : points[points.length - 4]) as Point];
  }
}

/**
 * The runs of one orientation, each list sorted by line and, on one line, by route and then along the route
 * (runOrder). A settled line's runs never move (all of them are fixed), so they are listed and sorted once
 * per orientation; the moving lines' runs are listed again at each pass. The two are kept apart: in the
 * editor, kept lines are most of those near an edit, and a pass looks at them only beside a moving run.
 */
class Runs {
  readonly #settled = new Map<Orientation, SortedRuns>();

  constructor(readonly routes: LaneRoute[]) {}

  settled(orientation: Orientation): SortedRuns {
    let settled = this.#settled.get(orientation);
    if (settled === undefined) {
      settled = new SortedRuns(segmentsOf(this.routes, orientation, true).sort(byLine));
      this.#settled.set(orientation, settled);
    }
    return settled;
  }

  moving(orientation: Orientation): Segment[] {
    return segmentsOf(this.routes, orientation, false).sort(byLine);
  }
}

/** Runs sorted by line (runOrder); `move` keeps them so. */
class SortedRuns {
  constructor(readonly segments: Segment[]) {}

  /** Moves `segment` (in the list) to `line`, keeping the list sorted by line. */
  move(segment: Segment, line: number): void {
    const segments = this.segments;
    segments.splice(segments.indexOf(segment), 1);
    segment.line = line;
    let to = 0;
    while (to < segments.length && (segments[to] as Segment).line < line) to++;
    segments.splice(to, 0, segment);
  }
}

/** The order of runs in one pass: by line, then by route, then along the route (segmentsOf's order). */
const runOrder = (a: Segment, b: Segment) => a.line - b.line || a.route - b.route || a.at - b.at;

const byLine = (a: Segment, b: Segment) => a.line - b.line;

/**
 * Farthest a run a lane or less from another (2–8 px: a pair of wires no eye can follow apart) is moved to
 * stand clear of it: farther moves stretch the runs it joins over others (new near pairs, or shared runs).
 * Measured with the fans' approach points a lane apart (near-parallel pairs and shared runs, Lago / generated
 * 140 / generated 300): 133, 0 / 260, 5 / 494, 5 at 30 px; 117, 0 / 232, 4 / 453, 3 at 60; 114, 0 / 220, 6 /
 * 437, 7 at 100; 110, 1 / 230, 9 / 433, 12 at 160.
 */
const SPACING_STEP = 60;
/**
 * Farthest repair moves a run it cannot free to where it shares least: beside a hub hundreds of runs have no
 * free place, and each step tried costs a look along the run. Measured (shared runs, Lago / generated 300):
 * 14 / 29 at 30 px, 17 / 22 at 80 px, 16 / 22 at 160 px.
 */
const SHARE_LEAST_STEP = 80;
/** Runs of different lines closer than this still read as one. */
export const TOO_CLOSE = 2.5;
/**
 * Where repair looks for a free place, nearest first. Far steps too: beside a hub, a corridor holds more
 * runs than fit, and the nearest free place can lie past the other lanes of its group.
 */
const REPAIR_STEPS = [
  3, -3, 6, -6, 9, -9, 12, -12, 16, -16, 20, -20, 25, -25, 30, -30, 40, -40, 50, -50, 60, -60, 80, -80, 100,
  -100, 120, -120, 160, -160,
];

/**
 * Where lanes could not be spread evenly (a narrow gap, a lane pulled back from a table), moves one of
 * each pair of runs still lying on top of each other to the nearest free place that keeps off the tables.
 * With a `gap` wider than TOO_CLOSE: runs closer than `gap` to another, moved at most SPACING_STEP and only
 * to a place `gap` from every other run and CLEARANCE from every table.
 */
function repair(runs: Runs, tables: TableIndex, orientation: Orientation, gap = TOO_CLOSE): void {
  const routes = runs.routes;
  const settled = runs.settled(orientation);
  // The moving runs by line, kept sorted as they move, so each check looks only at close neighbours.
  const moving = new SortedRuns(runs.moving(orientation));
  const nearIn = (list: SortedRuns, segment: Segment, line: number) => {
    const segments = list.segments;
    for (let at = lowerFrom(segments, line, gap); at < segments.length; at++) {
      const other = segments[at] as Segment;
      if (other.line >= line + gap) break;
      if (
        other !== segment &&
        other.route !== segment.route &&
        Math.min(segment.to, other.to) - Math.max(segment.from, other.from) > 0.5
      )
        return true;
    }
    return false;
  };
  const near = (segment: Segment, line: number) =>
    nearIn(moving, segment, line) || nearIn(settled, segment, line);
  const free = (segment: Segment, value: number) =>
    value >= segment.low &&
    value <= segment.high &&
    !near(segment, value) &&
    fits(routes[segment.route] as LaneRoute, segment.at, value, orientation, tables);
  const sharedAt = (segment: Segment, line: number) =>
    lengthOnOthers(routes, moving.segments, segment, line, orientation) +
    lengthOnOthers(routes, settled.segments, segment, line, orientation);
  // No place free of every other run: the one where the run lies on others over the least length, when
  // that is less than where it is (a long run beside a hub, where every corridor is crowded).
  const leastShared = (segment: Segment): number | undefined => {
    let best: number | undefined;
    let least = sharedAt(segment, segment.line);
    if (least <= 0) return undefined;
    for (const step of REPAIR_STEPS) {
      const value = segment.line + step;
      if (Math.abs(step) > SHARE_LEAST_STEP || value < segment.low || value > segment.high) continue;
      const length = sharedAt(segment, value);
      if (length + 0.5 >= least) continue;
      if (!fits(routes[segment.route] as LaneRoute, segment.at, value, orientation, tables)) continue;
      best = value;
      least = length;
    }
    return best;
  };
  for (const segment of [...moving.segments]) {
    if (segment.fixed || !near(segment, segment.line)) continue;
    // Nearest first, among the places that keep the run CLEARANCE off every table, then among the rest.
    const clear = REPAIR_STEPS.filter((step) => gap <= TOO_CLOSE || Math.abs(step) <= SPACING_STEP)
      .map((step) => segment.line + step)
      .find((value) => free(segment, value) && clearOfTables(segment, value, orientation, tables));
    // Runs merely close (a lane apart or less) move only to a place clear of tables and of other runs.
    const value =
      clear ??
      (gap > TOO_CLOSE
        ? undefined
        : (REPAIR_STEPS.map((step) => segment.line + step).find((value) => free(segment, value)) ??
          leastShared(segment)));
    if (value !== undefined) {
      const points = (routes[segment.route] as LaneRoute).points;
      const index = orientation === 'vertical' ? 0 : 1;
      (points[segment.at] as Point)[index] = value;
      (points[segment.at + 1] as Point)[index] = value;
      moving.move(segment, value);
    }
  }
}

/** A run's line and its extent along it, and whose it is: what lengthOnOthers compares. */
type RunSpan = Pick<Segment, 'route' | 'line' | 'from' | 'to'>;

/**
 * Length over which `run`, put on `line`, lies on the runs of other lines in `sorted` (sorted by line:
 * those closer than TOO_CLOSE), outside both lines' zones.
 */
function lengthOnOthers(
  routes: readonly LaneRoute[],
  sorted: readonly RunSpan[],
  run: RunSpan,
  line: number,
  orientation: Orientation,
): number {
  const own = (routes[run.route] as LaneRoute).zones ?? [];
  let length = 0;
  for (let at = lowerFrom(sorted, line, TOO_CLOSE); at < sorted.length; at++) {
    const other = sorted[at] as RunSpan;
    if (other.line >= line + TOO_CLOSE) break;
    if (other.route === run.route) continue;
    const from = Math.max(run.from, other.from);
    const to = Math.min(run.to, other.to);
    if (to <= from) continue;
    const zones = (routes[other.route] as LaneRoute).zones ?? [];
    length += lengthOutside(line, from, to, own, zones, orientation);
  }
  return length;
}

/** How much of the run on `line` from `from` to `to` lies outside every zone of both lists. */
export function lengthOutside(
  line: number,
  from: number,
  to: number,
  zones: readonly Rect[],
  others: readonly Rect[],
  orientation: Orientation,
): number {
  const inside: [number, number][] = [];
  for (const zone of others.length === 0 ? zones : [...zones, ...others]) {
    const [low, high, start, end] =
      orientation === 'vertical'
        ? [zone.left, zone.right, zone.top, zone.bottom]
        : [zone.top, zone.bottom, zone.left, zone.right];
    if (line < low || line > high) continue;
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    if (b > a) inside.push([a, b]);
  }
  inside.sort((p, q) => p[0] - q[0]);
  let covered = 0;
  let reached = from;
  for (const [a, b] of inside) {
    if (b <= reached) continue;
    covered += b - Math.max(a, reached);
    reached = b;
  }
  return to - from - covered;
}

/** Whether the run, moved to `value`, keeps CLEARANCE off every table (not merely out of them, as fits). */
function clearOfTables(
  segment: Segment,
  value: number,
  orientation: 'vertical' | 'horizontal',
  tables: TableIndex,
): boolean {
  const area =
    orientation === 'vertical'
      ? { left: value - CLEARANCE, right: value + CLEARANCE, top: segment.from, bottom: segment.to }
      : { left: segment.from, right: segment.to, top: value - CLEARANCE, bottom: value + CLEARANCE };
  return !tables.some(area, (table) =>
    orientation === 'vertical'
      ? table.left < area.right &&
        table.right > area.left &&
        table.top < segment.to &&
        table.bottom > segment.from
      : table.top < area.bottom &&
        table.bottom > area.top &&
        table.left < segment.to &&
        table.right > segment.from,
  );
}

/** The runs of the settled lines, or of the others, in route order. */
function segmentsOf(routes: LaneRoute[], orientation: Orientation, settled: boolean): Segment[] {
  const along = orientation === 'vertical' ? 1 : 0;
  const across = 1 - along;
  const segments: Segment[] = [];
  routes.forEach((route, index) => {
    if ((route.settled === true) !== settled) return;
    const points = route.points;
    const last = points.length - 1;
    const start = points[0] as Point;
    const end = points[last] as Point;
    for (let at = 0; at < last; at++) {
      const a = points[at] as Point;
      const b = points[at + 1] as Point;
      if (a[across] !== b[across] || a[along] === b[along]) continue;
      const fixed = route.settled === true || at === 0 || at === last - 1;
      let low = Number.NEGATIVE_INFINITY;
      let high = Number.POSITIVE_INFINITY;
      if (orientation === 'vertical') {
        // Keep room for the markers where this segment meets the first or last run, and keep the turn
        // next to a shared end close to its table. A run behind the table's edge (a fanned end whose
        // approach point lies above or below the table, reached from over or under it) has its markers on
        // the fan, and the fit check keeps it off the table: held out past the edge instead, every such run
        // of a fan was wanted at the same limit and pulled back to the first place that fits, onto one line.
        const limit = (edge: number, side: 1 | -1, shared: boolean | undefined) => {
          if (side * (a[0] - edge) < 0) return;
          if (side === 1) {
            low = Math.max(low, edge + MARKER_ROOM);
            if (shared) high = Math.min(high, edge + SHARED_END_REACH);
          } else {
            high = Math.min(high, edge - MARKER_ROOM);
            if (shared) low = Math.max(low, edge - SHARED_END_REACH);
          }
        };
        if (at === 1) limit(start[0], route.sourceSide, route.sourceShared);
        if (at + 1 === last - 1) limit(end[0], route.targetSide, route.targetShared);
      } else {
        // The run that joins a shared end's short run beside the table stays within that band (when it
        // lies there: where the gathering did not fit, the run is another, held to the band from afar).
        const inBand = (band: [number, number] | undefined): band is [number, number] =>
          band !== undefined && a[1] >= band[0] && a[1] <= band[1];
        if (at === 2 && inBand(route.sourceBand)) [low, high] = route.sourceBand;
        if (at + 1 === last - 2 && inBand(route.targetBand)) [low, high] = route.targetBand;
      }
      segments.push({
        route: index,
        at,
        line: a[across],
        from: Math.min(a[along], b[along]),
        to: Math.max(a[along], b[along]),
        order: end[across],
        low,
        high,
        fixed,
        cut: route.cuts?.includes(a) === true,
      });
    }
  });
  return segments;
}

/** Moves crowded segments into lanes; returns how many moved. */
function spread(runs: Runs, tables: TableIndex, orientation: Orientation): number {
  const routes = runs.routes;
  const moving = runs.moving(orientation);
  for (const segment of moving) if (segment.cut) segment.fixed = true;
  const settled = runs.settled(orientation).segments;
  // Components of "closer than a lane and overlapping, on different lines", over the moving runs (numbered
  // first) and the settled ones (numbered after them).
  const count = moving.length + settled.length;
  const runAt = (index: number) =>
    (index < moving.length ? moving[index] : settled[index - moving.length]) as Segment;
  const parent = Array.from({ length: count }, (_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] as number;
    while (parent[index] !== root) {
      const next = parent[index] as number;
      parent[index] = root;
      index = next;
    }
    return root;
  };
  const joined = new Uint8Array(count);
  // Two runs that never move (a hub's fan: a hundred final runs 8 px apart) would chain every corridor
  // that meets one of them into one group, spread over a room that no longer fits any of them: so only
  // pairs with a moving run join, and they are looked for beside the moving runs.
  const reach = LANE - 0.01;
  const joinNear = (index: number, list: Segment[], offset: number) => {
    const a = moving[index] as Segment;
    for (let at = lowerFrom(list, a.line, reach); at < list.length; at++) {
      const b = list[at] as Segment;
      if (b.line - a.line >= reach) break;
      if (b === a || b.route === a.route) continue;
      if (Math.min(a.to, b.to) - Math.max(a.from, b.from) <= 0.5) continue;
      parent[find(offset + at)] = find(index);
      joined[index] = 1;
      joined[offset + at] = 1;
    }
  };
  moving.forEach((segment, index) => {
    if (segment.fixed) return;
    joinNear(index, moving, 0);
    joinNear(index, settled, moving.length);
  });
  // A group's runs in pass order (runOrder); groups in the order of their first run.
  const components = new Map<number, Segment[]>();
  for (let index = 0; index < count; index++) {
    if (joined[index] === 0) continue;
    const root = find(index);
    const list = components.get(root);
    if (list === undefined) components.set(root, [runAt(index)]);
    else list.push(runAt(index));
  }
  const groups = [...components.values()];
  for (const group of groups) group.sort(runOrder);
  groups.sort((a, b) => runOrder(a[0] as Segment, b[0] as Segment));
  let moved = 0;
  for (const component of groups) {
    if (new Set(component.map((s) => s.route)).size < 2) continue;
    if (component.every((segment) => segment.fixed)) continue;
    moved += assignLanes(component, routes, tables, orientation);
  }
  return moved;
}

/** The first index of `list` (sorted by line) whose line lies less than `reach` below `line`. */
function lowerFrom(list: readonly { line: number }[], line: number, reach: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (line - (list[middle] as { line: number }).line >= reach) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Spreads one group of crowded runs (a corridor) over the free space beside it, up to the nearest tables,
 * each moved run (and the two runs it joins) kept off every table.
 */
function assignLanes(
  component: Segment[],
  routes: LaneRoute[],
  tables: TableIndex,
  orientation: 'vertical' | 'horizontal',
): number {
  const lines = component.map((s) => s.line);
  const lowestLine = Math.min(...lines);
  const highestLine = Math.max(...lines);
  const from = Math.min(...component.map((s) => s.from));
  const to = Math.max(...component.map((s) => s.to));
  // Free space on either side over the component's extent, up to the nearest table.
  let low = lowestLine - LANE_ROOM;
  let high = highestLine + LANE_ROOM;
  // Only tables across the component's extent and within reach of its lines can narrow [low, high].
  const reach = TABLE_REACH;
  const near =
    orientation === 'vertical'
      ? { left: lowestLine - reach, right: highestLine + reach, top: from, bottom: to }
      : { left: from, right: to, top: lowestLine - reach, bottom: highestLine + reach };
  for (const table of tables.within(near)) {
    const [near, far, start, end] =
      orientation === 'vertical'
        ? [table.left, table.right, table.top, table.bottom]
        : [table.top, table.bottom, table.left, table.right];
    if (end <= from || start >= to) continue;
    if (far <= lowestLine + 0.01) low = Math.max(low, far + CLEARANCE);
    else if (near >= highestLine - 0.01) high = Math.min(high, near - CLEARANCE);
  }
  const count = component.length;
  const room = Math.max(0, high - low);
  // At least 3 px apart even where the gap is narrow: the fit check below keeps each lane off the tables.
  const spacing = Math.min(LANE, Math.max(3, room / Math.max(1, count - 1)));
  const width = spacing * (count - 1);
  const centre = lines.reduce((sum, line) => sum + line, 0) / count;
  const ordered = [...component].sort(
    (a, b) =>
      a.line - b.line || sideOnOneLine(routes, a, b, orientation) || a.order - b.order || a.route - b.route,
  );
  const first = firstLane(ordered, centre - width / 2, low, high - width, spacing);
  const index = orientation === 'vertical' ? 0 : 1;
  const placed: { line: number; from: number; to: number }[] = [];
  const moving = ordered
    .map((segment, lane) => ({ segment, lane }))
    .filter(({ segment }) => !segment.fixed)
    .map(({ segment, lane }) => {
      const wanted = Math.min(segment.high, Math.max(segment.low, first + lane * spacing));
      const kept = keptClear(segment, wanted, tables, orientation, placed);
      placed.push({ line: kept, from: segment.from, to: segment.to });
      return { segment, wanted: kept };
    });
  let moved = 0;
  for (const { segment, wanted } of moving) {
    const value = closestFitting(routes[segment.route] as LaneRoute, segment, wanted, orientation, tables);
    if (Math.abs(value - segment.line) < 0.01) continue;
    const points = (routes[segment.route] as LaneRoute).points;
    (points[segment.at] as Point)[index] = value;
    (points[segment.at + 1] as Point)[index] = value;
    moved++;
  }
  return moved;
}

/** How far a walk along two lines looks for where they part (corners passed together). */
const PARTING_CORNERS = 8;

/**
 * For two runs on one line: 1 when `a`'s lane should lie above `b`'s along the axis across (greater x of a
 * vertical run, greater y of a horizontal one), -1 below, 0 when their lines never part. The two lines are
 * followed from each end of the runs' overlap as long as they turn together; where they part, the line that
 * turns off first, or turns to its left where the other turns right, lies on that side of the other all
 * along the way they went together (sides taken in the direction of travel, which stay as they are through
 * every corner turned together). On that side it leaves without crossing the other. When the two ends
 * disagree, the lines must cross once whatever the order: the end ahead along the axis decides.
 */
function sideOnOneLine(
  routes: readonly LaneRoute[],
  a: Segment,
  b: Segment,
  orientation: Orientation,
): number {
  if (a.route === b.route) return 0;
  const ahead = partingSide(routes, a, b, orientation, 1);
  if (ahead !== 0) return ahead;
  return partingSide(routes, a, b, orientation, -1);
}

/**
 * partingSide's answer for a walk from the overlap's end in direction `sense` (1: towards greater
 * coordinates along the runs).
 */
function partingSide(
  routes: readonly LaneRoute[],
  a: Segment,
  b: Segment,
  orientation: Orientation,
  sense: 1 | -1,
): number {
  const along = orientation === 'vertical' ? 1 : 0;
  let direction: Point = along === 1 ? [0, sense] : [sense, 0];
  const walkA = new Walk(routes[a.route] as LaneRoute, a, along, sense);
  const walkB = new Walk(routes[b.route] as LaneRoute, b, along, sense);
  // Distances still to go before each line's next corner, from the end of the overlap.
  const end = sense === 1 ? Math.min(a.to, b.to) : Math.max(a.from, b.from);
  let restA = (sense === 1 ? a.to - end : end - a.from) + walkA.extra;
  let restB = (sense === 1 ? b.to - end : end - b.from) + walkB.extra;
  for (let corner = 0; corner < PARTING_CORNERS; corner++) {
    let left: boolean;
    if (Math.abs(restA - restB) > 0.5) {
      // One line turns off while the other goes on: it lies on the side it turns to.
      const first = restA < restB ? walkA : walkB;
      const turn = first.next();
      if (turn === null) return 0;
      left = isLeftOf(turn[0], direction) === (first === walkA);
    } else {
      const turnA = walkA.next();
      const turnB = walkB.next();
      if (turnA === null || turnB === null) return 0;
      if (turnA[0][0] !== turnB[0][0] || turnA[0][1] !== turnB[0][1]) {
        left = isLeftOf(turnA[0], direction);
      } else {
        direction = turnA[0];
        restA = turnA[1];
        restB = turnB[1];
        continue;
      }
    }
    // `a` lies left of `b` going the first run's way: which way is that across the runs?
    const leftAcross = along === 1 ? sense : -sense;
    return left ? leftAcross : -leftAcross;
  }
  return 0;
}

/** Whether direction `turn` points to the left of `heading` (y grows downwards, as on the page). */
function isLeftOf(turn: Point, heading: Point): boolean {
  return turn[0] * heading[1] - turn[1] * heading[0] > 0;
}

/**
 * The runs of a line beyond one of its runs, in one direction along it: each its unit direction and length,
 * zero-length steps skipped and runs that go straight on merged. `extra` is how much further the line goes
 * straight on past the run itself.
 */
class Walk {
  readonly runs: [Point, number][] = [];
  readonly extra: number;
  #next = 0;

  constructor(route: LaneRoute, segment: Segment, along: number, sense: 1 | -1) {
    const points = route.points;
    const start = points[segment.at] as Point;
    const stop = points[segment.at + 1] as Point;
    // Walking the route forwards when the run goes the walk's way, backwards otherwise.
    const forwards = Math.sign((stop[along] as number) - (start[along] as number)) === sense;
    const step = forwards ? 1 : -1;
    let here = (forwards ? stop : start) as Point;
    let heading: Point = along === 1 ? [0, sense] : [sense, 0];
    let extra = 0;
    for (
      let at = (forwards ? segment.at + 1 : segment.at) + step;
      at >= 0 && at < points.length && this.runs.length <= PARTING_CORNERS;
      at += step
    ) {
      const there = points[at] as Point;
      const dx = there[0] - here[0];
      const dy = there[1] - here[1];
      here = there;
      if (Math.abs(dx) < 0.01 && Math.abs(dy) < 0.01) continue;
      const direction: Point = [Math.sign(dx), Math.sign(dy)];
      const length = Math.abs(dx) + Math.abs(dy);
      const last = this.runs.at(-1);
      if (direction[0] === heading[0] && direction[1] === heading[1]) {
        if (last === undefined) extra += length;
        else last[1] += length;
        continue;
      }
      this.runs.push([direction, length]);
      heading = direction;
    }
    this.extra = extra;
  }

  /** The unit direction and length of the line's next run past the current corner; null at its end. */
  next(): [Point, number] | null {
    return this.runs[this.#next++] ?? null;
  }
}

/**
 * Where a group's first lane goes: `wanted`, within [low, high], and where it can, moved so that every moving
 * run's lane lies within that run's own limits (the room its ends leave it). Two runs that may not move past
 * the same limit (the markers' room beside a table) would otherwise both be held at it, on top of each other.
 */
function firstLane(
  ordered: readonly Segment[],
  wanted: number,
  low: number,
  high: number,
  spacing: number,
): number {
  let lowest = low;
  let highest = high;
  ordered.forEach((segment, lane) => {
    if (segment.fixed) return;
    lowest = Math.max(lowest, segment.low - lane * spacing);
    highest = Math.min(highest, segment.high - lane * spacing);
  });
  if (lowest <= highest) return Math.min(Math.max(wanted, lowest), highest);
  return Math.min(Math.max(wanted, low), high);
}

/**
 * `wanted`, moved to CLEARANCE off the nearest tables beside the run (over the run's own extent) when it
 * lies closer to them, unless another lane of the group already lies there. A group's room (assignLanes)
 * counts only the tables beside the whole group; a long group passes tables that stand between its lines'
 * extremes, and a lane wanted on or in one of those is otherwise pulled back by the fit check to the
 * table's outline, where it runs along the border of a table it does not connect.
 */
function keptClear(
  segment: Segment,
  wanted: number,
  tables: TableIndex,
  orientation: 'vertical' | 'horizontal',
  placed: readonly { line: number; from: number; to: number }[],
): number {
  const reach = TABLE_REACH;
  const line = segment.line;
  const area =
    orientation === 'vertical'
      ? { left: line - reach, right: line + reach, top: segment.from, bottom: segment.to }
      : { left: segment.from, right: segment.to, top: line - reach, bottom: line + reach };
  let low = segment.low;
  let high = segment.high;
  for (const table of tables.within(area)) {
    const [near, far, start, end] =
      orientation === 'vertical'
        ? [table.left, table.right, table.top, table.bottom]
        : [table.top, table.bottom, table.left, table.right];
    if (end <= segment.from || start >= segment.to) continue;
    if (far <= line + 0.01) low = Math.max(low, far + CLEARANCE);
    else if (near >= line - 0.01) high = Math.min(high, near - CLEARANCE);
  }
  // A run already closer than CLEARANCE to tables on both sides: nothing to keep clear of.
  if (low > high) return wanted;
  const clear = Math.min(high, Math.max(low, wanted));
  const taken = placed.some(
    (other) =>
      Math.abs(other.line - clear) < TOO_CLOSE &&
      Math.min(other.to, segment.to) - Math.max(other.from, segment.from) > 0.5,
  );
  return taken ? wanted : clear;
}

/** `wanted`, or the value nearest to it on the way back to the segment's line that keeps off every table. */
function closestFitting(
  route: LaneRoute,
  segment: Segment,
  wanted: number,
  orientation: 'vertical' | 'horizontal',
  tables: TableIndex,
): number {
  const steps = 6;
  for (let step = 0; step < steps; step++) {
    const value = wanted + ((segment.line - wanted) * step) / steps;
    if (fits(route, segment.at, value, orientation, tables)) return value;
  }
  return segment.line;
}

/** Whether moving the segment at `at` to `value` keeps it and the two segments it joins off every table. */
function fits(
  route: LaneRoute,
  at: number,
  value: number,
  orientation: 'vertical' | 'horizontal',
  tables: TableIndex,
): boolean {
  const index = orientation === 'vertical' ? 0 : 1;
  const moved = (point: Point): Point => (index === 0 ? [value, point[1]] : [point[0], value]);
  const points = route.points;
  const a = moved(points[at] as Point);
  const b = moved(points[at + 1] as Point);
  const checks: [Point, Point][] = [
    [points[at - 1] as Point, a],
    [a, b],
    [b, points[at + 2] as Point],
  ];
  return checks.every(
    ([p, q]) =>
      !tables.some(
        {
          left: Math.min(p[0], q[0]),
          right: Math.max(p[0], q[0]),
          top: Math.min(p[1], q[1]),
          bottom: Math.max(p[1], q[1]),
        },
        (table) => entersTable(p, q, table),
      ),
  );
}

/** Side of the cells of TableIndex, in px: about a table's size. */
const CELL = 256;
/** Cell coordinates are offset by this much so that a cell's key is one non-negative number. */
const CELL_OFFSET = 1 << 15;

/**
 * The tables by the square cells they cover, so that a check near a segment looks at the few tables around
 * it instead of all of them (a 300-table diagram's lanes make tens of thousands of checks). `within`
 * returns every table whose rectangle meets the given one (edges included); `some` asks whether one of
 * them passes a test, without building a list.
 */
export class TableIndex {
  private readonly cells = new Map<number, number[]>();
  /** Per table, the number of the last query that met it (a query meets a table in several cells). */
  private readonly stamps: Int32Array;
  private query = 0;

  constructor(private readonly tables: readonly Rect[]) {
    this.stamps = new Int32Array(tables.length);
    tables.forEach((table, at) => {
      this.eachCell(table, (key) => {
        const list = this.cells.get(key);
        if (list === undefined) this.cells.set(key, [at]);
        else list.push(at);
      });
    });
  }

  within(area: Rect): Rect[] {
    const found: Rect[] = [];
    this.visit(area, (table) => {
      found.push(table);
      return false;
    });
    return found;
  }

  some(area: Rect, test: (table: Rect) => boolean): boolean {
    return this.visit(area, test);
  }

  /** Calls `test` once per table meeting `area` until it returns true; whether one did. */
  private visit(area: Rect, test: (table: Rect) => boolean): boolean {
    const query = ++this.query;
    const x0 = Math.floor(area.left / CELL);
    const x1 = Math.floor(area.right / CELL);
    const y0 = Math.floor(area.top / CELL);
    const y1 = Math.floor(area.bottom / CELL);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const list = this.cells.get(cellKey(x, y));
        if (list === undefined) continue;
        for (const at of list) {
          if (this.stamps[at] === query) continue;
          this.stamps[at] = query;
          const table = this.tables[at] as Rect;
          if (
            table.right >= area.left &&
            table.left <= area.right &&
            table.bottom >= area.top &&
            table.top <= area.bottom &&
            test(table)
          )
            return true;
        }
      }
    return false;
  }

  private eachCell(area: Rect, visit: (key: number) => void): void {
    const x0 = Math.floor(area.left / CELL);
    const x1 = Math.floor(area.right / CELL);
    const y0 = Math.floor(area.top / CELL);
    const y1 = Math.floor(area.bottom / CELL);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) visit(cellKey(x, y));
  }
}

function cellKey(x: number, y: number): number {
  return (x + CELL_OFFSET) * 2 * CELL_OFFSET + (y + CELL_OFFSET);
}

/** Whether the axis-parallel run p–q has a part inside the table (its outline excepted, 2 px in). */
export function entersTable(p: Point, q: Point, table: Rect): boolean {
  const left = table.left + 2;
  const right = table.right - 2;
  const top = table.top + 2;
  const bottom = table.bottom - 2;
  const minX = Math.min(p[0], q[0]);
  const maxX = Math.max(p[0], q[0]);
  const minY = Math.min(p[1], q[1]);
  const maxY = Math.max(p[1], q[1]);
  return maxX > left && minX < right && maxY > top && minY < bottom;
}
