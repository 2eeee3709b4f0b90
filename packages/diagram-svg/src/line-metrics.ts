// How readable a drawing's lines are, in drawing units (px at 100%), for the layout benchmark and the
// geometry tests: line crossings, pairs of lines running close together (2–8 px apart for more than
// 80 px: a wall of wires no eye can follow), lines running along a table they do not connect (within 3 px
// of its border: they read as part of it), and line length measured in table widths.
import { ALONG_MINIMUM, ALONG_WITHIN, lengthAlongEdge } from './along-edge';
import type { Drawing } from './geometry-check';

export interface Run {
  line: number;
  /** Index of the line (the relationship in the drawing). */
  id: number;
  vertical: boolean;
  /** Position across (x of a vertical run, y of a horizontal one) and its extent along. */
  across: number;
  from: number;
  to: number;
}

/** The horizontal and vertical runs of polylines (a fan's slant is neither), each with its line's index. */
export function runsOf(lines: readonly { points: readonly [number, number][] }[]): Run[] {
  const runs: Run[] = [];
  lines.forEach(({ points }, id) => {
    for (let at = 1; at < points.length; at++) {
      const [x1, y1] = points[at - 1] as [number, number];
      const [x2, y2] = points[at] as [number, number];
      if (Math.abs(x1 - x2) < 0.01 && Math.abs(y1 - y2) > 0.01)
        runs.push({
          line: runs.length,
          id,
          vertical: true,
          across: x1,
          from: Math.min(y1, y2),
          to: Math.max(y1, y2),
        });
      else if (Math.abs(y1 - y2) < 0.01 && Math.abs(x1 - x2) > 0.01)
        runs.push({
          line: runs.length,
          id,
          vertical: false,
          across: y1,
          from: Math.min(x1, x2),
          to: Math.max(x1, x2),
        });
    }
  });
  return runs;
}

/** Points where a horizontal run of one relationship crosses a vertical run of another (ends excluded). */
export function lineCrossings(drawing: Drawing): number {
  let count = 0;
  forEachCrossing(drawing, () => count++);
  return count;
}

/**
 * Crossings between two lines that end on the same table (a hub's fan: lines to one row never need to
 * cross each other, whatever else they cross).
 */
export function sharedEndCrossings(drawing: Drawing): number {
  const relationships = drawing.relationships;
  let count = 0;
  forEachCrossing(drawing, (first, second) => {
    const a = relationships[first] as Drawing['relationships'][number];
    const b = relationships[second] as Drawing['relationships'][number];
    if (a.source === b.source || a.source === b.target || a.target === b.source || a.target === b.target)
      count++;
  });
  return count;
}

/** Calls `visit` with the two relationships' indices at each crossing (lineCrossings' points). */
function forEachCrossing(drawing: Drawing, visit: (horizontal: number, vertical: number) => void): void {
  const runs = runsOf(drawing.relationships);
  const vertical = runs.filter((run) => run.vertical).sort((a, b) => a.across - b.across);
  const horizontal = runs.filter((run) => !run.vertical);
  for (const h of horizontal) {
    // Vertical runs whose x lies strictly inside the horizontal run: binary search the start.
    let low = 0;
    let high = vertical.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((vertical[middle] as Run).across <= h.from + 0.5) low = middle + 1;
      else high = middle;
    }
    for (let at = low; at < vertical.length; at++) {
      const v = vertical[at] as Run;
      if (v.across >= h.to - 0.5) break;
      if (v.id !== h.id && h.across > v.from + 0.5 && h.across < v.to - 0.5) visit(h.id, v.id);
    }
  }
}

export interface NearParallel {
  first: number;
  second: number;
  /** Length over which the two run 2–8 px apart. */
  length: number;
}

/** Pairs of relationships that run side by side 2–8 px apart over more than `minimum` px in total. */
export function nearParallelPairs(drawing: Drawing, minimum = 80, near = 2, far = 8): NearParallel[] {
  const runs = runsOf(drawing.relationships).sort(
    (a, b) => Number(a.vertical) - Number(b.vertical) || a.across - b.across,
  );
  const together = new Map<string, number>();
  for (let i = 0; i < runs.length; i++) {
    const a = runs[i] as Run;
    for (let j = i + 1; j < runs.length; j++) {
      const b = runs[j] as Run;
      if (b.vertical !== a.vertical || b.across - a.across >= far) break;
      if (a.id === b.id || b.across - a.across < near) continue;
      const overlap = Math.min(a.to, b.to) - Math.max(a.from, b.from);
      if (overlap <= 0) continue;
      const key = a.id < b.id ? `${a.id} ${b.id}` : `${b.id} ${a.id}`;
      together.set(key, (together.get(key) ?? 0) + overlap);
    }
  }
  const out: NearParallel[] = [];
  for (const [key, length] of together) {
    if (length <= minimum) continue;
    const [first, second] = key.split(' ').map(Number) as [number, number];
    out.push({ first, second, length: Math.round(length) });
  }
  return out;
}

