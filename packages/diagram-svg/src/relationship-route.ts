// The path of a relationship line: orthogonal segments that leave each table horizontally from the row of
// the linked column, so the end markers can be drawn at the table's edge.
import type { Box } from './table-geometry';

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

/**
 * Routes for every relationship, in order. Self-references go out of the edge of their table where fewer
 * other lines end (the right one on a tie), so their end markers do not sit on top of other lines' ones.
 */
export function routeAll(links: readonly { source: Endpoint; target: Endpoint }[]): Route[] {
  const routes: (Route | null)[] = links.map((link) =>
    link.source.box === link.target.box ? null : routeBetween(link.source, link.target),
  );
  const endsPerEdge = new Map<Box, { left: number; right: number }>();
  const countEnd = (box: Box, side: 1 | -1) => {
    const counts = endsPerEdge.get(box) ?? { left: 0, right: 0 };
    if (side === 1) counts.right++;
    else counts.left++;
    endsPerEdge.set(box, counts);
  };
  links.forEach((link, at) => {
    const route = routes[at];
    if (route === null || route === undefined) return;
    countEnd(link.source.box, route.sourceSide);
    countEnd(link.target.box, route.targetSide);
  });
  const loopCount = new Map<Box, { left: number; right: number }>();
  return links.map((link, at) => {
    const route = routes[at];
    if (route !== null && route !== undefined) return route;
    const counts = endsPerEdge.get(link.source.box) ?? { left: 0, right: 0 };
    const side: 1 | -1 = counts.right > counts.left ? -1 : 1;
    const loops = loopCount.get(link.source.box) ?? { left: 0, right: 0 };
    const index = side === 1 ? loops.right++ : loops.left++;
    loopCount.set(link.source.box, loops);
    return selfLoop(link.source, link.target, side, index);
  });
}
