// The path of a relationship line: orthogonal segments that leave each table horizontally from the row of
// the linked column, so the end markers can be drawn at the table's edge.
import { type Point, type Rect, RunUsage, searchPath, simplify } from './routing/grid-search';
import { entersTable, separateLanes, TableIndex } from './routing/lanes';
import { tidyRuns } from './routing/tidy-runs';
import { type Row, type RowEnd, uncross } from './routing/uncross';
import type { Ports, RouteMemory } from './routing/route-memory';
import { type Box, ROW_HEIGHT } from './table-geometry';

/** How far a line runs straight out of a table before turning: room for the end markers. */
export const STUB = 22;
/** Extra reach of each further self-reference on one edge of a table, so their loops do not overlap. */
const SELF_LOOP_STEP = 12;

export interface Endpoint {
  box: Box;
  y: number;
}

export interface Route {
  /** Points of the polyline, from the source end to the target end. */
  points: [number, number][];
  /** +1 when the line leaves the source to the right, -1 to the left; likewise for the target. */
  sourceSide: 1 | -1;
  targetSide: 1 | -1;
  /**
   * Whether this line's source (target) end gathers with others beside its table: other lines end on the
   * same row and edge, and the row holds them all (a fanned end has an approach point of its own instead).
   */
  sourceShared?: boolean;
  targetShared?: boolean;
  /** Kept as the previous drawing drew it (RoutingObstacles.memory): lane separation leaves it alone. */
  settled?: boolean;
  /** Its tables' boxes, OWN_ZONE wider, while lanes are separated (LaneRoute). */
  zones?: readonly Rect[];
}

/** The route between rows of two different tables. */
export function routeBetween(source: Endpoint, target: Endpoint): Route {
  const sourceRight = source.box.left + source.box.width;
  const targetRight = target.box.left + target.box.width;
  if (sourceRight + 2 * STUB <= target.box.left) {
    const middle = (sourceRight + target.box.left) / 2;
    return {
      points: [
        [sourceRight, source.y],
        [middle, source.y],
        [middle, target.y],
        [target.box.left, target.y],
      ],
      sourceSide: 1,
      targetSide: -1,
    };
  }
  if (targetRight + 2 * STUB <= source.box.left) {
    const middle = (targetRight + source.box.left) / 2;
    return {
      points: [
        [source.box.left, source.y],
        [middle, source.y],
        [middle, target.y],
        [targetRight, target.y],
      ],
      sourceSide: -1,
      targetSide: 1,
    };
  }
  // The tables overlap horizontally: go round on the side that needs less line.
  const rightX = Math.max(sourceRight, targetRight) + STUB;
  const leftX = Math.min(source.box.left, target.box.left) - STUB;
  const rightLength = 2 * rightX - sourceRight - targetRight;
  const leftLength = source.box.left + target.box.left - 2 * leftX;
  if (rightLength <= leftLength)
    return {
      points: [
        [sourceRight, source.y],
        [rightX, source.y],
        [rightX, target.y],
        [targetRight, target.y],
      ],
      sourceSide: 1,
      targetSide: 1,
    };
  return {
    points: [
      [source.box.left, source.y],
      [leftX, source.y],
      [leftX, target.y],
      [target.box.left, target.y],
    ],
    sourceSide: -1,
    targetSide: -1,
  };
}

/**
 * A column referencing its own table: a loop out of one edge and back (`side` +1 right, -1 left);
 * `index` counts the earlier loops on that edge, each of which reaches less far out.
 */
export function selfLoop(source: Endpoint, target: Endpoint, side: 1 | -1, index: number): Route {
  const edge = side === 1 ? source.box.left + source.box.width : source.box.left;
  const reach = edge + side * (STUB + 8 + SELF_LOOP_STEP * index);
  // A column referencing itself still gets a visible loop.
  const targetY = target.y === source.y ? source.y + 8 : target.y;
  return {
    points: [
      [edge, source.y],
      [reach, source.y],
      [reach, targetY],
      [edge, targetY],
    ],
    sourceSide: side,
    targetSide: side,
  };
}