export interface BorderRun {
  relationship: string;
  table: string;
  length: number;
}

/**
 * Runs of a line along the border of a table it does not connect, within `within` px of it (outside or
 * on it) over more than `minimum` px: such a line reads as the table's outline or as attached to it.
 */
export function borderRuns(drawing: Drawing, within = ALONG_WITHIN, minimum = ALONG_MINIMUM): BorderRun[] {
  const out: BorderRun[] = [];
  const runs = runsOf(drawing.relationships);
  for (const run of runs) {
    const relationship = drawing.relationships[run.id]!;
    for (const table of drawing.tables) {
      if (table.name === relationship.source || table.name === relationship.target) continue;
      const { left, top, width, height } = table.box;
      const length = lengthAlongEdge(run, { left, right: left + width, top, bottom: top + height }, within);
      if (length > minimum)
        out.push({ relationship: relationship.id, table: table.name, length: Math.round(length) });
    }
  }
  return out;
}

/** The median line length divided by the median table width. */
export function medianLengthInTableWidths(drawing: Drawing): number {
  const lengths = drawing.relationships.map((relationship) => {
    let length = 0;
    for (let at = 1; at < relationship.points.length; at++) {
      const [x1, y1] = relationship.points[at - 1] as [number, number];
      const [x2, y2] = relationship.points[at] as [number, number];
      length += Math.abs(x2 - x1) + Math.abs(y2 - y1);
    }
    return length;
  });
  // A table width is a table's: copies of busy tables (narrow, a row or two) are not counted.
  const widths = drawing.tables.filter((table) => table.copy !== true).map((table) => table.box.width);
  const middle = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
  };
  const width = middle(widths);
  return width === 0 ? 0 : Math.round((middle(lengths) / width) * 10) / 10;
}

/** Bends per line on average: where a line changes direction (a fan's slant to its port included). */
export function bendsPerLine(drawing: Drawing): number {
  let bends = 0;
  for (const { points } of drawing.relationships) {
    let heading: [number, number] | null = null;
    for (let at = 1; at < points.length; at++) {
      const [x1, y1] = points[at - 1] as [number, number];
      const [x2, y2] = points[at] as [number, number];
      if (Math.abs(x2 - x1) < 0.01 && Math.abs(y2 - y1) < 0.01) continue;
      const length = Math.hypot(x2 - x1, y2 - y1);
      const direction: [number, number] = [(x2 - x1) / length, (y2 - y1) / length];
      if (
        heading !== null &&
        Math.abs(heading[0] - direction[0]) + Math.abs(heading[1] - direction[1]) > 1e-6
      )
        bends++;
      heading = direction;
    }
  }
  return Math.round((bends / Math.max(1, drawing.relationships.length)) * 10) / 10;
}

/** The measures of the layout benchmark's table, for one drawing. */
export function readabilityMetrics(drawing: Drawing) {
  const tables = drawing.tables.map((table) => table.box);
  const left = Math.min(...tables.map((box) => box.left));
  const top = Math.min(...tables.map((box) => box.top));
  const right = Math.max(...tables.map((box) => box.left + box.width));
  const bottom = Math.max(...tables.map((box) => box.top + box.height));
  const crossings = lineCrossings(drawing);
  return {
    crossings,
    crossingsPerRelationship: Math.round((crossings / Math.max(1, drawing.relationships.length)) * 10) / 10,
    sharedEndCrossings: sharedEndCrossings(drawing),
    nearParallelPairs: nearParallelPairs(drawing).length,
    borderRuns: borderRuns(drawing).length,
    medianLengthInTableWidths: medianLengthInTableWidths(drawing),
    bendsPerLine: bendsPerLine(drawing),
    areaMegapixels: Math.round(((right - left) * (bottom - top)) / 1e4) / 100,
  };
}
