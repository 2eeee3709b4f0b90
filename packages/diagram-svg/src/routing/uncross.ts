// Lines that end on one row of one table, on one edge (a hub's key: a hundred foreign keys to
// `organizations.id`), need not cross each other: where two of them cross, each can go on along the
// other's way from the crossing, and their two ends trade places on the row (their fans' slants trade
// with them, so the fan stays in order). The two together are exactly as long as before. One of the two
// then turns a lane (8 px) or more before the crossing, so the two corners stand apart and read as two lines
// that meet and part, not as a crossing; where no such turn fits (a table, the line's row, another line's
// run closer than a lane), the two are left crossing. It runs after the lanes are separated, and moves
// nothing else. Each trade takes a crossing away and adds a bend to each of the two lines (the layout
// benchmark counts both). The passes are bounded. Any two lines that cross each other twice, anywhere, then
// exchange the stretch between the two crossings (uncrossPairs, below), where one of the two turns early or
// late at each meeting.
import { lengthAlongOthers } from '../along-edge';
import type { Point, Rect } from './grid-search';
import { entersTable, TableIndex } from './lanes';

/**
 * How far before the crossing the line that takes the other's way may turn: a lane first, the clearest;
 * then farther, to the next free stretch, where lanes 8 px apart leave no room a lane or less off (a turn
 * up to 40 px early reads as a step in the line, and it still keeps CLEAR of every other run). With the
 * farther turns, Lago's crossings per relationship 8.5 -> 8.1, generated 300 12.1 -> 11.1.
 */
const EARLY = [8, 7, 6, 5, 4, 12, 16, 20, 24, 32, 40];
/** EARLY's first five, a lane or less: tried at the cost of one turn of the budget together. */
const NEAR_TURNS = 5;
/**
 * Least distance between a moved run and any other line's run beside it: a lane's width, so the turn makes
 * no pair of wires too close to tell apart.
 */
const CLEAR = 8;
/** Passes over a row's lines; a pass without a trade ends them sooner. */
const PASSES = 4;
/**
 * Passes over the pairs crossing twice (uncrossPairs): the second looks at the pairs of the lines the first
 * changed; more found few (Lago 8.6 crossings per relationship after one, 8.5 after four).
 */
const PAIR_PASSES = 2;
/**
 * Pairs crossing twice looked at per pass, at most, per line: Lago and the generated 300 tables have 1 to 1.2
 * per line, and all are looked at; packages/schema's 1,000 random tables and 1,998 keys have 31 per
 * line, where looking at every one cost 4 s of the drawing's 15.
 */
const PAIRS_PER_LINE = 2;
/**
 * Early turns tried per line of a row, at most, over all its passes: the work grows with the square of a
 * row's lines, and a row of a few hundred (500 tables, 1,500 keys: 738 per line) would take seconds. The
 * rows of every graph measured stay below it (generated 300: 111), so their drawings are as without it.
 */
const TURNS_PER_END = 150;
/**
 * Turns the exchanges may try per line, at most, over all their passes (each look at a candidate's
 * crossings counts as one): Lago uses 9,200 of its 16,750, the generated 300 tables 27,000 of 30,000. A
 * row of 120 tables side by side, whose 280 lines all run along the row, used all of the 150 per line the
 * trades have: 0.85-1.1 s of its drawing, now 0.5-0.7 s.
 */
const TURNS_PER_LINE = 50;
/** Trades of one pair of lines at most: each takes one of their crossings away. */
const PAIR_TRADES = 4;
/** A crossing lies this far or more inside both runs (as line-metrics counts them): touching is not one. */
const INSIDE = 0.5;
/** Closest a moved run comes to a table (as lanes keep them: nearer, it reads as the table's outline). */
const TABLE_CLEARANCE = 5;
/** The first and last runs keep at least this length: room for the end markers. */
const END_ROOM = 24;
/** Keys of pairs of numbers below this (routes' ends, routes' versions): one number per pair. */
const PAIR_KEY = 1 << 21;

/** One line's end in a row's group: its route and which end (0: the source, its points' first). */
export interface RowEnd {
  route: number;
  end: 0 | 1;
}

/** The ends on one row and edge, and the table (its bare box) the row belongs to. */
export interface Row {
  table: Rect;
  ends: RowEnd[];
}

