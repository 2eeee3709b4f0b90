// How far a straight run of a line lies along the edge of a box: the one measure behind the drawings'
// "runs along a table" (line-metrics.ts's borderRuns) and the trades' check that refuses to make more of
// them (routing/uncross.ts).

/** A horizontal or vertical run: its position across (x of a vertical run), and its extent along. */
export interface AxisRun {
  vertical: boolean;
  across: number;
  from: number;
  to: number;
}

export interface EdgeBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The length over which `run` lies within `within` px of one of `box`'s two edges parallel to it (outside
 * or on it), beside the box; 0 when it is farther from both.
 */
export function lengthAlongEdge(run: AxisRun, box: EdgeBox, within: number): number {
  const [low, high, start, end] = run.vertical
    ? [box.left, box.right, box.top, box.bottom]
    : [box.top, box.bottom, box.left, box.right];
  if (Math.abs(run.across - low) > within && Math.abs(run.across - high) > within) return 0;
  return Math.max(0, Math.min(end, run.to) - Math.max(start, run.from));
}

/** Nearer than this to a table's edge, a run reads as the table's border (line-metrics' border runs). */
export const ALONG_WITHIN = 3;
/** Longer than this beside a table's edge, such a run counts (line-metrics' border runs). */
export const ALONG_MINIMUM = 10;

/** What lengthAlongOthers looks tables up in (the router's TableIndex). */
export interface TablesNear {
  some(area: EdgeBox, test: (table: EdgeBox) => boolean): boolean;
}

/**
 * Calls `visit` with each table whose edge `run` lies ALONG_WITHIN px or less beside over more than
 * ALONG_MINIMUM px, and that length, leaving out the tables that lie inside one of `zones` (the line's own
 * tables' zones): the router's form of line-metrics' border runs, for one run of one line.
 */
export function eachTableAlong(
  run: AxisRun,
  tables: TablesNear,
  zones: readonly EdgeBox[],
  visit: (table: EdgeBox, length: number) => void,
): void {
  const reach = ALONG_WITHIN;
  const area = run.vertical
    ? { left: run.across - reach, right: run.across + reach, top: run.from, bottom: run.to }
    : { left: run.from, right: run.to, top: run.across - reach, bottom: run.across + reach };
  tables.some(area, (table) => {
    const overlap = lengthAlongEdge(run, table, reach);
    if (
      overlap > ALONG_MINIMUM &&
      !zones.some(
        (zone) =>
          zone.left <= table.left &&
          zone.right >= table.right &&
          zone.top <= table.top &&
          zone.bottom >= table.bottom,
      )
    )
      visit(table, overlap);
    return false;
  });
}

/** How far `run` lies along the edges of tables its line does not end at, in all (eachTableAlong). */
export function lengthAlongOthers(run: AxisRun, tables: TablesNear, zones: readonly EdgeBox[]): number {
  let length = 0;
  eachTableAlong(run, tables, zones, (_table, overlap) => {
    length += overlap;
  });
  return length;
}
