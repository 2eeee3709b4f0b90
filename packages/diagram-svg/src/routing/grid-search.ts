// Shortest orthogonal path between two points around rectangular obstacles: A* over the sparse grid made
// of the obstacles' (padded) edges and the two points' own coordinates, which holds a shortest
// rectilinear path whenever one exists, with a penalty per bend so lines turn as little as they can.
// The grid is built only over a window around the two points, widened when no path fits inside, so a
// line between neighbours never looks at the far side of a 300-table diagram.

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type Point = [number, number];

/** Cost of one bend, in pixels of line: a two-bend detour of up to 2 × BEND px is preferred to a third bend. */
const BEND = 36;
const WINDOWS = [160, 480, 1440, Number.POSITIVE_INFINITY];
export const windowStats: number[] = [0, 0, 0, 0, 0];

/**
 * The path from `start` to `goal` (both outside every obstacle), leaving `start` and reaching `goal`
 * horizontally when it can; null when the obstacles wall them off.
 */
export interface SearchOptions {
  /**
   * The line shares its start with others (several lines on one row): it turns at once out of `start`
   * and may run along its column cheaply within [top, bottom] (its table's side, where lines converge),
   * so each line leaves that column at a height of its own instead of all running on along the row.
   */
  startBand?: [number, number];
  /** Likewise for a shared goal: lines arrive on the goal's column within the band, then turn into the row. */
  goalBand?: [number, number];
  /** Runs already taken by earlier lines: crowded ones cost more, so lines spread over other gaps. */
  usage?: RunUsage;
}

/** Extra cost of a step for each earlier line on the same grid line over the same stretch, in px. */
const CONGESTION = 80;

/**
 * The runs routed lines occupy, by grid line (the obstacle edges all searches share), so that a later
 * search can see how crowded a gap already is.
 */
export class RunUsage {
  private readonly horizontal = new Map<number, [number, number][]>();
  private readonly vertical = new Map<number, [number, number][]>();

  add(points: readonly Point[]): void {
    for (let at = 1; at < points.length; at++) {
      const [x1, y1] = points[at - 1] as Point;
      const [x2, y2] = points[at] as Point;
      if (y1 === y2 && x1 !== x2) push(this.horizontal, y1, Math.min(x1, x2), Math.max(x1, x2));
      else if (x1 === x2 && y1 !== y2) push(this.vertical, x1, Math.min(y1, y2), Math.max(y1, y2));
    }
  }

  /** Every earlier run on line `line`. */
  runs(vertical: boolean, line: number): readonly [number, number][] {
    return (vertical ? this.vertical : this.horizontal).get(line) ?? NO_RUNS;
  }
}

const NO_RUNS: readonly [number, number][] = [];

/** The first index whose value is at least `value` (values sorted). */
function lowerIndex(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle] as number) < value - 1e-6) low = middle + 1;
    else high = middle;
  }
  return low;
}

function push(map: Map<number, [number, number][]>, line: number, from: number, to: number): void {
  const runs = map.get(line);
  if (runs === undefined) map.set(line, [[from, to]]);
  else runs.push([from, to]);
}

/**
 * Weight of the distance estimate: a little over 1 makes the search prefer going on toward the goal over
 * trying the many equally short detours of a grid of tables (paths stay within a few percent of the
 * shortest), which cut the search time of a 300-table diagram several times.
 */
const GREED = 1.15;

/** Running along a shared end's column costs this much per pixel: lines may gather there freely. */
const BAND_RATE = 0.2;

export function searchPath(
  start: Point,
  goal: Point,
  obstacles: readonly Rect[],
  options: SearchOptions = {},
): Point[] | null {
  for (const margin of WINDOWS) {
    const window: Rect = {
      left: Math.min(start[0], goal[0]) - margin,
      top: Math.min(start[1], goal[1]) - margin,
      right: Math.max(start[0], goal[0]) + margin,
      bottom: Math.max(start[1], goal[1]) + margin,
    };
    const inside = obstacles.filter(
      (o) => o.right > window.left && o.left < window.right && o.bottom > window.top && o.top < window.bottom,
    );
    const path = searchWindow(
      start,
      goal,
      inside,
      margin === Number.POSITIVE_INFINITY ? boundsOf(inside, start, goal) : window,
      options,
    );
    if (path !== null) {
      windowStats[WINDOWS.indexOf(margin)]++;
      return path;
    }
  }
  windowStats[4]++;
  return null;
}

