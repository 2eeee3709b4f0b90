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