/**
 * Near the row's table the lines converge on their places on the row (gathered or fanned): no trade there,
 * where their order is the row's.
 */
const NEAR_ROW = 32;

type Route = { points: Point[] } | null | undefined;
type Run = [Point, Point];

/**
 * Within each group of ends on one row and edge, trades the parts of crossing lines beyond their crossing
 * (see the top of this file); `swap(a, b)` is told of every trade (the two ends' places on the row trade
 * with their lines). `movable(route)`: whether a route may change (a kept line of the editor's previous
 * drawing may not). Returns the number of trades.
 */
export function uncrossRows(
  routes: readonly Route[],
  groups: readonly Row[],
  tables: readonly Rect[],
  movable: (route: number) => boolean,
  swap: (a: RowEnd, b: RowEnd) => void,
): number {
  return tradeRows(new Uncrosser(routes, tables), routes, groups, movable, swap);
}

/**
 * Both steps over one index of the lines' runs: first the trades of lines to one row (uncrossRows), then
 * the exchanges of any two lines crossing twice (uncrossPairs). Returns the numbers of each.
 */
export function uncross(
  routes: readonly Route[],
  groups: readonly Row[],
  tables: readonly Rect[],
  movable: (route: number) => boolean,
  swap: (a: RowEnd, b: RowEnd) => void,
): { trades: number; exchanges: number } {
  const uncrosser = new Uncrosser(routes, tables);
  const trades = tradeRows(uncrosser, routes, groups, movable, swap);
  return { trades, exchanges: exchangePairs(uncrosser, routes, movable) };
}

function tradeRows(
  uncrosser: Uncrosser,
  routes: readonly Route[],
  groups: readonly Row[],
  movable: (route: number) => boolean,
  swap: (a: RowEnd, b: RowEnd) => void,
): number {
  let trades = 0;
  for (const group of groups) {
    const members = group.ends.filter((member) => routes[member.route] && movable(member.route));
    if (members.length < 2) continue;
    const near = {
      left: group.table.left - NEAR_ROW,
      right: group.table.right + NEAR_ROW,
      top: group.table.top - NEAR_ROW,
      bottom: group.table.bottom + NEAR_ROW,
    };
    uncrosser.turnsLeft = TURNS_PER_END * members.length;
    for (let pass = 0; pass < PASSES && uncrosser.turnsLeft > 0; pass++) {
      let traded = 0;
      for (let i = 0; i < members.length; i++) {
        for (let j = i + 1; j < members.length; j++) {
          const a = members[i] as RowEnd;
          const b = members[j] as RowEnd;
          for (let count = 0; count < PAIR_TRADES && uncrosser.trade(a, b, near); count++) {
            swap(a, b);
            traded++;
          }
        }
      }
      trades += traded;
      if (traded === 0) break;
    }
  }
  return trades;
}

/**
 * Two lines that cross each other twice, anywhere, exchange the stretch between two consecutive crossings:
 * each goes on along the other's way from the first crossing and back onto its own at the second, so both
 * keep their ends, the two together are exactly as long as before, and their runs are the same runs (so
 * they cross every other line as before) but for the turns that set the two corners of each meeting apart
 * (early, as in a row's trade, or late: the run before the meeting moved aside). Two crossings of one pair
 * that need not be there go; a pair crossing three times keeps one. Made only where the turns fit and
 * neither line comes to run along a table it does not end at; `movable` as for uncrossRows. Returns the
 * number of exchanges.
 */
export function uncrossPairs(
  routes: readonly Route[],
  tables: readonly Rect[],
  movable: (route: number) => boolean,
): number {
  return exchangePairs(new Uncrosser(routes, tables), routes, movable);
}

function exchangePairs(
  uncrosser: Uncrosser,
  routes: readonly Route[],
  movable: (route: number) => boolean,
): number {
  const lines: number[] = [];
  for (let at = 0; at < routes.length; at++) if (routes[at] && movable(at)) lines.push(at);
  uncrosser.turnsLeft = TURNS_PER_LINE * lines.length;
  let exchanges = 0;
  // A pass can leave new pairs crossing twice (runs changed lines): the next looks again.
  let changed: Set<number> | null = null;
  for (let pass = 0; pass < PAIR_PASSES && uncrosser.turnsLeft > 0; pass++) {
    const now = new Set<number>();
    const candidates = pairsCrossingTwice(routes, lines, changed);
    for (const [a, b] of candidates.slice(0, PAIRS_PER_LINE * lines.length)) {
      for (let count = 0; count < PAIR_TRADES && uncrosser.exchange(a, b); count++) {
        exchanges++;
        now.add(a);
        now.add(b);
      }
      if (uncrosser.turnsLeft <= 0) break;
    }
    if (now.size === 0) break;
    changed = now;
  }
  return exchanges;
}

