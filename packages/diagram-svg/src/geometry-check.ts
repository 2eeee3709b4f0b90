// Measures a drawing for the two ways a relationship line misleads a reader: running through a table it
// does not connect (it reads as a link to that table) and sharing a run with another relationship (a
// "trunk" reads as a relationship that does not exist). Works on boxes and polylines, so the same check
// runs on the server-side SVG (measureSvg) and on what a browser measured from the rendered page.

export interface MeasuredBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MeasuredTable {
  name: string;
  box: MeasuredBox;
  /** A copy of a busy table (hub-copies.ts), named `<table>#copy<n>`: an obstacle, not counted as a table. */
  copy?: true;
}

export interface MeasuredRelationship {
  id: string;
  source: string;
  target: string;
  /** The line as a polyline: orthogonal segments, but for the short slant of a fanned end (relationship-route). */
  points: [number, number][];
}

export interface Drawing {
  tables: MeasuredTable[];
  relationships: MeasuredRelationship[];
}

export interface Crossing {
  relationship: string;
  table: string;
}

export interface SharedRun {
  first: string;
  second: string;
  /** Length of the shared run outside 30 px of either line's own tables. */
  length: number;
}

/** A line may touch a table's outline (rounding, antialiasing); it may not enter further than this. */
const INSET = 2;
/** Two runs closer than this read as one line. */
const SAME_LINE = 1.5;
/** Near its own tables, lines converge on their columns' rows; sharing counts only farther out. */
const OWN_TABLE_ZONE = 30;
/** A shared run longer than this reads as a relationship of its own. */
export const MAX_SHARED = 40;

/** Relationships whose line passes through a table other than its two ends. */
export function crossings(drawing: Drawing): Crossing[] {
  const found: Crossing[] = [];
  for (const relationship of drawing.relationships) {
    for (const table of drawing.tables) {
      if (table.name === relationship.source || table.name === relationship.target) continue;
      const inner = inset(table.box, INSET);
      if (inner.right <= inner.left || inner.bottom <= inner.top) continue;
      if (segmentsOf(relationship.points).some((segment) => segmentEntersBox(segment, inner))) {
        found.push({ relationship: relationship.id, table: table.name });
      }
    }
  }
  return found;
}

/**
 * Pairs of relationships that run together over more than `limit` (40) px outside `ownZone` (30) px of their
 * own tables (where lines converge on their rows).
 */
export function sharedRuns(drawing: Drawing, limit = MAX_SHARED, ownZone = OWN_TABLE_ZONE): SharedRun[] {
  const byName = new Map<string, MeasuredBox[]>();
  for (const table of drawing.tables) byName.set(table.name, [...(byName.get(table.name) ?? []), table.box]);
  const zonesOf = (relationship: MeasuredRelationship) =>
    [...(byName.get(relationship.source) ?? []), ...(byName.get(relationship.target) ?? [])].map((box) =>
      inset(box, -ownZone),
    );
  type Run = { id: number; line: number; from: number; to: number; vertical: boolean };
  const runs: Run[] = [];
  drawing.relationships.forEach((relationship, id) => {
    for (const [[x1, y1], [x2, y2]] of segmentsOf(relationship.points)) {
      if (Math.abs(x1 - x2) < 0.01)
        runs.push({ id, line: x1, from: Math.min(y1, y2), to: Math.max(y1, y2), vertical: true });
      else if (Math.abs(y1 - y2) < 0.01)
        runs.push({ id, line: y1, from: Math.min(x1, x2), to: Math.max(x1, x2), vertical: false });
    }
  });
  runs.sort((a, b) => Number(a.vertical) - Number(b.vertical) || a.line - b.line);
  const shared = new Map<string, number>();
  for (let i = 0; i < runs.length; i++) {
    const a = runs[i] as Run;
    for (let j = i + 1; j < runs.length; j++) {
      const b = runs[j] as Run;
      if (b.vertical !== a.vertical || b.line - a.line > SAME_LINE) break;
      if (a.id === b.id) continue;
      const from = Math.max(a.from, b.from);
      const to = Math.min(a.to, b.to);
      if (to - from <= 0) continue;
      const zones = [
        ...zonesOf(drawing.relationships[a.id] as MeasuredRelationship),
        ...zonesOf(drawing.relationships[b.id] as MeasuredRelationship),
      ];
      const length = lengthOutside(a.vertical, (a.line + b.line) / 2, from, to, zones);
      if (length <= 0) continue;
      const key = a.id < b.id ? `${a.id} ${b.id}` : `${b.id} ${a.id}`;
      shared.set(key, (shared.get(key) ?? 0) + length);
    }
  }
  const out: SharedRun[] = [];
  for (const [key, length] of shared) {
    if (length <= limit) continue;
    const [first, second] = key
      .split(' ')
      .map((id) => (drawing.relationships[Number(id)] as MeasuredRelationship).id);
    out.push({ first: first as string, second: second as string, length: Math.round(length) });
  }
  return out;
}

