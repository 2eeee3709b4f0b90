// The editor's routing after an edit: only the lines the edit touched are routed again. A line keeps the
// path the previous drawing gave it when both its ends are where they were (same table box, same row) and
// its path stays clear of every table whose box is new (added, moved, grown or shrunk); every other line is
// searched again around all the tables, with the kept lines as fixed runs the lane separation keeps clear
// of. The drawing is then no longer byte for byte a fresh drawing of the document (that one may move lines
// an edit did not touch, to spread lanes), but an edit changes only what it has to.
import type { Point, Rect } from './grid-search';

/** How close to a changed table a kept line may run: any nearer and it is routed again. */
const CLEARANCE = 4;

interface Remembered {
  ends: string;
  points: Point[];
  /**
   * Where the line's ends lay on their rows when they were not where its ends' key says (two lines to one
   * row that traded places, routing/uncross.ts): the source's and target's y at the approach, then on the
   * edge. Absent: where the key says.
   */
  ports?: Ports;
}

/** A line's ends as drawn: source and target y at the approach points, then on the table's edge. */
export type Ports = [number, number, number, number];

/**
 * A routing as plain data (JSON), for a drawing made elsewhere: the web app routes a version once (warm, and
 * kept) and the editor page starts from it instead of routing every line in the browser. `boxes`: the
 * tables' bare boxes as `left,top,right,bottom`; `routes`: per line its key, its ends (as routeAll writes
 * them), its path's points, x and y one after the other, and its ports when they differ from its ends'
 * (Remembered.ports).
 */
export interface RouteSeed {
  boxes: string[];
  routes: (
    | [key: string, ends: string, points: number[]]
    | [key: string, ends: string, points: number[], ports: Ports]
  )[];
}

export class RouteMemory {
  private routes = new Map<string, Remembered>();
  private boxes = new Set<string>();
  private changed: Rect[] = [];
  /** Lines routed again by the last routing (the rest were kept). */
  rerouted = 0;
  /** The last routing's input (as routeAll writes it) and its routes, to hand out again for the same input. */
  private last: { input: string; routes: { points: Point[] }[] } | null = null;

  /**
   * A memory that starts from `seed`, as if it had made that routing: a drawing of the same document keeps
   * every line, and one of a changed document routes again only what the change touched. Entries of the
   * wrong shape are left out (their lines are routed again).
   */
  static seeded(seed: unknown): RouteMemory {
    const memory = new RouteMemory();
    if (typeof seed !== 'object' || seed === null) return memory;
    const { boxes, routes } = seed as Partial<RouteSeed>;
    if (!Array.isArray(boxes) || !Array.isArray(routes)) return memory;
    for (const entry of routes) {
      if (!Array.isArray(entry) || (entry.length !== 3 && entry.length !== 4)) continue;
      const [key, ends, flat, ports] = entry as unknown[];
      if (typeof key !== 'string' || typeof ends !== 'string' || !Array.isArray(flat)) continue;
      if (flat.length < 4 || flat.length % 2 !== 0 || !flat.every((value) => Number.isFinite(value)))
        continue;
      if (
        ports !== undefined &&
        !(Array.isArray(ports) && ports.length === 4 && ports.every((value) => Number.isFinite(value)))
      )
        continue;
      const values = flat as number[];
      const points: Point[] = [];
      for (let at = 0; at < values.length; at += 2)
        points.push([values[at] as number, values[at + 1] as number]);
      memory.routes.set(key, { ends, points, ...(ports ? { ports: ports as Ports } : {}) });
    }
    if (memory.routes.size > 0) memory.boxes = new Set(boxes.filter((box) => typeof box === 'string'));
    return memory;
  }

  /**
   * Copies of the last routing's routes when `input` is the last routing's own: routing it again would keep
   * every line as it is (its ends did not move and no table changed), lanes and fans included.
   */
  repeat<R extends { points: Point[] }>(input: string): R[] | undefined {
    if (this.last === null || this.last.input !== input) return undefined;
    this.rerouted = 0;
    return this.last.routes.map((route) => copyRoute(route) as R);
  }

  /** Keeps the routes of a routing of `input`, as drawn (see repeat). */
  keepLast(input: string, routes: readonly { points: Point[] }[]): void {
    this.last = { input, routes: routes.map(copyRoute) };
  }

  /** The last routing as data (see RouteSeed). */
  export(): RouteSeed {
    return {
      boxes: [...this.boxes],
      routes: [...this.routes].map(([key, { ends, points, ports }]) =>
        ports ? [key, ends, points.flat(), ports] : [key, ends, points.flat()],
      ),
    };
  }

  /** Starts a routing over `tables` (bare boxes): the boxes not drawn last time are the changed ones. */
  begin(tables: readonly Rect[]): void {
    const now = new Set<string>();
    const first = this.boxes.size === 0;
    this.changed = [];
    for (const table of tables) {
      const id = rectId(table);
      now.add(id);
      if (!first && !this.boxes.has(id)) this.changed.push(table);
    }
    this.boxes = now;
    this.rerouted = 0;
  }

  /**
   * The previous path of line `key` (and its ports, where they were not its ends') when its `ends` are
   * unchanged and it keeps clear of every changed table.
   */
  reuse(key: string, ends: string): { points: Point[]; ports?: Ports } | undefined {
    const found = this.routes.get(key);
    if (found === undefined || found.ends !== ends) return undefined;
    if (!this.changed.every((table) => !nearTable(found.points, table))) return undefined;
    const points = found.points.map((point): Point => [point[0], point[1]]);
    return found.ports ? { points, ports: [...found.ports] } : { points };
  }

  /** Remembers every line of this routing (lines not drawn any more are forgotten). */
  finish(lines: readonly { key: string; ends: string; points: readonly Point[]; ports?: Ports }[]): void {
    this.routes = new Map(
      lines.map((line) => [
        line.key,
        {
          ends: line.ends,
          points: line.points.map((point) => [point[0], point[1]] as Point),
          ...(line.ports ? { ports: [...line.ports] as Ports } : {}),
        },
      ]),
    );
  }
}

function copyRoute<R extends { points: Point[] }>(route: R): R {
  return { ...route, points: route.points.map((point) => [point[0], point[1]] as Point) };
}

function rectId(r: Rect): string {
  return `${r.left},${r.top},${r.right},${r.bottom}`;
}

/** Whether a run of the polyline comes within CLEARANCE of the table (axis-parallel runs). */
function nearTable(points: readonly Point[], table: Rect): boolean {
  for (let at = 1; at < points.length; at++) {
    const [x1, y1] = points[at - 1] as Point;
    const [x2, y2] = points[at] as Point;
    if (
      Math.max(x1, x2) > table.left - CLEARANCE &&
      Math.min(x1, x2) < table.right + CLEARANCE &&
      Math.max(y1, y2) > table.top - CLEARANCE &&
      Math.min(y1, y2) < table.bottom + CLEARANCE
    )
      return true;
  }
  return false;
}