/** Near its own tables a line converges on its row: sharing a run there with another is no trunk. */
const OWN_ZONE = 30;
/** Where every line keeps away from every table, note and group title it does not end at. */
const PADDING = 12;
/** Where tables stand too close for PADDING: a line still keeps this far from a border it passes. */
const BORDER_CLEARANCE = 4;
/** A row where this many lines end is a hub's: lines to it steer round the gaps earlier lines crowd. */
const HUB_ENDS = 4;
/** Lines converging on a shared end gather beside its table, up to this far above and below it. */
const BAND_REACH = 24;
/** Spacing of ends that land on one row's edge (several relationships to one key column). */
const END_SPACING = 5;
/** The closest two ends on one row's edge come when the row holds them all; more ends than that fan out. */
const MIN_END_GAP = 4;
/** How far from a row's middle its ends may lie: 2 px inside the row's top and bottom. */
const ROW_REACH = ROW_HEIGHT / 2 - 2;
/**
 * A fanned end (more ends on one row's edge than fit MIN_END_GAP apart): the line runs straight out of
 * the table for the end markers (FAN_MARKER px, past the bars), then slants to its own approach point
 * FAN_REACH px out, FAN_SPACING from its neighbours', where its own run begins (closer, and their
 * long runs out of the table read as parallel wires).
 */
const FAN_MARKER = 14;
const FAN_REACH = STUB;
/**
 * Spacing of a fan's approach points: a lane's, for the lines arrive at them side by side, often over
 * hundreds of px. At END_SPACING (5 px) Lago's `organizations` fan alone made some 80 pairs of lines 2–8 px
 * apart; at 8 px Lago's near-parallel pairs fell from 238 to 133 and its crossings per relationship from 12.2
 * to 10.1, the taller fan leaving room for more of its lines to trade their ways (README "Routing").
 */
const FAN_SPACING = 8;

export interface RoutingObstacles {
  /** Every table's box (the ends of a line are among them). */
  tables: readonly Box[];
  /** Sticky notes and group title bars: lines keep off them too. */
  others?: readonly Box[];
  /**
   * The editor's previous routing: lines (with a `key`) whose ends did not move and whose path keeps clear
   * of every table the edit changed keep that path; only the others are routed again.
   */
  memory?: RouteMemory;
  /**
   * Leave out the trades between lines to one row (uncrossRows: half the routing's time on a large
   * schema): for line-room.ts's passes, which read only where lines crowd.
   */
  withoutTrades?: true;
}

/**
 * Routes for every relationship, in order: orthogonal lines that go around every table, note and group
 * title (stored positions are never moved), leave and enter tables horizontally on the row of their
 * column, and never share a run with another line (lanes). Self-references loop out of the edge of their
 * table where fewer other lines end (the right one on a tie).
 */
export function routeAll(
  links: readonly { source: Endpoint; target: Endpoint; key?: string }[],
  obstacles: RoutingObstacles = { tables: links.flatMap((link) => [link.source.box, link.target.box]) },
): Route[] {
  const memory = obstacles.memory;
  if (memory === undefined) return routeAnew(links, obstacles);
  // The same input as the memory's last routing (a save's answer, a comment or a colour changed) routes
  // to the same lines: every one would be kept as it is.
  const input = routingInput(links, obstacles);
  const repeated = memory.repeat<Route>(input);
  if (repeated !== undefined) return repeated;
  const routes = routeAnew(links, obstacles);
  memory.keepLast(input, routes);
  return routes;
}

/** Everything a routing reads, as text: the boxes of the tables and the others, and each line's ends. */
function routingInput(
  links: readonly { source: Endpoint; target: Endpoint; key?: string }[],
  obstacles: RoutingObstacles,
): string {
  const box = (b: Box) => `${b.left},${b.top},${b.width},${b.height};`;
  let text = '';
  for (const table of obstacles.tables) text += box(table);
  text += '|';
  for (const other of obstacles.others ?? []) text += box(other);
  text += '|';
  for (const { key, source, target } of links)
    text += `${key ?? ''},${source.y},${target.y},${source.box === target.box ? 'self' : box(target.box)}${box(source.box)}`;
  return text;
}