/** Crossings, shared runs and simple layout measures of a drawing, for benchmarks and reports. */
export function drawingMetrics(drawing: Drawing) {
  let lineLength = 0;
  let bends = 0;
  for (const relationship of drawing.relationships) {
    const segments = segmentsOf(relationship.points);
    bends += Math.max(0, segments.length - 1);
    for (const [[x1, y1], [x2, y2]] of segments) lineLength += Math.abs(x2 - x1) + Math.abs(y2 - y1);
  }
  const left = Math.min(...drawing.tables.map((t) => t.box.left));
  const top = Math.min(...drawing.tables.map((t) => t.box.top));
  const right = Math.max(...drawing.tables.map((t) => t.box.left + t.box.width));
  const bottom = Math.max(...drawing.tables.map((t) => t.box.top + t.box.height));
  return {
    tables: drawing.tables.length,
    relationships: drawing.relationships.length,
    linesThroughTables: crossings(drawing).length,
    sharedRuns: sharedRuns(drawing).length,
    lineLength: Math.round(lineLength),
    bends,
    width: Math.round(right - left),
    height: Math.round(bottom - top),
    aspectRatio: Math.round(((right - left) / Math.max(1, bottom - top)) * 100) / 100,
  };
}

/** The drawing as the server-side SVG describes it through the markup contract. */
export function measureSvg(svg: string): Drawing {
  const tables: MeasuredTable[] = [];
  const tablePattern =
    /<g class="dss-table[^"]*" data-table="([^"]*)"[^>]*>.*?<rect class="dss-box" x="([-\d.e]+)" y="([-\d.e]+)" width="([-\d.e]+)" height="([-\d.e]+)"/gs;
  for (const match of svg.matchAll(tablePattern)) {
    tables.push({
      name: match[1] as string,
      box: {
        left: Number(match[2]),
        top: Number(match[3]),
        width: Number(match[4]),
        height: Number(match[5]),
      },
    });
  }
  const copyPattern =
    /<g class="dss-table dss-table-copy[^"]*" data-table-copy="([^"]*)" data-copy="(\d+)"[^>]*>.*?<rect class="dss-box" x="([-\d.e]+)" y="([-\d.e]+)" width="([-\d.e]+)" height="([-\d.e]+)"/gs;
  for (const match of svg.matchAll(copyPattern)) {
    tables.push({
      name: copyName(match[1] as string, match[2] as string),
      box: {
        left: Number(match[3]),
        top: Number(match[4]),
        width: Number(match[5]),
        height: Number(match[6]),
      },
      copy: true,
    });
  }
  const relationships: MeasuredRelationship[] = [];
  const relationshipPattern =
    /<g class="dss-relationship[^"]*" data-relationship="([^"]*)" data-source-table="([^"]*)" data-target-table="([^"]*)"(?: data-target-copy="(\d+)")?[^>]*>(?:<title>.*?<\/title>)?(?:<path class="dss-halo"[^>]*\/>)?<path class="dss-line" d="([^"]*)"/gs;
  for (const match of svg.matchAll(relationshipPattern)) {
    relationships.push({
      id: match[1] as string,
      source: match[2] as string,
      target: match[4] === undefined ? (match[3] as string) : copyName(match[3] as string, match[4]),
      points: pointsOfPath(match[5] as string),
    });
  }
  return { tables, relationships };
}

/** How a measured drawing names a copy of a busy table: the line ending on it ends on this "table". */
export function copyName(table: string, index: string | number): string {
  return `${table}#copy${index}`;
}

/** The points of an `M x y L x y …` path (what the renderer writes for lines). */
export function pointsOfPath(d: string): [number, number][] {
  const points: [number, number][] = [];
  for (const match of d.matchAll(/[ML]\s*(-?[\d.e]+)[\s,]+(-?[\d.e]+)/g))
    points.push([Number(match[1]), Number(match[2])]);
  return points;
}

type Segment = [[number, number], [number, number]];
interface Rectangle {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function segmentsOf(points: readonly [number, number][]): Segment[] {
  const out: Segment[] = [];
  for (let at = 1; at < points.length; at++)
    out.push([points[at - 1] as [number, number], points[at] as [number, number]]);
  return out;
}

function inset(box: MeasuredBox, by: number): Rectangle {
  return {
    left: box.left + by,
    top: box.top + by,
    right: box.left + box.width - by,
    bottom: box.top + box.height - by,
  };
}

/** Whether an axis-parallel (or any straight) segment has a part strictly inside the rectangle. */
function segmentEntersBox([[x1, y1], [x2, y2]]: Segment, box: Rectangle): boolean {
  // Liang–Barsky clipping against the open rectangle.
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const edges: [number, number][] = [
    [-dx, x1 - box.left],
    [dx, box.right - x1],
    [-dy, y1 - box.top],
    [dy, box.bottom - y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return false;
  }
  return t1 - t0 > 1e-9;
}

/** Length of [from, to] on the line (vertical at x = line, or horizontal at y = line) outside every zone. */
function lengthOutside(
  vertical: boolean,
  line: number,
  from: number,
  to: number,
  zones: Rectangle[],
): number {
  const covered: [number, number][] = [];
  for (const zone of zones) {
    const [across0, across1, along0, along1] = vertical
      ? [zone.left, zone.right, zone.top, zone.bottom]
      : [zone.top, zone.bottom, zone.left, zone.right];
    if (line <= across0 || line >= across1) continue;
    const a = Math.max(from, along0);
    const b = Math.min(to, along1);
    if (b > a) covered.push([a, b]);
  }
  covered.sort((a, b) => a[0] - b[0]);
  let inside = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const [a, b] of covered) {
    const start = Math.max(a, reach);
    if (b > start) inside += b - start;
    reach = Math.max(reach, b);
  }
  return to - from - inside;
}
