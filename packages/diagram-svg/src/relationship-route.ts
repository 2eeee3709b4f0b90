// The path of a relationship line: orthogonal segments that leave each table horizontally from the row of
// the linked column, so the end markers can be drawn at the table's edge.
import type { Box } from './table-geometry';

/** How far a line runs straight out of a table before turning: room for the end markers. */
export const STUB = 22;
/** Extra reach of each further self-reference of one table, so their loops do not overlap. */
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
}

export function routeBetween(source: Endpoint, target: Endpoint, selfLoopIndex: number): Route {
  if (source.box === target.box) return selfLoop(source, target, selfLoopIndex);
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

/** A column referencing its own table: a loop out of the right edge and back. */
function selfLoop(source: Endpoint, target: Endpoint, index: number): Route {
  const right = source.box.left + source.box.width;
  const reach = right + STUB + 8 + SELF_LOOP_STEP * index;
  // A column referencing itself still gets a visible loop.
  const targetY = target.y === source.y ? source.y + 8 : target.y;
  return {
    points: [
      [right, source.y],
      [reach, source.y],
      [reach, targetY],
      [right, targetY],
    ],
    sourceSide: 1,
    targetSide: 1,
  };
}