class Uncrosser {
  /** Early turns the current row may still try (TURNS_PER_END). */
  turnsLeft = 0;
  private readonly tables: TableIndex;
  /** Every line's runs, by the line they lie on (kept in step as lines change). */
  private readonly runs = new RunBuckets();
  /** Per route, how often it changed; per pair that found no trade, the two counts then. */
  private readonly versions: number[];
  private readonly failed = new Map<number, number>();
  /** Per route, the box around its points. */
  private readonly boxes: Rect[];

  constructor(
    private readonly routes: readonly Route[],
    tables: readonly Rect[],
  ) {
    this.tables = new TableIndex(tables);
    this.versions = routes.map(() => 0);
    this.boxes = routes.map(() => ({ left: 0, right: 0, top: 0, bottom: 0 }));
    for (let index = 0; index < routes.length; index++) this.index(index);
  }

  /**
   * Where the two lines cross (the first crossing along `a` from its far end that leaves room for the
   * early turn), each takes the other's way from there on. False when they do not cross where it can be
   * done; the lines are then as they were.
   */
  trade(a: RowEnd, b: RowEnd, near: Rect): boolean {
    const routeA = this.routes[a.route] as { points: Point[] };
    const routeB = this.routes[b.route] as { points: Point[] };
    // A pair that found no trade finds none again until one of its lines or a line beside them changes:
    // lines beside them change only by trades of their own, rare enough to ignore here.
    const pair = (a.route * 2 + a.end) * PAIR_KEY + b.route * 2 + b.end;
    const state = this.mayMeet(a.route, b.route, pair);
    if (state === null) return false;
    const boxA = this.boxes[a.route] as Rect;
    const boxB = this.boxes[b.route] as Rect;
    const p = towards(routeA.points, a.end);
    const q = towards(routeB.points, b.end);
    // How far the two run along tables they do not end at now: measured once, at the first candidate.
    let alongBefore: number | undefined;
    for (const [i, j, x] of crossings(p, q, boxA, boxB)) {
      if (within(x, near)) continue;
      // Points are never changed in place (an early turn puts new ones), so the two can share them.
      const newA: Point[] = [...p.slice(0, i + 1), [x[0], x[1]], ...q.slice(j + 1)];
      const newB: Point[] = [...q.slice(0, j + 1), [x[0], x[1]], ...p.slice(i + 1)];
      // Either line may turn early at the crossing, the one taking `b`'s way first.
      if (
        !this.turnEarly(newA, i + 1, newB, a.route, b.route, near) &&
        !this.turnEarly(newB, j + 1, newA, a.route, b.route, near)
      )
        continue;
      // No more of the two along tables they do not end at than before (a line there reads as the table's
      // outline): on Lago the trades took such runs from 8 to 17; with this check, 8. Where they came from is
      // not pinned down (refusing only ways past the other line's own tables removed almost none), so the
      // check compares the measure itself.
      alongBefore ??= this.alongOthers(p, a.route) + this.alongOthers(q, b.route);
      if (this.alongOthers(newA, a.route) + this.alongOthers(newB, b.route) > alongBefore + 0.5) continue;
      routeA.points = a.end === 1 ? newA : newA.reverse();
      routeB.points = b.end === 1 ? newB : newB.reverse();
      this.index(a.route);
      this.index(b.route);
      return true;
    }
    this.failed.set(pair, state);
    return false;
  }

  /**
   * The two routes' state (their versions) when they may cross: null when `pair` found nothing at this state
   * before, or when the boxes around the two lines do not overlap (then remembered as found nothing).
   */
  private mayMeet(a: number, b: number, pair: number): number | null {
    const state = (this.versions[a] as number) * PAIR_KEY + (this.versions[b] as number);
    if (this.failed.get(pair) === state) return null;
    const boxA = this.boxes[a] as Rect;
    const boxB = this.boxes[b] as Rect;
    if (
      boxA.right <= boxB.left ||
      boxB.right <= boxA.left ||
      boxA.bottom <= boxB.top ||
      boxB.bottom <= boxA.top
    ) {
      this.failed.set(pair, state);
      return null;
    }
    return state;
  }