function routeAnew(
  links: readonly { source: Endpoint; target: Endpoint; key?: string }[],
  obstacles: RoutingObstacles,
): Route[] {
  const obstacleBoxes = [...new Set([...obstacles.tables, ...(obstacles.others ?? [])])];
  const padded = obstacleBoxes.map((box) => rect(box, PADDING));
  const bare = obstacleBoxes.map((box) => rect(box, 0));
  const paddedIndex = new TableIndex(padded);
  const sides: (Route | null)[] = links.map((link) => {
    if (link.source.box === link.target.box) return null;
    return freeSides(routeBetween(link.source, link.target), link, paddedIndex);
  });
  // Self-references loop out of the edge of their table where fewer other lines end (the right one on a
  // tie); their ends take ports on their rows with the others'.
  const endsPerEdge = new Map<Box, { left: number; right: number }>();
  const countEnd = (box: Box, side: 1 | -1) => {
    const counts = endsPerEdge.get(box) ?? { left: 0, right: 0 };
    if (side === 1) counts.right++;
    else counts.left++;
    endsPerEdge.set(box, counts);
  };
  links.forEach((link, at) => {
    const sided = sides[at];
    if (!sided) return;
    countEnd(link.source.box, sided.sourceSide);
    countEnd(link.target.box, sided.targetSide);
  });
  const loopSides = links.map((link, at): 1 | -1 | null => {
    if (sides[at]) return null;
    const counts = endsPerEdge.get(link.source.box) ?? { left: 0, right: 0 };
    return counts.right > counts.left ? -1 : 1;
  });
  const hugging = obstacleBoxes.map((box) => rect(box, BORDER_CLEARANCE));
  const { ends, borders, shared, alone, hubs, rows } = spreadEnds(
    links,
    sides.map((sided, at) => {
      const side = loopSides[at];
      return sided ?? (side ? { sourceSide: side, targetSide: side } : null);
    }),
    hugging,
  );
  const usage = new RunUsage();
  const tableRects = obstacles.tables.map((box) => rect(box, 0));
  const memory = obstacles.memory;
  memory?.begin(tableRects);
  // The ends as spreadEnds placed them: a line's key in the memory. Where two lines to one row trade places
  // (uncrossRows), `ends` and `borders` change and the memory keeps the ports as drawn beside the key.
  const spreadAt = ends.map((pair) => [...pair]);
  const spreadBorders = borders.map((pair) => [...pair]);
  const endsOf = (at: number) => {
    const link = links[at]!;
    const sided = sides[at]!;
    const box = (b: Box) => `${b.left},${b.top},${b.width},${b.height}`;
    // The ports (a line's place among the others on its rows) are in its ends' y, on the edge and out of it.
    return `${box(link.source.box)},${sided.sourceSide},${box(link.target.box)},${sided.targetSide},${spreadAt[at]},${spreadBorders[at]}`;
  };
  const portsOf = (at: number): Ports | undefined => {
    const [a, b] = ends[at]!;
    const [c, d] = borders[at]!;
    const [e, f] = spreadAt[at]!;
    const [g, h] = spreadBorders[at]!;
    return a === e && b === f && c === g && d === h ? undefined : [a, b, c, d];
  };
  // Kept lines' runs count as taken for the lines routed again; put in the usage only when a search reads it.
  let untaken: Point[][] = [];
  const taken = () => {
    for (const points of untaken) usage.add(points);
    untaken = [];
    return usage;
  };
  const kept: (Route | null)[] = links.map((link, at) => {
    const sided = sides[at];
    if (memory === undefined || link.key === undefined || !sided) return null;
    const found = memory.reuse(link.key, endsOf(at));
    if (found === undefined) return null;
    const points = found.points;
    if (found.ports) {
      const [a, b, c, d] = found.ports;
      ends[at] = [a, b];
      borders[at] = [c, d];
    }
    untaken.push(points);
    const [sourceShared, targetShared] = shared[at] as [boolean, boolean];
    return {
      points,
      sourceSide: sided.sourceSide,
      targetSide: sided.targetSide,
      sourceShared,
      targetShared,
      zones: [rect(link.source.box, OWN_ZONE), rect(link.target.box, OWN_ZONE)],
      settled: true,
    };
  });
  // A kept line that had traded places on a row holds the place it took: the lines of that row routed again
  // take the places left, in their rows' order.
  for (const { ends: row } of rows) {
    if (!row.some(({ route, end }) => kept[route] && ends[route]![end] !== spreadAt[route]![end])) continue;
    const claimed = new Set(
      row.filter(({ route }) => kept[route]).map(({ route, end }) => ends[route]![end]),
    );
    const free = row
      .map(({ route, end }) => [spreadAt[route]![end]!, spreadBorders[route]![end]!] as const)
      .filter(([y]) => !claimed.has(y))
      .sort((a, b) => a[0] - b[0]);
    const again = row
      .filter(({ route }) => !kept[route])
      .sort((a, b) => spreadAt[a.route]![a.end]! - spreadAt[b.route]![b.end]!);
    if (free.length !== again.length) continue;
    again.forEach(({ route, end }, index) => {
      ends[route]![end] = free[index]![0];
      borders[route]![end] = free[index]![1];
    });
  }
  const routes: (Route | null)[] = links.map((_link, at) => {
    const sided = sides[at];
    if (sided === null || sided === undefined) return null;
    const reused = kept[at];
    if (reused) return reused;
    if (memory) memory.rerouted++;
    const [sourceY, targetY] = ends[at] as [number, number];
    const sourceX = sided.points[0]![0];
    const targetX = sided.points.at(-1)![0];
    const start: Point = [portX(sourceX, sided.sourceSide, sourceY, bare), sourceY];
    const goal: Point = [portX(targetX, sided.targetSide, targetY, bare), targetY];
    // Where tables stand closer than the padding, the line may pass them closer too (never through them).
    const near = (r: Rect, [x, y]: Point) => x > r.left && x < r.right && y > r.top && y < r.bottom;
    // Still never along their border: 4 px clear of it unless the end itself is closer than that.
    const around = padded.some((r) => near(r, start) || near(r, goal))
      ? padded.map((r, k) => {
          if (!near(r, start) && !near(r, goal)) return r;
          const close = hugging[k] as Rect;
          return near(close, start) || near(close, goal) ? (bare[k] as Rect) : close;
        })
      : padded;
    const [sourceShared, targetShared] = shared[at] as [boolean, boolean];
    const band = (box: Box): [number, number] => [box.top - BAND_REACH, box.top + box.height + BAND_REACH];
    const found = searchPath(start, goal, around, {
      // Lines to a hub's key avoid the gaps earlier lines crowd; the others rarely meet enough lines to
      // fill a gap, and the lanes separate them.
      ...(hubs[at] ? { usage: taken() } : {}),
      ...(sourceShared ? { startBand: band(links[at]!.source.box) } : {}),
      ...(targetShared ? { goalBand: band(links[at]!.target.box) } : {}),
    });
    let middle = found ?? [start, [start[0], goal[1]], goal];
    const [sourceAlone, targetAlone] = alone[at] as [boolean, boolean];
    if (targetAlone) middle = turnAtPort(middle, targetX, tableRects);
    if (sourceAlone) middle = turnAtPort(middle.reverse(), sourceX, tableRects).reverse();
    usage.add(middle);
    let points = simplify([[sourceX, sourceY], ...middle, [targetX, targetY]]);
    if (targetShared)
      points = gatherBeside(points, band(links[at]!.target.box), sided.targetSide, tableRects);
    if (sourceShared)
      points = gatherBeside(
        points.reverse(),
        band(links[at]!.source.box),
        sided.sourceSide,
        tableRects,
      ).reverse();
    return {
      points,
      sourceSide: sided.sourceSide,
      targetSide: sided.targetSide,
      sourceShared,
      targetShared,
      zones: [rect(links[at]!.source.box, OWN_ZONE), rect(links[at]!.target.box, OWN_ZONE)],
      ...(sourceShared ? { sourceBand: band(links[at]!.source.box) } : {}),
      ...(targetShared ? { targetBand: band(links[at]!.target.box) } : {}),
    };
  });
  const drawn = routes.filter((route): route is Route => route !== null);
  separateLanes(memory ? nearRerouted(drawn) : drawn, tableRects);
  for (const route of drawn) route.points = simplify(route.points);
  // Lines to one row that cross trade their ways beyond the crossing (and their places on the row), then
  // any two lines that cross twice exchange the stretch between (their ends stay).
  if (obstacles.withoutTrades !== true) {
    uncross(
      routes,
      rows,
      tableRects,
      (at) => routes[at]?.settled !== true,
      (a, b) => {
        for (const ys of [ends, borders]) {
          const ofA = ys[a.route]!;
          const ofB = ys[b.route]!;
          [ofA[a.end], ofB[b.end]] = [ofB[b.end], ofA[a.end]];
        }
      },
    );
    // Runs still on the outline of a table their line does not connect, or on another line's run, move off.
    tidyRuns(drawn, tableRects);
  }
  for (const route of drawn) {
    delete route.settled;
    delete route.zones;
  }
  memory?.finish(
    links.flatMap((link, at) => {
      const route = routes[at];
      return route && link.key !== undefined
        ? [{ key: link.key, ends: endsOf(at), points: route.points, ...withPorts(portsOf(at)) }]
        : [];
    }),
  );
  // The fans come last, so lanes and the memory only ever see orthogonal runs.
  links.forEach((_link, at) => {
    const route = routes[at];
    if (!route) return;
    route.points = fanEnds(route.points, route.sourceSide, route.targetSide, ends[at]!, borders[at]!);
  });

  const loopCount = new Map<Box, { left: number; right: number }>();
  return links.map((link, at) => {
    const route = routes[at];
    if (route !== null && route !== undefined) return route;
    const side = loopSides[at] as 1 | -1;
    const loops = loopCount.get(link.source.box) ?? { left: 0, right: 0 };
    const index = side === 1 ? loops.right++ : loops.left++;
    loopCount.set(link.source.box, loops);
    const [sourceY, targetY] = ends[at] as [number, number];
    const loop = selfLoop({ ...link.source, y: sourceY }, { ...link.target, y: targetY }, side, index);
    loop.points = fanEnds(loop.points, side, side, ends[at]!, borders[at]!);
    return loop;
  });
}

