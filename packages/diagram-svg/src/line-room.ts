// Room for the lines where the drawing needs it, after a large whole schema's layout (an import, a create
// from a JSON schema, or "Auto-layout"). The layout (packages/schema) keeps every table a fixed gap from the
// next, and spreads a large schema evenly; but the router then sends 7 to 18 lines down some of those gaps,
// whose lanes end up 3–5 px apart, a wall of wires. So: route the laid-out drawing once (without the trades
// between lines to one row, half the routing's time, which barely move the corridors), find each corridor
// where lines run side by side closer than LANE, and widen it by moving every table past it (to the right
// of a vertical corridor, below a horizontal one) by what its lines lack. Moving whole sides of the drawing
// keeps every table's order along both axes and only ever widens a gap, so nothing can come to overlap;
// the next routing spreads the lanes into the room. Two passes (the first one's wider corridors let some
// lines take other ways, which squeezes a few new ones), then up to two that open only the corridors where
// lines lie on one another (shared runs), which the earlier passes' new ways can leave: few cuts, so lines
// and the drawing grow little. From 30 tables to 100 only those last two.
//
// The layout lives in packages/schema and the router here, which depends on it; so the step runs where
// both are at hand: the DDL conversion workers (packages/ddl's pool loads this module by path), the
// diagrams service's create from a JSON schema, and the editor's Auto-layout. Measurements (package README,
// "Room for the lines"): near-parallel pairs on Lago's 139 tables 117 -> 75, generated 300 452 -> 118;
// crossings fall too; lines grow ~10% longer.
import { type DiagramDocument, WHOLE_SCHEMA } from '@dss/schema';
import { type Run, runsOf } from './line-metrics';
import type { Route } from './relationship-route';
import { routeDrawing } from './route-drawing';
import { fitTableBoxes } from './table-geometry';

/** The least distance wanted between two lines running side by side (issue 26's 8 px at 100%). */
const LANE = 8;
/** Runs shorter than this, and side-by-side stretches shorter than this, are not a corridor's. */
const MINIMUM_RUN = 40;
/**
 * Runs this close across lie on one another: a shared run to the eye. Two passes after the LANE ones open
 * only such corridors (package README, "Shared runs in other orders").
 */
const SHARED = 2;
/**
 * From this many tables (the layout's SPREAD_FROM: where it spreads a schema evenly for the router) all
 * crowded corridors open; from WHOLE_SCHEMA tables (30) only those whose lines lie on one another, so the
 * corpus's 30–70-table schemas keep the layout they have unless two lines share a run.
 */
export const ROOM_FROM = 100;
/**
 * Up to this many tables the shared-runs passes run: they cost two routings (1 s of a 1,000-table create's
 * 7.5 s), and beyond a few hundred tables the time matters more than a few shared runs.
 */
const SHARED_UP_TO = 500;

/** Where the drawing is cut and how far everything past the cut moves. */
interface Cut {
  at: number;
  by: number;
}

/**
 * The document with its tables moved apart where their lines lack room, for a whole schema: at least
 * WHOLE_SCHEMA tables (all crowded corridors from ROOM_FROM, see there), as many relationships as half of
 * them, and no groups or sticky notes (whose frames would have to move with their tables). Anything else,
 * and a drawing with nothing to open, is returned as it is.
 */
export function makeRoomForLines(document: DiagramDocument): DiagramDocument {
  if (!wantsRoom(document)) return document;
  // Each pass opens the corridors whose runs lie closer than its distance; under ROOM_FROM tables only
  // those whose runs lie on one another.
  const count = document.tables.length;
  const passes = [
    ...(count >= ROOM_FROM ? [LANE, LANE] : []),
    ...(count <= SHARED_UP_TO ? [SHARED, SHARED] : []),
  ];
  let current = document;
  let lines: Route[] | null = null;
  for (const near of passes) {
    lines ??= routedLines(current);
    const across = cutsOf(corridorRuns(lines, true), near);
    const down = cutsOf(corridorRuns(lines, false), near);
    if (across.length === 0 && down.length === 0) {
      // Nothing moved, so the routing holds for the next pass.
      if (near === SHARED) break;
      continue;
    }
    current = {
      ...current,
      tables: current.tables.map((table) => ({
        ...table,
        left: table.left + shiftAt(across, table.left),
        top: table.top + shiftAt(down, table.top),
      })),
    };
    lines = null;
  }
  return current;
}

function wantsRoom(document: DiagramDocument): boolean {
  return (
    document.tables.length >= WHOLE_SCHEMA &&
    document.relationships.length >= document.tables.length / 2 &&
    document.groups.length === 0 &&
    document.sticky_notes.length === 0
  );
}

/** Each relationship's line as the drawing routes it (without the trades: see the header). */
function routedLines(document: DiagramDocument): Route[] {
  fitTableBoxes(document.tables);
  return routeDrawing(document, { withoutTrades: true }).routes;
}

/** The vertical runs (x across, y along) or the horizontal ones, longer than MINIMUM_RUN, by position across. */
function corridorRuns(lines: readonly Route[], vertical: boolean): Run[] {
  return runsOf(lines)
    .filter((run) => run.vertical === vertical && run.to - run.from > MINIMUM_RUN)
    .sort((a, b) => a.across - b.across);
}

/**
 * The corridors: runs of different lines closer than `near` side by side over MINIMUM_RUN, chained. Each
 * wants room for its deepest stack of runs (the most that lie side by side at one point along) LANE apart,
 * and is cut in its middle.
 */
function cutsOf(runs: readonly Run[], near: number): Cut[] {
  const parent = runs.map((_run, at) => at);
  const find = (at: number): number => {
    let root = at;
    while (parent[root] !== root) root = parent[root] as number;
    parent[at] = root;
    return root;
  };
  for (let i = 0; i < runs.length; i++) {
    const a = runs[i] as Run;
    for (let j = i + 1; j < runs.length; j++) {
      const b = runs[j] as Run;
      if (b.across - a.across >= near) break;
      if (a.id !== b.id && Math.min(a.to, b.to) - Math.max(a.from, b.from) > MINIMUM_RUN)
        parent[find(i)] = find(j);
    }
  }
  const corridors = new Map<number, Run[]>();
  runs.forEach((run, at) => {
    const root = find(at);
    const corridor = corridors.get(root);
    if (corridor === undefined) corridors.set(root, [run]);
    else corridor.push(run);
  });
  const cuts: Cut[] = [];
  for (const corridor of corridors.values()) {
    if (corridor.length < 2) continue;
    const low = (corridor[0] as Run).across;
    const high = (corridor[corridor.length - 1] as Run).across;
    const by = Math.ceil((deepest(corridor) - 1) * LANE + 2 - (high - low));
    if (by > 0) cuts.push({ at: (low + high) / 2, by });
  }
  return cuts;
}

/** The most runs that lie side by side at one point along. */
function deepest(runs: readonly Run[]): number {
  const events: [number, number][] = [];
  for (const run of runs) events.push([run.from, 1], [run.to, -1]);
  // Ends before starts at one point: runs that only touch do not lie side by side.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let depth = 0;
  let most = 0;
  for (const [, step] of events) {
    depth += step;
    most = Math.max(most, depth);
  }
  return most;
}

/** How far a table whose side is at `position` moves: the sum of the cuts before it. */
function shiftAt(cuts: readonly Cut[], position: number): number {
  let by = 0;
  for (const cut of cuts) if (cut.at < position) by += cut.by;
  return by;
}