  /**
   * Where lines `a` and `b` cross twice in a row along `a`, each takes the other's way between the two
   * crossings (uncrossPairs). False, and the lines as they were, where no such exchange takes two crossings
   * away with its turns in place.
   */
  exchange(a: number, b: number): boolean {
    const routeA = this.routes[a] as { points: Point[] };
    const routeB = this.routes[b] as { points: Point[] };
    const pair = a * 2 * PAIR_KEY + b * 2;
    const state = this.mayMeet(a, b, pair);
    if (state === null) return false;
    const boxA = this.boxes[a] as Rect;
    const boxB = this.boxes[b] as Rect;
    const p = routeA.points;
    const q = routeB.points;
    const found = crossings(p, q, boxA, boxB);
    if (found.length < 2) {
      this.failed.set(pair, state);
      return false;
    }
    // In order along p: by p's run, then within one run by the distance from its start.
    const ordered = [...found].sort(
      (s, t) => s[0] - t[0] || distance(p[s[0]] as Point, s[2]) - distance(p[t[0]] as Point, t[2]),
    );
    // Whether, along q, the crossing on q's run j1 at x1 comes before the one on run j2 at x2.
    const firstOnQ = (j1: number, x1: Point, j2: number, x2: Point) =>
      j1 < j2 || (j1 === j2 && distance(q[j1] as Point, x1) < distance(q[j2] as Point, x2));
    const selfBefore = selfCrossings(p) + selfCrossings(q);
    let alongBefore: number | undefined;
    const nowhere = { left: 0, right: 0, top: 0, bottom: 0 };
    for (let k = 0; k + 1 < ordered.length; k++) {
      const [i1, j1, x1] = ordered[k] as [number, number, Point];
      const [i2, j2, x2] = ordered[k + 1] as [number, number, Point];
      const pMiddle = p.slice(i1 + 1, i2 + 1);
      let newA: Point[];
      let newB: Point[];
      if (firstOnQ(j1, x1, j2, x2)) {
        newA = [
          ...p.slice(0, i1 + 1),
          [x1[0], x1[1]],
          ...q.slice(j1 + 1, j2 + 1),
          [x2[0], x2[1]],
          ...p.slice(i2 + 1),
        ];
        newB = [...q.slice(0, j1 + 1), [x1[0], x1[1]], ...pMiddle, [x2[0], x2[1]], ...q.slice(j2 + 1)];
      } else {
        newA = [
          ...p.slice(0, i1 + 1),
          [x1[0], x1[1]],
          ...q.slice(j2 + 1, j1 + 1).reverse(),
          [x2[0], x2[1]],
          ...p.slice(i2 + 1),
        ];
        newB = [
          ...q.slice(0, j2 + 1),
          [x2[0], x2[1]],
          ...pMiddle.reverse(),
          [x1[0], x1[1]],
          ...q.slice(j1 + 1),
        ];
      }
      // Each meeting's two corners set apart: one of the two lines turns early at it.
      const turned = (meeting: Point) => {
        const atA = newA.findIndex((point) => point[0] === meeting[0] && point[1] === meeting[1]);
        const atB = newB.findIndex((point) => point[0] === meeting[0] && point[1] === meeting[1]);
        if (atA < 0 || atB < 0) return true;
        if (this.turnEarly(newA, atA, newB, a, b, nowhere) || this.turnEarly(newB, atB, newA, a, b, nowhere))
          return true;
        // Else one line turns late instead: the run before the meeting moves aside, not the one after (the
        // same turns along the line read from its other end). Lago's crossings per relationship 8.1 -> 7.9,
        // OpenStreetMap's 1.8 -> 1.7 and its one line along a table gone. Trades of lines to one row turning
        // late as well took Lago to 7.6, but left the generated 300 tables a line along a table.
        return (
          turnedBack(newA, atA, (points, at) => this.turnEarly(points, at, newB, a, b, nowhere)) ||
          turnedBack(newB, atB, (points, at) => this.turnEarly(points, at, newA, a, b, nowhere))
        );
      };
      // The turns move the corners at the meetings only: lines that still cross as often away from them are
      // not worth turning. The look counts against the budget as a turn would (a row of 120 tables spends
      // it on such pairs, and a look that cost nothing would leave it to more pairs, taking longer).
      if (this.turnsLeft-- <= 0) break;
      if (crossings(newA, newB, boxA, boxB).length > found.length - 2) continue;
      if (!turned(x1) || !turned(x2) || touching(newA, newB)) continue;
      if (crossings(newA, newB, boxA, boxB).length > found.length - 2) continue;
      if (selfCrossings(newA) + selfCrossings(newB) > selfBefore) continue;
      alongBefore ??= this.alongOthers(p, a) + this.alongOthers(q, b);
      if (this.alongOthers(newA, a) + this.alongOthers(newB, b) > alongBefore + 0.5) continue;
      routeA.points = newA;
      routeB.points = newB;
      this.index(a);
      this.index(b);
      return true;
    }
    this.failed.set(pair, state);
    return false;
  }