function withPorts(ports: Ports | undefined): { ports?: Ports } {
  return ports ? { ports } : {};
}

/** How far from the lines routed again a kept line can still share a group of lanes with them. */
const LANE_REACH = 48;

/**
 * The routes lane separation needs to see when kept lines (settled: they never move) are most of them:
 * the lines routed again and the kept lines with a run within LANE_REACH of one of theirs, the only runs
 * a group of lanes with a moving run can hold.
 */
function nearRerouted(routes: readonly Route[]): Route[] {
  const runsOf = (route: Route) =>
    route.points.slice(1).map((point, at) => {
      const previous = route.points[at]!;
      return {
        left: Math.min(point[0], previous[0]),
        right: Math.max(point[0], previous[0]),
        top: Math.min(point[1], previous[1]),
        bottom: Math.max(point[1], previous[1]),
      };
    });
  const reach = routes
    .filter((route) => !route.settled)
    .flatMap(runsOf)
    .map((run) =>
      rect(
        { left: run.left, top: run.top, width: run.right - run.left, height: run.bottom - run.top },
        LANE_REACH,
      ),
    );
  const index = new TableIndex(reach);
  const near = (run: Rect) => index.some(run, () => true);
  return routes.filter((route) => !route.settled || runsOf(route).some(near));
}