function boundsOf(obstacles: readonly Rect[], start: Point, goal: Point): Rect {
  const box: Rect = {
    left: Math.min(start[0], goal[0]),
    top: Math.min(start[1], goal[1]),
    right: Math.max(start[0], goal[0]),
    bottom: Math.max(start[1], goal[1]),
  };
  for (const o of obstacles) {
    box.left = Math.min(box.left, o.left);
    box.top = Math.min(box.top, o.top);
    box.right = Math.max(box.right, o.right);
    box.bottom = Math.max(box.bottom, o.bottom);
  }
  return { left: box.left - 40, top: box.top - 40, right: box.right + 40, bottom: box.bottom + 40 };
}

function sortedUnique(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const out: number[] = [];
  for (const value of values) if (out.length === 0 || value - (out.at(-1) as number) > 1e-6) out.push(value);
  return out;
}

/** Index of `value` in the sorted `list` (values come from the list itself). */
function indexOf(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle] as number) < value - 1e-6) low = middle + 1;
    else high = middle;
  }
  return low;
}

function searchWindow(
  start: Point,
  goal: Point,
  obstacles: readonly Rect[],
  window: Rect,
  options: SearchOptions,
): Point[] | null {
  const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
  const xs = sortedUnique([
    window.left,
    window.right,
    start[0],
    goal[0],
    ...obstacles.flatMap((o) => [
      clamp(o.left, window.left, window.right),
      clamp(o.right, window.left, window.right),
    ]),
  ]);
  const ys = sortedUnique([
    window.top,
    window.bottom,
    start[1],
    goal[1],
    ...(options.startBand ?? []).map((y) => clamp(y, window.top, window.bottom)),
    ...(options.goalBand ?? []).map((y) => clamp(y, window.top, window.bottom)),
    ...obstacles.flatMap((o) => [
      clamp(o.top, window.top, window.bottom),
      clamp(o.bottom, window.top, window.bottom),
    ]),
  ]);
  const nx = xs.length;
  const ny = ys.length;
  const nodes = nx * ny;
  // Node i*ny+j is (xs[i], ys[j]). Blocked: strictly inside an obstacle. An edge to the next x (or y) is
  // blocked when its open interval runs through an obstacle's interior.
  const buffers = buffersFor(nodes);
  const id = buffers.nextSearch();
  const usage = options.usage;
  // Crowding of each grid step, looked up once per grid line that has runs at all.
  const crowdRight = buffers.crowdRight;
  const crowdDown = buffers.crowdDown;
  crowdRight.fill(0, 0, nodes);
  crowdDown.fill(0, 0, nodes);
  if (usage !== undefined) {
    // Each earlier run adds one to the grid steps it covers (steps lie between consecutive grid lines).
    for (let j = 0; j < ny; j++) {
      for (const [from, to] of usage.runs(false, ys[j] as number)) {
        for (let i = lowerIndex(xs, from); i + 1 < nx && (xs[i + 1] as number) <= to + 1e-6; i++)
          crowdRight[i * ny + j] = (crowdRight[i * ny + j] as number) + 1;
      }
    }
    for (let i = 0; i < nx; i++) {
      for (const [from, to] of usage.runs(true, xs[i] as number)) {
        for (let j = lowerIndex(ys, from); j + 1 < ny && (ys[j + 1] as number) <= to + 1e-6; j++)
          crowdDown[i * ny + j] = (crowdDown[i * ny + j] as number) + 1;
      }
    }
  }
  const { blockedNode, blockedRight, blockedDown } = buffers;
  for (const o of obstacles) {
    const i0 = indexOf(xs, clamp(o.left, window.left, window.right));
    const i1 = indexOf(xs, clamp(o.right, window.left, window.right));
    const j0 = indexOf(ys, clamp(o.top, window.top, window.bottom));
    const j1 = indexOf(ys, clamp(o.bottom, window.top, window.bottom));
    // An obstacle cut by the window's edge covers that edge too: the window's border is not a way round it.
    const openLeft = o.left < window.left;
    const openRight = o.right > window.right;
    const openTop = o.top < window.top;
    const openBottom = o.bottom > window.bottom;
    for (let i = i0; i <= i1; i++) {
      const strictlyInsideX = (i > i0 || openLeft) && (i < i1 || openRight);
      for (let j = j0; j <= j1; j++) {
        const strictlyInsideY = (j > j0 || openTop) && (j < j1 || openBottom);
        const node = i * ny + j;
        if (strictlyInsideX && strictlyInsideY) blockedNode[node] = id;
        if (strictlyInsideY && i < i1) blockedRight[node] = id;
        if (strictlyInsideX && j < j1) blockedDown[node] = id;
      }
    }
  }
  const startNode = indexOf(xs, start[0]) * ny + indexOf(ys, start[1]);
  const goalNode = indexOf(xs, goal[0]) * ny + indexOf(ys, goal[1]);
  const goalX = goal[0];
  const goalY = goal[1];

  // States: node × direction of the last move (0 horizontal, 1 vertical).
  // Per-state arrays are shared between searches and stamped with the search's id instead of cleared:
  // a 300-table diagram makes hundreds of searches over grids of up to ~10^5 nodes.
  const { cost, from, seen, closed } = buffers;
  const costOf = (state: number) => (seen[state] === id ? (cost[state] as number) : Number.POSITIVE_INFINITY);
  const heap = new StateHeap();
  const heuristic = (at: number) => {
    const column = (at / ny) | 0;
    const x = xs[column] as number;
    const y = ys[at - column * ny] as number;
    return Math.abs(x - goalX) + Math.abs(y - goalY) + (x !== goalX && y !== goalY ? BEND : 0);
  };
  // The line leaves the table horizontally: starting "as if moving horizontally" charges a bend for
  // turning at once (or, to leave vertically, "as if moving vertically" charges one for running on).
  const first = startNode * 2 + (options.startBand ? 1 : 0);
  const arrival = options.goalBand ? 0 : 1;
  // Turning at a shared end is all but required: running on along the row would overlay the other lines.
  const arrivalCost = options.goalBand ? 6 * BEND : BEND;
  const departureCost = options.startBand ? 6 * BEND : BEND;
  const startBand = options.startBand;
  const goalBand = options.goalBand;
  const inBand = (x: number, y1: number, y2: number, column: number, band: [number, number] | undefined) =>
    band !== undefined && x === column && y1 >= band[0] && y2 <= band[1];
  /** A vertical step from y1 to y2 (y1 < y2) along a shared end's column, inside its band. */
  const banded = (x: number, y1: number, y2: number) =>
    inBand(x, y1, y2, start[0], startBand) || inBand(x, y1, y2, goal[0], goalBand);
  cost[first] = 0;
  seen[first] = id;
  from[first] = -1;
  heap.push(first, heuristic(startNode));
  // The expanded state, read by relax (one closure for the whole search, not one per step).
  let state = 0;
  let node = 0;
  let direction = 0;
  let here = 0;
  const relax = (next: number, nextDirection: number, length: number, crowd: number) => {
    if (blockedNode[next] === id && next !== goalNode) return;
    const turn = nextDirection === direction ? 0 : node === startNode ? departureCost : BEND;
    let value = here + length + turn + crowd * CONGESTION;
    // Reaching the goal in the unwanted direction costs one more bend (into the stub, or out of the row).
    if (next === goalNode && nextDirection === arrival) value += arrivalCost;
    const nextState = next * 2 + nextDirection;
    if (value < costOf(nextState)) {
      cost[nextState] = value;
      seen[nextState] = id;
      from[nextState] = state;
      heap.push(nextState, value + GREED * heuristic(next));
    }
  };
  while (heap.size > 0) {
    state = heap.pop();
    if (closed[state] === id) continue;
    closed[state] = id;
    node = state >> 1;
    direction = state & 1;
    if (node === goalNode) return pathOf(state, from, xs, ys, ny);
    const i = (node / ny) | 0;
    const j = node - i * ny;
    here = cost[state] as number;
    const x = xs[i] as number;
    if (i + 1 < nx && blockedRight[node] !== id)
      relax(node + ny, 0, (xs[i + 1] as number) - x, crowdRight[node] as number);
    if (i > 0 && blockedRight[node - ny] !== id)
      relax(node - ny, 0, x - (xs[i - 1] as number), crowdRight[node - ny] as number);
    const y = ys[j] as number;
    const cheap = (x === start[0] && startBand !== undefined) || (x === goal[0] && goalBand !== undefined);
    if (j + 1 < ny && blockedDown[node] !== id) {
      const to = ys[j + 1] as number;
      const length = to - y;
      relax(node + 1, 1, cheap && banded(x, y, to) ? length * BAND_RATE : length, crowdDown[node] as number);
    }
    if (j > 0 && blockedDown[node - 1] !== id) {
      const to = ys[j - 1] as number;
      const length = y - to;
      relax(
        node - 1,
        1,
        cheap && banded(x, to, y) ? length * BAND_RATE : length,
        crowdDown[node - 1] as number,
      );
    }
  }
  return null;
}