  /**
   * Moves the turn at `points[at]` (where the line takes the other's way) back along the way it came, with
   * the run after it, by the first of EARLY that keeps both moved runs CLEAR of every other line's runs
   * beside them (`partner` is the other line of the trade, as it now runs). False, and nothing moved, where
   * none fits: the run before the turn would vanish or the first run grow too short, the moved run is the
   * line's last (its row), the last run would grow too short, a moved run would enter a table, a moved
   * corner would lie near the row's table, or another line's run lies closer than CLEAR beside one.
   */
  private turnEarly(
    points: Point[],
    at: number,
    partner: readonly Point[],
    skipA: number,
    skipB: number,
    near: Rect,
  ): boolean {
    if (this.turnsLeft <= 0) return false;
    this.turnsLeft--;
    const before = points[at - 1];
    const corner = points[at] as Point;
    const next = points[at + 1];
    const after = points[at + 2];
    if (before === undefined || next === undefined || after === undefined) return false;
    const dx = Math.sign(corner[0] - before[0]);
    const dy = Math.sign(corner[1] - before[1]);
    const came = Math.abs(corner[0] - before[0]) + Math.abs(corner[1] - before[1]);
    for (const [tried, early] of EARLY.entries()) {
      // Each farther turn tried counts against the budget as a turn of its own: on a long run each costs a
      // look along the whole run (a row of 120 tables: the trades took twice their time without this).
      if (tried >= NEAR_TURNS && this.turnsLeft-- <= 0) return false;
      if (came <= early + 1 || (at === 1 && came - early < END_ROOM)) continue;
      const movedCorner: Point = [corner[0] - dx * early, corner[1] - dy * early];
      const movedNext: Point = [next[0] - dx * early, next[1] - dy * early];
      const rest = Math.abs(after[0] - movedNext[0]) + Math.abs(after[1] - movedNext[1]);
      if (rest < 1 || (at + 3 === points.length && rest < END_ROOM)) continue;
      const moved: Run[] = [
        [movedCorner, movedNext],
        [movedNext, after],
      ];
      // Into no table, and the moved runs not along one (a line's last run reaches its own table).
      if (this.entersTable([before, movedCorner], 0)) continue;
      if (this.entersTable(moved[0] as Run, TABLE_CLEARANCE)) continue;
      if (this.entersTable(moved[1] as Run, at + 3 === points.length ? 0 : TABLE_CLEARANCE)) continue;
      if (within(movedCorner, near) || within(movedNext, near)) continue;
      const clear = moved.every((run) => {
        if (!this.runs.clearBeside(run, skipA, skipB)) return false;
        const span = spanOf(run[0], run[1]);
        if (span === null) return true;
        for (let k = 1; k < partner.length; k++) {
          const other = spanOf(partner[k - 1] as Point, partner[k] as Point);
          if (other !== null && besideWithin(span, other)) return false;
        }
        return true;
      });
      if (!clear) continue;
      points[at] = movedCorner;
      points[at + 1] = movedNext;
      return true;
    }
    return false;
  }