/**
 * A line ending on a shared row (with others) reaches its table through the band beside it: when its last
 * vertical run comes from beyond the band, it is cut at the band's edge and joined to the row by a short
 * run beside the table, where lines may gather. The long run is then a run of its own, which the lanes
 * keep apart from the others, instead of being held next to the table with every other line to that row.
 * `points` end at the table; `side` is the edge the line enters by.
 */
function gatherBeside(
  points: Point[],
  band: [number, number],
  side: 1 | -1,
  tables: readonly Rect[],
): Point[] {
  const count = points.length;
  if (count < 4) return points;
  const edge = points[count - 1] as Point;
  const turn = points[count - 2] as Point;
  const far = points[count - 3] as Point;
  if (far[0] !== turn[0]) return points;
  const [top, bottom] = band;
  if (far[1] >= top && far[1] <= bottom) return points;
  const gather = far[1] < top ? top : bottom;
  const port = edge[0] + side * STUB;
  // The long run must stand clear of the short one beside the table.
  const runX = Math.abs(turn[0] - port) < GATHER_GAP ? port + side * GATHER_GAP : turn[0];
  const before = points.slice(0, count - 3);
  const previous = before.at(-1);
  // The run before `far` was horizontal into it; it now ends at the long run's x.
  const gathered = simplify([
    ...before,
    ...(previous ? [[runX, previous[1]] as Point] : []),
    [runX, far[1]],
    [runX, gather],
    [port, gather],
    [port, edge[1]],
    edge,
  ]);
  const clear = gathered.every((point, at) => {
    const next = gathered[at + 1];
    return next === undefined || tables.every((table) => !entersTable(point, next, table));
  });
  return clear ? gathered : points;
}