interface SearchBuffers {
  blockedNode: Int32Array;
  blockedRight: Int32Array;
  blockedDown: Int32Array;
  crowdRight: Int32Array;
  crowdDown: Int32Array;
  cost: Float64Array;
  from: Int32Array;
  seen: Int32Array;
  closed: Int32Array;
  nextSearch(): number;
}

let shared: SearchBuffers | null = null;
let capacity = 0;
let searches = 0;

/** The search arrays for `nodes` grid nodes, grown when needed and reused by every later search. */
function buffersFor(nodes: number): SearchBuffers {
  if (shared === null || nodes > capacity) {
    capacity = Math.max(nodes, capacity * 2, 4096);
    searches = 0;
    shared = {
      blockedNode: new Int32Array(capacity),
      blockedRight: new Int32Array(capacity),
      blockedDown: new Int32Array(capacity),
      crowdRight: new Int32Array(capacity),
      crowdDown: new Int32Array(capacity),
      cost: new Float64Array(capacity * 2),
      from: new Int32Array(capacity * 2),
      seen: new Int32Array(capacity * 2),
      closed: new Int32Array(capacity * 2),
      nextSearch: () => {
        searches = searches >= 0x7ffffffe ? 1 : searches + 1;
        if (searches === 1)
          for (const array of [
            shared!.blockedNode,
            shared!.blockedRight,
            shared!.blockedDown,
            shared!.seen,
            shared!.closed,
          ])
            array.fill(0);
        return searches;
      },
    };
  }
  return shared;
}