  /**
   * How far the line (route `route`'s ends) runs beside the border of a table it does not end at
   * (lengthAlongOthers: line-metrics' border runs).
   */
  private alongOthers(points: readonly Point[], route: number): number {
    const zones = (this.routes[route] as { zones?: readonly Rect[] }).zones ?? [];
    let length = 0;
    for (let k = 1; k < points.length; k++) {
      const span = spanOf(points[k - 1] as Point, points[k] as Point);
      if (span === null) continue;
      const run = { vertical: span.vertical, across: span.line, from: span.from, to: span.to };
      length += lengthAlongOthers(run, this.tables, zones);
    }
    return length;
  }

  /** Whether the run enters a table grown by `margin` on every side. */
  private entersTable([s, t]: Run, margin: number): boolean {
    const area = {
      left: Math.min(s[0], t[0]) - margin,
      right: Math.max(s[0], t[0]) + margin,
      top: Math.min(s[1], t[1]) - margin,
      bottom: Math.max(s[1], t[1]) + margin,
    };
    return this.tables.some(area, (table) =>
      entersTable(s, t, {
        left: table.left - margin,
        right: table.right + margin,
        top: table.top - margin,
        bottom: table.bottom + margin,
      }),
    );
  }

  /** Enters route `index`'s runs and box anew (after a trade). */
  private index(index: number): void {
    this.versions[index] = (this.versions[index] as number) + 1;
    const points = this.routes[index]?.points ?? [];
    this.runs.put(index, points);
    const box = {
      left: Number.POSITIVE_INFINITY,
      right: Number.NEGATIVE_INFINITY,
      top: Number.POSITIVE_INFINITY,
      bottom: Number.NEGATIVE_INFINITY,
    };
    for (const point of points) {
      box.left = Math.min(box.left, point[0]);
      box.right = Math.max(box.right, point[0]);
      box.top = Math.min(box.top, point[1]);
      box.bottom = Math.max(box.bottom, point[1]);
    }
    this.boxes[index] = box;
  }
}

/** An axis-parallel run: which way, its fixed coordinate (x of a vertical run) and its extent along. */
interface Span {
  vertical: boolean;
  line: number;
  from: number;
  to: number;
}

/** `turn` applied to the line read from its other end at the same point; the line keeps its order. */
function turnedBack(points: Point[], at: number, turn: (points: Point[], at: number) => boolean): boolean {
  points.reverse();
  const turned = turn(points, points.length - 1 - at);
  points.reverse();
  return turned;
}

/** The run s–t as a Span; null when it has no length or slants. */
function spanOf(s: Point, t: Point): Span | null {
  if (s[0] === t[0] && s[1] !== t[1])
    return { vertical: true, line: s[0], from: Math.min(s[1], t[1]), to: Math.max(s[1], t[1]) };
  if (s[1] === t[1] && s[0] !== t[0])
    return { vertical: false, line: s[1], from: Math.min(s[0], t[0]), to: Math.max(s[0], t[0]) };
  return null;
}

/** Whether two runs run the same way closer than CLEAR, overlapping along it (or lie on one line). */
function besideWithin(a: Span, b: Span): boolean {
  return (
    a.vertical === b.vertical &&
    Math.abs(a.line - b.line) < CLEAR &&
    Math.min(a.to, b.to) - Math.max(a.from, b.from) > INSIDE
  );
}

/** A run of a line, and whose it is. */
interface Entry extends Span {
  route: number;
}

/** The run as an Entry of `route` (written out: an object spread here cost a tenth of the trades' time). */
function entryOf(span: Span, route: number): Entry {
  return { vertical: span.vertical, line: span.line, from: span.from, to: span.to, route };
}

/**
 * The lines' runs in buckets by orientation, by the line they lie on (CLEAR wide) and by where they lie
 * along it (SPAN long; a run is in every bucket it passes), so that the runs beside a run are those of
 * three rows of buckets over its length.
 */
class RunBuckets {
  private readonly buckets = new Map<number, Entry[]>();
  /** Per route, the buckets holding its runs. */
  private readonly keysOf = new Map<number, number[]>();