/**
 * A search may reach its port from the table's side of it (along the table's padded edge, between the table
 * and the port) and turn back into it: the line then runs over its own way out and turns less than STUB
 * from the table, too close for the end markers and for a fan's slant (which then starts at the turn, and
 * the fanned ends lose their order). The last turn is moved out to the port when that keeps off every
 * table. `middle` ends at the port; `edgeX` is the table's edge.
 */
function turnAtPort(middle: Point[], edgeX: number, tables: readonly Rect[]): Point[] {
  const count = middle.length;
  // The run before the turn must not start at the other port, which stays where it is.
  if (count < 4) return middle;
  const port = middle[count - 1] as Point;
  const turn = middle[count - 2] as Point;
  const before = middle[count - 3] as Point;
  const earlier = middle[count - 4] as Point;
  if (turn[1] !== port[1] || before[0] !== turn[0] || earlier[1] !== before[1]) return middle;
  if (turn[0] <= Math.min(edgeX, port[0]) || turn[0] >= Math.max(edgeX, port[0])) return middle;
  const moved: Point = [port[0], before[1]];
  const clear = [
    [earlier, moved],
    [moved, port],
  ].every(([p, q]) => tables.every((table) => !entersTable(p as Point, q as Point, table)));
  return clear ? simplify([...middle.slice(0, count - 3), moved, port]) : middle;
}

/** Least distance between the long run to a shared end and the short run beside its table. */
const GATHER_GAP = 14;

/**
 * Where a line turns out of its table: STUB px from the edge, or halfway to a table standing closer than
 * that on the same side at the same height (tables a person placed almost touching).
 */
function portX(edge: number, side: 1 | -1, y: number, tables: readonly Rect[]): number {
  let distance = STUB;
  for (const t of tables) {
    if (y <= t.top || y >= t.bottom) continue;
    const gap = side === 1 ? t.left - edge : edge - t.right;
    if (gap > 0 && gap < STUB + PADDING) distance = Math.min(distance, Math.max(2, gap / 2));
  }
  return edge + side * distance;
}

function rect(box: Box, padding: number): Rect {
  return {
    left: box.left - padding,
    top: box.top - padding,
    right: box.left + box.width + padding,
    bottom: box.top + box.height + padding,
  };
}

/** `points` with each end that spreadEnds fanned (its edge y differs from its run's y) joined by fanIn. */
function fanEnds(
  points: Point[],
  sourceSide: 1 | -1,
  targetSide: 1 | -1,
  [sourceY, targetY]: [number, number],
  [sourceEdge, targetEdge]: [number, number],
): Point[] {
  let fanned = points;
  if (targetEdge !== targetY) fanned = fanIn(fanned, targetSide, targetEdge);
  if (sourceEdge !== sourceY) fanned = fanIn(fanned.reverse(), sourceSide, sourceEdge).reverse();
  return fanned;
}

/**
 * A fanned end: `points` end at the table's edge on the line's approach y (its run out of the table); the
 * end is moved to `edgeY` on its row, joined to the approach by a short slant beyond the end markers.
 */
function fanIn(points: Point[], side: 1 | -1, edgeY: number): Point[] {
  const edge = points.at(-1) as Point;
  const turn = points.at(-2) as Point;
  const before = points.slice(0, -1);
  const markers: Point = [edge[0] + side * FAN_MARKER, edgeY];
  // A turn behind the edge (the approach point lies above or below the table, reached from over or under
  // it): the line runs on past the edge to its approach point.
  const room = side * (turn[0] - edge[0]) < 0 ? Number.POSITIVE_INFINITY : Math.abs(turn[0] - edge[0]);
  // Lanes, a close table or a search reaching its port from the table's side may have left the turn closer:
  // the slant then starts at the turn itself, at most as far across as a fan's (FAN_REACH - FAN_MARKER),
  // and the line runs straight on into the edge.
  const across = FAN_REACH - FAN_MARKER;
  if (room <= across) return [...before, [edge[0], edgeY]];
  if (room <= FAN_MARKER + 2) return [...before, [edge[0] + side * (room - across), edgeY], [edge[0], edgeY]];
  const approach: Point[] = room > FAN_REACH ? [[edge[0] + side * FAN_REACH, edge[1]]] : [];
  return [...before, ...approach, markers, [edge[0], edgeY]];
}