function pathOf(state: number, from: Int32Array, xs: number[], ys: number[], ny: number): Point[] {
  const reversed: Point[] = [];
  for (let at = state; at !== -1; at = from[at] as number) {
    const node = at >> 1;
    reversed.push([xs[Math.floor(node / ny)] as number, ys[node % ny] as number]);
  }
  return simplify(reversed.reverse());
}

/** Drops repeated points and the middle point of collinear runs. */
export function simplify(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out.at(-1);
    if (last && last[0] === point[0] && last[1] === point[1]) continue;
    const before = out.at(-2);
    if (
      before &&
      last &&
      ((before[0] === last[0] && last[0] === point[0]) || (before[1] === last[1] && last[1] === point[1]))
    )
      out[out.length - 1] = point;
    else out.push(point);
  }
  return out;
}

/** A binary min-heap of states by priority, in typed arrays that grow as needed. */
class StateHeap {
  private states = new Int32Array(1024);
  private priorities = new Float64Array(1024);
  size = 0;

  push(state: number, priority: number): void {
    if (this.size === this.states.length) {
      const states = new Int32Array(this.size * 2);
      states.set(this.states);
      this.states = states;
      const priorities = new Float64Array(this.size * 2);
      priorities.set(this.priorities);
      this.priorities = priorities;
    }
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((this.priorities[parent] as number) <= priority) break;
      this.states[at] = this.states[parent] as number;
      this.priorities[at] = this.priorities[parent] as number;
      at = parent;
    }
    this.states[at] = state;
    this.priorities[at] = priority;
  }

  pop(): number {
    const top = this.states[0] as number;
    const lastState = this.states[--this.size] as number;
    const lastPriority = this.priorities[this.size] as number;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child =
        right < this.size && (this.priorities[right] as number) < (this.priorities[left] as number)
          ? right
          : left;
      if ((this.priorities[child] as number) >= lastPriority) break;
      this.states[at] = this.states[child] as number;
      this.priorities[at] = this.priorities[child] as number;
      at = child;
    }
    this.states[at] = lastState;
    this.priorities[at] = lastPriority;
    return top;
  }
}