  put(route: number, points: readonly Point[]): void {
    // A key listed twice (two runs of the route in one bucket) finds the route gone the second time.
    for (const key of this.keysOf.get(route) ?? []) {
      const bucket = this.buckets.get(key) as Entry[];
      let kept = 0;
      for (let at = 0; at < bucket.length; at++) {
        const entry = bucket[at] as Entry;
        if (entry.route !== route) bucket[kept++] = entry;
      }
      if (kept < bucket.length) bucket.length = kept;
    }
    const keys: number[] = [];
    for (let at = 1; at < points.length; at++) {
      const span = spanOf(points[at - 1] as Point, points[at] as Point);
      if (span === null) continue;
      const entry = entryOf(span, route);
      for (let along = Math.floor(entry.from / SPAN); along <= Math.floor(entry.to / SPAN); along++) {
        const key = bucketKey(entry.vertical, Math.floor(entry.line / CLEAR), along);
        const bucket = this.buckets.get(key);
        if (bucket === undefined) this.buckets.set(key, [entry]);
        else bucket.push(entry);
        keys.push(key);
      }
    }
    this.keysOf.set(route, keys);
  }

  /** Whether `run` keeps CLEAR off the runs beside it of every line but `skipA` and `skipB`. */
  clearBeside([s, t]: Run, skipA: number, skipB: number): boolean {
    const span = spanOf(s, t);
    if (span === null) return true;
    const bucket = Math.floor(span.line / CLEAR);
    for (let at = bucket - 1; at <= bucket + 1; at++) {
      for (let along = Math.floor(span.from / SPAN); along <= Math.floor(span.to / SPAN); along++) {
        for (const entry of this.buckets.get(bucketKey(span.vertical, at, along)) ?? []) {
          if (entry.route !== skipA && entry.route !== skipB && besideWithin(span, entry)) return false;
        }
      }
    }
    return true;
  }
}

/** Length along a line of the run buckets, px. */
const SPAN = 256;

/**
 * A bucket's key: a small integer, which V8 keeps unboxed (the exact key of two 21-bit numbers was a boxed
 * double). Buckets far apart can share a key; every reader checks the runs it finds, so sharing costs a
 * look at a few more runs, never a wrong answer.
 */
function bucketKey(vertical: boolean, bucket: number, along: number): number {
  return ((bucket & 0x3fff) << 15) | ((along & 0x7fff) << 1) | (vertical ? 1 : 0);
}

/** The route's points, in order towards the end `end` (a copy when reversed). */
function towards(points: Point[], end: 0 | 1): Point[] {
  return end === 1 ? points : [...points].reverse();
}

/**
 * The crossings of `p` (in order along it) with `q`: the index of p's run, of q's run, and the point.
 * `boxP` and `boxQ` are the boxes around the two lines: only runs of each that reach into the other's box
 * can cross (two lines to one hub meet near it and lie apart elsewhere).
 */
function crossings(
  p: readonly Point[],
  q: readonly Point[],
  boxP: Rect,
  boxQ: Rect,
): readonly [number, number, Point][] {
  const out: [number, number, Point][] = [];
  const meets = (s: Point, t: Point, box: Rect) =>
    Math.max(s[0], t[0]) > box.left &&
    Math.min(s[0], t[0]) < box.right &&
    Math.max(s[1], t[1]) > box.top &&
    Math.min(s[1], t[1]) < box.bottom;
  const inQ: number[] = [];
  for (let j = 0; j + 1 < q.length; j++) if (meets(q[j] as Point, q[j + 1] as Point, boxP)) inQ.push(j);
  if (inQ.length === 0) return out;
  for (let i = 0; i + 1 < p.length; i++) {
    const a = p[i] as Point;
    const b = p[i + 1] as Point;
    if (!meets(a, b, boxQ)) continue;
    const ax = a[0];
    const ay = a[1];
    const bx = b[0];
    const by = b[1];
    const left = Math.min(ax, bx);
    const right = Math.max(ax, bx);
    const top = Math.min(ay, by);
    const bottom = Math.max(ay, by);
    for (const j of inQ) {
      const c = q[j] as Point;
      const d = q[j + 1] as Point;
      const cx = c[0];
      const cy = c[1];
      const dx = d[0];
      const dy = d[1];
      if (Math.max(cx, dx) <= left || Math.min(cx, dx) >= right) continue;
      if (Math.max(cy, dy) <= top || Math.min(cy, dy) >= bottom) continue;
      // Boxes that overlap: one run horizontal, the other vertical, crossing inside both.
      if (ay === by && cx === dx && ax !== bx && cy !== dy) {
        if (inside(cx, ax, bx) && inside(ay, cy, dy)) out.push([i, j, [cx, ay]]);
      } else if (ax === bx && cy === dy && ay !== by && cx !== dx) {
        if (inside(ax, cx, dx) && inside(cy, ay, by)) out.push([i, j, [ax, cy]]);
      }
    }
  }
  return out;
}