/**
 * The y of each line's two ends: `borders` where it meets the table's edge, `ends` where its run out of
 * the table lies (the same but on a fanned end). Ends that meet one row on one edge (every table that
 * references `users.id`) each get a port of their own, ordered by where the other end lies, so the lines
 * do not cross near the row: spread over the row, at most END_SPACING and at least MIN_END_GAP apart; when
 * the row is too short for that, spread over the whole row on the edge and fanned out to approach points
 * FAN_SPACING apart just outside the table (fanIn), so no two final runs overlap. `shared`: the ends that
 * gather beside their table with the others of their row; `alone`: the fanned ends, each of whose lines
 * arrives at its approach point on its own (and turns at its port: turnAtPort).
 */
function spreadEnds(
  links: readonly { source: Endpoint; target: Endpoint }[],
  sides: readonly (Pick<Route, 'sourceSide' | 'targetSide'> | null)[],
  obstacles: readonly Rect[],
): {
  ends: [number, number][];
  borders: [number, number][];
  shared: [boolean, boolean][];
  alone: [boolean, boolean][];
  hubs: boolean[];
  rows: Row[];
} {
  const ends: [number, number][] = links.map((link) => [link.source.y, link.target.y]);
  const borders: [number, number][] = links.map((link) => [link.source.y, link.target.y]);
  const shared: [boolean, boolean][] = links.map(() => [false, false]);
  const alone: [boolean, boolean][] = links.map(() => [false, false]);
  const hubs: boolean[] = links.map(() => false);
  const groups = new Map<
    string,
    { link: number; end: 0 | 1; other: number; box: Box; side: 1 | -1; y: number }[]
  >();
  const keyOf = (box: Box, side: number, y: number) => `${box.left},${box.top},${side},${y}`;
  links.forEach((link, at) => {
    const sided = sides[at];
    if (!sided) return;
    for (const end of [0, 1] as const) {
      const here = end === 0 ? link.source : link.target;
      const there = end === 0 ? link.target : link.source;
      const side = end === 0 ? sided.sourceSide : sided.targetSide;
      const key = keyOf(here.box, side, here.y);
      const list = groups.get(key) ?? [];
      list.push({ link: at, end, other: there.y, box: here.box, side, y: here.y });
      groups.set(key, list);
    }
  });
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => a.other - b.other || a.link - b.link);
    const onEdge = Math.min(END_SPACING, (2 * ROW_REACH) / (list.length - 1));
    const fanned = onEdge < MIN_END_GAP;
    const { box, side, y } = list[0]!;
    // A fanned row's lines each arrive at an approach point of their own, in lanes of their own. Gathered
    // like a row's few ends, a hub's sixty lines were held in the 8 px the turn beside the table may stand
    // in, on top of one another for hundreds of px along a tall table (Lago's `organizations`: 545 pairs of
    // lines over 40 px, 204,000 px in all, which the shared-run measure does not count so near their table).
    const { centre, spacing } = fanned
      ? approachColumn(box, side, y, list.length, obstacles)
      : { centre: y, spacing: onEdge };
    list.forEach((entry, index) => {
      const rank = index - (list.length - 1) / 2;
      (borders[entry.link] as [number, number])[entry.end] += rank * onEdge;
      (ends[entry.link] as [number, number])[entry.end] = centre + rank * spacing;
      (shared[entry.link] as [boolean, boolean])[entry.end] = !fanned;
      (alone[entry.link] as [boolean, boolean])[entry.end] = fanned;
      if (list.length >= HUB_ENDS) hubs[entry.link] = true;
    });
  }
  const rows = [...groups.values()]
    .filter((list) => list.length >= 2)
    .map(
      (list): Row => ({
        table: rect(list[0]!.box, 0),
        ends: list.map((entry): RowEnd => ({ route: entry.link, end: entry.end })),
      }),
    );
  return { ends, borders, shared, alone, hubs, rows };
}

/**
 * Where the approach points of a fanned row lie: FAN_SPACING apart, centred on the row, but inside the free
 * stretch of the column beside the table (between the nearest tables above and below, kept BORDER_CLEARANCE
 * off), narrower where that stretch is short. A hub's row holds a hundred ends or more, and a fan that reached
 * into the table below would put the line's end inside it, where no path starts.
 */
function approachColumn(
  box: Box,
  side: 1 | -1,
  y: number,
  count: number,
  obstacles: readonly Rect[],
): { centre: number; spacing: number } {
  const edge = side === 1 ? box.left + box.width : box.left;
  // The slant from the markers to the approach point crosses this x range too.
  const near = Math.min(edge + side * FAN_MARKER, edge + side * FAN_REACH);
  const far = Math.max(edge + side * FAN_MARKER, edge + side * FAN_REACH);
  let top = Number.NEGATIVE_INFINITY;
  let bottom = Number.POSITIVE_INFINITY;
  for (const o of obstacles) {
    if (o.right <= near || o.left >= far) continue;
    if (o.bottom <= y) top = Math.max(top, o.bottom);
    else if (o.top >= y) bottom = Math.min(bottom, o.top);
  }
  const wanted = FAN_SPACING * (count - 1);
  // A fan no longer than the band beside the table stays beside it: beside the table's own height if it
  // fits there (where lines converging on the row read as such), else within the band. Centred on a row
  // near the table's top, it would reach above the table, where its lines pass between the tables there.
  const beside = wanted <= box.height + 2 * BAND_REACH;
  const within = (low: number, high: number) =>
    placeFan(y, wanted, Math.max(top, low - END_SPACING), Math.min(bottom, high + END_SPACING));
  const inStretch =
    (beside
      ? (within(box.top, box.top + box.height) ??
        within(box.top - BAND_REACH, box.top + box.height + BAND_REACH))
      : null) ?? placeFan(y, wanted, top, bottom);
  if (inStretch !== null) return { centre: inStretch, spacing: FAN_SPACING };
  // One spacing of margin at each end of the stretch, so no approach point lies on a table's clearance.
  const room = bottom - top - 2 * END_SPACING;
  if (room <= 0) return { centre: y, spacing: END_SPACING };
  return { centre: (top + bottom) / 2, spacing: room / Math.max(1, count - 1) };
}

/** The centre nearest `y` of a fan `length` long inside [top, bottom] (END_SPACING off each end); null if too long. */
function placeFan(y: number, length: number, top: number, bottom: number): number | null {
  if (bottom - top - 2 * END_SPACING < length) return null;
  const half = length / 2;
  return Math.min(Math.max(y, top + END_SPACING + half), bottom - END_SPACING - half);
}

/**
 * The sides a line leaves and enters by, turned round at an end whose side has another table closer than
 * the stub (the line would start inside it) while the other side is free.
 */
function freeSides(route: Route, link: { source: Endpoint; target: Endpoint }, padded: TableIndex): Route {
  const blocked = (box: Box, side: 1 | -1, y: number) => {
    const x = side === 1 ? box.left + box.width + STUB : box.left - STUB;
    const own = rect(box, PADDING);
    return padded.some(
      { left: x, right: x, top: y, bottom: y },
      (o) =>
        !(o.left === own.left && o.top === own.top && o.right === own.right && o.bottom === own.bottom) &&
        x > o.left &&
        x < o.right &&
        y > o.top &&
        y < o.bottom,
    );
  };
  let { sourceSide, targetSide } = route;
  if (
    blocked(link.source.box, sourceSide, link.source.y) &&
    !blocked(link.source.box, -sourceSide as 1 | -1, link.source.y)
  )
    sourceSide = -sourceSide as 1 | -1;
  if (
    blocked(link.target.box, targetSide, link.target.y) &&
    !blocked(link.target.box, -targetSide as 1 | -1, link.target.y)
  )
    targetSide = -targetSide as 1 | -1;
  const edge = (box: Box, side: 1 | -1) => (side === 1 ? box.left + box.width : box.left);
  return {
    points: [
      [edge(link.source.box, sourceSide), link.source.y],
      [edge(link.target.box, targetSide), link.target.y],
    ],
    sourceSide,
    targetSide,
  };
}