/** Whether `value` lies between `s` and `t`, INSIDE or more from both. */
function inside(value: number, s: number, t: number): boolean {
  return s < t ? value > s + INSIDE && value < t - INSIDE : value > t + INSIDE && value < s - INSIDE;
}

function within(point: Point, area: Rect): boolean {
  return point[0] > area.left && point[0] < area.right && point[1] > area.top && point[1] < area.bottom;
}

function distance(s: Point, t: Point): number {
  return Math.abs(s[0] - t[0]) + Math.abs(s[1] - t[1]);
}

/** Crossings of a line with itself (runs that are not neighbours crossing inside both). */
function selfCrossings(points: readonly Point[]): number {
  const box = { left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity };
  return crossings(points, points, box, box).length / 2;
}

/** Whether a corner of either line lies on (within half a px of) a run of the other. */
function touching(p: readonly Point[], q: readonly Point[]): boolean {
  const onRun = (point: Point, line: readonly Point[]) => {
    for (let k = 1; k < line.length; k++) {
      const s = line[k - 1] as Point;
      const t = line[k] as Point;
      if (
        point[0] >= Math.min(s[0], t[0]) - INSIDE &&
        point[0] <= Math.max(s[0], t[0]) + INSIDE &&
        point[1] >= Math.min(s[1], t[1]) - INSIDE &&
        point[1] <= Math.max(s[1], t[1]) + INSIDE
      )
        return true;
    }
    return false;
  };
  return p.some((point) => onRun(point, q)) || q.some((point) => onRun(point, p));
}

/**
 * Pairs of the lines (route indices, the smaller first) that cross each other at least twice, of those
 * where one line is in `changed` (every line when it is null). Vertical runs go in square cells of CELL px
 * (each in every cell of its column that it spans); a horizontal run looks in the cells of its row along
 * its length, so each crossing is counted once.
 */
function pairsCrossingTwice(
  routes: readonly Route[],
  lines: readonly number[],
  changed: ReadonlySet<number> | null,
): [number, number][] {
  const vertical: Entry[] = [];
  const horizontal: Entry[] = [];
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const route of lines) {
    const points = (routes[route] as { points: Point[] }).points;
    for (let at = 1; at < points.length; at++) {
      const span = spanOf(points[at - 1] as Point, points[at] as Point);
      if (span === null) continue;
      (span.vertical ? vertical : horizontal).push(entryOf(span, route));
    }
    for (const [x, y] of points) {
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  const columns = Math.floor((right - left) / CELL) + 1;
  const rows = Math.floor((bottom - top) / CELL) + 1;
  const cells: Entry[][] = [];
  for (const v of vertical) {
    const column = Math.floor((v.line - left) / CELL);
    for (let row = Math.floor((v.from - top) / CELL); row <= Math.floor((v.to - top) / CELL); row++) {
      const cell = cells[row * columns + column];
      if (cell === undefined) cells[row * columns + column] = [v];
      else cell.push(v);
    }
  }
  const counts = new Map<number, number>();
  for (const h of horizontal) {
    const row = Math.floor((h.line - top) / CELL);
    if (row < 0 || row >= rows) continue;
    for (
      let column = Math.floor((h.from - left) / CELL);
      column <= Math.floor((h.to - left) / CELL);
      column++
    ) {
      for (const v of cells[row * columns + column] ?? []) {
        if (v.route === h.route || (changed !== null && !changed.has(v.route) && !changed.has(h.route)))
          continue;
        if (v.line <= h.from + INSIDE || v.line >= h.to - INSIDE) continue;
        if (h.line <= v.from + INSIDE || h.line >= v.to - INSIDE) continue;
        const key = Math.min(v.route, h.route) * PAIR_KEY + Math.max(v.route, h.route);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  const out: [number, number][] = [];
  for (const [key, count] of counts) if (count >= 2) out.push([Math.floor(key / PAIR_KEY), key % PAIR_KEY]);
  return out.sort((s, t) => s[0] - t[0] || s[1] - t[1]);
}

/** Size of pairsCrossingTwice's cells, px. */
const CELL = 256;
