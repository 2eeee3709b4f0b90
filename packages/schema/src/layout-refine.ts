// Local search after a whole-schema layout: a table trades places with a nearby table whenever that makes
// their lines cross fewer others and run shorter. Lines are measured roughly as the router draws them: from
// the row of the relationship's column, leaving the side of the table that faces the partner (a hub's
// hundred lines all end on its key's row), as straight segments. Only places the layout already made are
// traded, and a table may not land beside one of many lines closer than that table's fan of lines needs
// (the router spreads those lines a few px apart beside it): moving tables into free spots nearer their
// partners crosses fewer lines too, but packs the corridors the router needs, which then share runs. The
// search is deterministic (fixed order, no random choices) and bounded by a number of rounds.
// From SPREAD_FROM tables the force layout comes spread out (layout-force.ts); after the trades it is
// pulled back towards its centre (compactLayout), so lines keep their length and the router keeps room.
import type { ClusterLink, ClusterTable } from './layout-clusters';
import { SPREAD_FROM } from './layout-force';
import { LAYOUT_GAP } from './layout-placer';

/** Rounds over all tables; a round that gains less than MIN_GAIN of the cost ends the search. */
const ROUNDS = 6;
const MIN_GAIN = 0.01;
/** Each table tries trading places with this many of its nearest tables. */
const SWAP_CANDIDATES = 10;
/** A line as long as the median table is wide costs as much as one crossing. */
const LENGTH_PER_CROSSING = 1;
/** Tables with more lines than this stay where they are (the force layout put them among their partners). */
const STILL_DEGREE = 24;
/** Room beside a table for each of its lines: a table of 30 lines keeps 120 px free at its sides. */
const FAN_ROOM = 4;
/** Cells of the index of lines, in median table widths. */
const CELL_WIDTHS = 1.5;
/** A spread layout (layout-force.ts, SPREAD_FROM) is pulled this far back towards its centre. */
const COMPACT = 0.88;

/** A relationship end's row: its centre below the table's top (px); absent, the table's middle. */
export interface PortLink extends ClusterLink {
  sourceRow?: number;
  targetRow?: number;
}

type Corner = { left: number; top: number };

/** Better top-left corners (by table name) for the tables laid out at `at`; every table keeps its gap. */
export function refineLayout(
  tables: readonly ClusterTable[],
  links: readonly PortLink[],
  at: ReadonlyMap<string, Corner>,
): Map<string, Corner> {
  const graph = new LineGraph(tables, links, at);
  let total = graph.totalCost();
  for (let round = 0; round < ROUNDS && total > 0; round++) {
    const before = total;
    for (let table = 0; table < tables.length; table++) {
      if (graph.linesOf[table]!.length === 0 || graph.linesOf[table]!.length > STILL_DEGREE) continue;
      total -= graph.bestSwap(table);
    }
    if (before - total < MIN_GAIN * before) break;
  }
  const corners = graph.corners(tables);
  return tables.length >= SPREAD_FROM ? compactLayout(tables, corners, COMPACT) : corners;
}

/**
 * The layout pulled towards its centre by `factor` (0–1), first along x, then along y, as far as the gaps
 * allow: tables are taken in the order of their left (top) edges, and each goes to its pulled-in place or
 * just past every table taken before it that it faces across the other axis, whichever is later. Every
 * table keeps its order along the axis against the tables it faces, and every pair of tables stays
 * LAYOUT_GAP apart along one axis or the other. Deterministic.
 */
export function compactLayout(
  tables: readonly ClusterTable[],
  at: ReadonlyMap<string, Corner>,
  factor: number,
): Map<string, Corner> {
  const boxes = tables.map((table) => ({
    left: at.get(table.name)?.left ?? 0,
    top: at.get(table.name)?.top ?? 0,
    width: table.width,
    height: table.height,
  }));
  type Box = (typeof boxes)[number];
  for (const alongX of [true, false]) {
    const start = (box: Box) => (alongX ? box.left : box.top);
    const size = (box: Box) => (alongX ? box.width : box.height);
    // Facing: their extents across the axis come closer than the gap.
    const facing = (a: Box, b: Box) =>
      alongX
        ? a.top < b.top + b.height + LAYOUT_GAP && b.top < a.top + a.height + LAYOUT_GAP
        : a.left < b.left + b.width + LAYOUT_GAP && b.left < a.left + a.width + LAYOUT_GAP;
    let centre = 0;
    for (const box of boxes) centre += (start(box) + size(box) / 2) / boxes.length;
    // A stable sort: ties keep the tables' order.
    const order = [...boxes].sort((a, b) => start(a) - start(b));
    for (let i = 0; i < order.length; i++) {
      const box = order[i]!;
      let place = centre + (start(box) + size(box) / 2 - centre) * factor - size(box) / 2;
      for (let j = 0; j < i; j++) {
        const before = order[j]!;
        if (facing(box, before)) place = Math.max(place, start(before) + size(before) + LAYOUT_GAP);
      }
      if (alongX) box.left = Math.ceil(place);
      else box.top = Math.ceil(place);
    }
  }
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  for (const box of boxes) {
    left = Math.min(left, box.left);
    top = Math.min(top, box.top);
  }
  return new Map(
    tables.map((table, i) => [
      table.name,
      { left: boxes[i]!.left - left + LAYOUT_GAP, top: boxes[i]!.top - top + LAYOUT_GAP },
    ]),
  );
}

/** Crossings of the lines as the search measures them (port to port, straight). */
export function portCrossings(
  tables: readonly ClusterTable[],
  links: readonly PortLink[],
  at: ReadonlyMap<string, Corner>,
): number {
  const graph = new LineGraph(tables, links, at);
  let count = 0;
  for (let line = 0; line < graph.lineCount; line++)
    for (let other = line + 1; other < graph.lineCount; other++) if (graph.cross(line, other)) count++;
  return count;
}

class LineGraph {
  readonly width: Float64Array;
  readonly height: Float64Array;
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Per line: its two tables and the offsets of its ends' rows from each table's centre. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly fromRow: Float64Array;
  readonly toRow: Float64Array;
  readonly linesOf: number[][];
  readonly lineCount: number;
  /** Per line, its two ends as they are now (x1, y1, x2, y2), kept up to date as tables move. */
  private readonly ends: Float64Array;
  private readonly lengthUnit: number;
  private readonly index: LineIndex;
  /** Marks for one cost evaluation: own lines, and lines already visited. */
  private readonly own: Uint8Array;
  private readonly seen: Uint32Array;
  private visit = 0;
  /** The lines of the two tables a trade moves (reused). */
  private readonly pair: number[] = [];
  /** Per line, how many other lines it crosses now. */
  private readonly crossingsOf: Int32Array;

  constructor(tables: readonly ClusterTable[], links: readonly PortLink[], at: ReadonlyMap<string, Corner>) {
    const byName = new Map(tables.map((table, i) => [table.name, i]));
    this.width = Float64Array.from(tables, (table) => table.width);
    this.height = Float64Array.from(tables, (table) => table.height);
    this.x = Float64Array.from(tables, (table) => (at.get(table.name)?.left ?? 0) + table.width / 2);
    this.y = Float64Array.from(tables, (table) => (at.get(table.name)?.top ?? 0) + table.height / 2);
    const kept = links.filter((link) => {
      const a = byName.get(link.source);
      const b = byName.get(link.target);
      return a !== undefined && b !== undefined && a !== b;
    });
    this.lineCount = kept.length;
    this.from = Int32Array.from(kept, (link) => byName.get(link.source)!);
    this.to = Int32Array.from(kept, (link) => byName.get(link.target)!);
    this.fromRow = Float64Array.from(kept, (link, i) =>
      rowOffset(link.sourceRow, this.height[this.from[i]!]!),
    );
    this.toRow = Float64Array.from(kept, (link, i) => rowOffset(link.targetRow, this.height[this.to[i]!]!));
    this.linesOf = tables.map(() => []);
    for (let line = 0; line < kept.length; line++) {
      this.linesOf[this.from[line]!]!.push(line);
      this.linesOf[this.to[line]!]!.push(line);
    }
    const widths = [...this.width].sort((a, b) => a - b);
    const median = widths[Math.floor(widths.length / 2)] ?? 1;
    this.lengthUnit = median * LENGTH_PER_CROSSING;
    this.ends = new Float64Array(4 * kept.length);
    for (let line = 0; line < kept.length; line++) this.updateEnds(line);
    this.index = new LineIndex(this.ends, median * CELL_WIDTHS);
    for (let line = 0; line < kept.length; line++) this.index.add(line);
    this.own = new Uint8Array(kept.length);
    this.seen = new Uint32Array(kept.length);
    this.crossingsOf = new Int32Array(kept.length);
    for (let line = 0; line < kept.length; line++)
      for (let other = line + 1; other < kept.length; other++)
        if (this.cross(line, other)) {
          this.crossingsOf[line]!++;
          this.crossingsOf[other]!++;
        }
  }

  corners(tables: readonly ClusterTable[]): Map<string, Corner> {
    return new Map(
      tables.map((table, i) => [
        table.name,
        { left: Math.round(this.x[i]! - table.width / 2), top: Math.round(this.y[i]! - table.height / 2) },
      ]),
    );
  }

  /** The line's two ends: on the side of each table that faces the other, at the column's row. */
  private updateEnds(line: number): void {
    const a = this.from[line]!;
    const b = this.to[line]!;
    const towards = this.x[b]! >= this.x[a]! ? 1 : -1;
    const at = 4 * line;
    this.ends[at] = this.x[a]! + (towards * this.width[a]!) / 2;
    this.ends[at + 1] = this.y[a]! + this.fromRow[line]!;
    this.ends[at + 2] = this.x[b]! - (towards * this.width[b]!) / 2;
    this.ends[at + 3] = this.y[b]! + this.toRow[line]!;
  }

  cross(line: number, other: number): boolean {
    const a = this.from[line]!;
    const b = this.to[line]!;
    const c = this.from[other]!;
    const d = this.to[other]!;
    // Lines that share a table meet there: not a crossing.
    if (a === c || a === d || b === c || b === d) return false;
    const e = this.ends;
    const p = 4 * line;
    const q = 4 * other;
    const ax = e[p]!;
    const ay = e[p + 1]!;
    const bx = e[p + 2]!;
    const by = e[p + 3]!;
    const cx = e[q]!;
    const cy = e[q + 1]!;
    const dx = e[q + 2]!;
    const dy = e[q + 3]!;
    if (Math.max(ax, bx) < Math.min(cx, dx) || Math.max(cx, dx) < Math.min(ax, bx)) return false;
    if (Math.max(ay, by) < Math.min(cy, dy) || Math.max(cy, dy) < Math.min(ay, by)) return false;
    const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
    const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
    if (d1 * d2 >= 0) return false;
    const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
    return d3 * d4 < 0;
  }

  private length(line: number): number {
    const at = 4 * line;
    return Math.abs(this.ends[at + 2]! - this.ends[at]!) + Math.abs(this.ends[at + 3]! - this.ends[at + 1]!);
  }

  totalCost(): number {
    let cost = 0;
    for (let line = 0; line < this.lineCount; line++) {
      cost += this.length(line) / this.lengthUnit;
      for (let other = line + 1; other < this.lineCount; other++) if (this.cross(line, other)) cost++;
    }
    return cost;
  }

  /** Puts the lines of tables `a` and `b` (a line joining the two once) in `this.pair`, marked `own`. */
  private markOwn(a: number, b: number): void {
    const lines = this.pair;
    lines.length = 0;
    for (const line of this.linesOf[a]!) {
      this.own[line] = 1;
      lines.push(line);
    }
    for (const line of this.linesOf[b]!) {
      if (this.own[line] === 1) continue;
      this.own[line] = 1;
      lines.push(line);
    }
  }

  /**
   * The own lines' cost as they stand, but for their crossings with lines that are not their own: their
   * length, and the crossings among them (only a line of one table and one of the other can cross: lines
   * that share a table meet there). `among` returns those crossings alone.
   */
  private ownCost(among = false): number {
    const lines = this.pair;
    let length = 0;
    let crossings = 0;
    for (let at = 0; at < lines.length; at++) {
      const line = lines[at]!;
      length += this.length(line) / this.lengthUnit;
      for (let next = at + 1; next < lines.length; next++) if (this.cross(line, lines[next]!)) crossings++;
    }
    return among ? crossings : length + crossings;
  }

  private unmarkOwn(): void {
    for (const line of this.pair) this.own[line] = 0;
  }

  /**
   * Crossings of `line` with the lines in the index near it that are not marked `own`, each counted once:
   * `cross` with the line's own values read once (the same arithmetic, so the same answers).
   */
  private crossingsNear(line: number): number {
    const visit = ++this.visit;
    const e = this.ends;
    const p = 4 * line;
    const a = this.from[line]!;
    const b = this.to[line]!;
    const ax = e[p]!;
    const ay = e[p + 1]!;
    const bx = e[p + 2]!;
    const by = e[p + 3]!;
    const left = Math.min(ax, bx);
    const right = Math.max(ax, bx);
    const top = Math.min(ay, by);
    const bottom = Math.max(ay, by);
    let count = 0;
    for (const cell of this.index.cellsNear(line))
      for (const other of cell) {
        if (this.own[other] === 1 || this.seen[other] === visit) continue;
        this.seen[other] = visit;
        const c = this.from[other]!;
        const d = this.to[other]!;
        if (a === c || a === d || b === c || b === d) continue;
        const q = 4 * other;
        const cx = e[q]!;
        const cy = e[q + 1]!;
        const dx = e[q + 2]!;
        const dy = e[q + 3]!;
        if (Math.max(cx, dx) < left || Math.min(cx, dx) > right) continue;
        if (Math.max(cy, dy) < top || Math.min(cy, dy) > bottom) continue;
        const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
        const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
        if (d1 * d2 >= 0) continue;
        const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
        if (d3 * d4 < 0) count++;
      }
    return count;
  }

  /** Adds `step` to the crossing count of `line` and of every line not marked `own` that crosses it. */
  private countCrossings(line: number, step: number): void {
    const visit = ++this.visit;
    for (const cell of this.index.cellsNear(line))
      for (const other of cell) {
        if (this.own[other] === 1 || this.seen[other] === visit) continue;
        this.seen[other] = visit;
        if (!this.cross(line, other)) continue;
        this.crossingsOf[other]! += step;
        this.crossingsOf[line]! += step;
      }
  }

  /**
   * Trades places (centres) with the nearby table that lowers the cost most; returns the gain. The cost of
   * the two tables' lines where they stand comes from the kept crossing counts; where they would stand, it
   * is measured line by line, and the measuring stops once the trade cannot gain more than the best so far.
   */
  bestSwap(table: number): number {
    let best = 0;
    let partner = -1;
    for (const other of this.nearest(table, SWAP_CANDIDATES)) {
      if (this.linesOf[other]!.length > STILL_DEGREE) continue;
      const [tx, ty, ox, oy] = [this.x[table]!, this.y[table]!, this.x[other]!, this.y[other]!];
      if (!this.fits(table, ox, oy, other) || !this.fits(other, tx, ty, table)) continue;
      // Crossings with other lines: each line's count, less the crossings among the own lines (counted on
      // both of their lines).
      this.markOwn(table, other);
      let before = -this.ownCost(true);
      for (const line of this.pair) before += this.length(line) / this.lengthUnit + this.crossingsOf[line]!;
      this.moveTo(table, ox, oy);
      this.moveTo(other, tx, ty);
      let after = this.ownCost();
      const limit = before - best - 1e-9;
      for (let at = 0; at < this.pair.length && after < limit; at++)
        after += this.crossingsNear(this.pair[at]!);
      this.unmarkOwn();
      this.moveTo(table, tx, ty);
      this.moveTo(other, ox, oy);
      const gain = before - after;
      if (gain > best + 1e-9) {
        best = gain;
        partner = other;
      }
    }
    if (partner >= 0) this.swap(table, partner);
    return best;
  }

  /** Trades the two tables' places, keeping the index and every line's crossing count up to date. */
  private swap(table: number, partner: number): void {
    this.markOwn(table, partner);
    const moved = [...this.pair];
    for (const line of moved) this.countCrossings(line, -1);
    for (const line of moved) this.index.remove(line);
    const [tx, ty] = [this.x[table]!, this.y[table]!];
    this.moveTo(table, this.x[partner]!, this.y[partner]!);
    this.moveTo(partner, tx, ty);
    for (const line of moved) this.index.add(line);
    for (const line of moved) this.crossingsOf[line] = 0;
    for (const line of moved) this.countCrossings(line, 1);
    for (let at = 0; at < moved.length; at++)
      for (let next = at + 1; next < moved.length; next++)
        if (this.cross(moved[at]!, moved[next]!)) {
          this.crossingsOf[moved[at]!]!++;
          this.crossingsOf[moved[next]!]!++;
        }
    this.unmarkOwn();
  }

  private moveTo(table: number, x: number, y: number): void {
    this.x[table] = x;
    this.y[table] = y;
    for (const line of this.linesOf[table]!) this.updateEnds(line);
  }

  /**
   * True when `table` centred at (x, y) keeps the layout's gap to every table but `besides`, and beside a
   * table of many lines the room their fan takes.
   */
  private fits(table: number, x: number, y: number, besides: number): boolean {
    const halfWidth = this.width[table]! / 2;
    const halfHeight = this.height[table]! / 2 + LAYOUT_GAP;
    for (let other = 0; other < this.x.length; other++) {
      if (other === table || other === besides) continue;
      const beside = Math.max(LAYOUT_GAP, FAN_ROOM * this.linesOf[other]!.length);
      if (
        Math.abs(this.x[other]! - x) < halfWidth + this.width[other]! / 2 + beside &&
        Math.abs(this.y[other]! - y) < halfHeight + this.height[other]! / 2
      )
        return false;
    }
    return true;
  }

  /** The `count` tables whose centres are nearest the table's (ties by index: deterministic). */
  private nearest(table: number, count: number): number[] {
    // The nearest so far, in order (distance, then index): each table is put in its place or passed over.
    const found: number[] = [];
    const distance: number[] = [];
    for (let other = 0; other < this.x.length; other++) {
      if (other === table) continue;
      const d = Math.hypot(this.x[other]! - this.x[table]!, this.y[other]! - this.y[table]!);
      if (found.length === count && d >= distance[count - 1]!) continue;
      let at = found.length === count ? count - 1 : found.length;
      // Tables come in index order, so an equal distance stays after the ones found before it.
      while (at > 0 && distance[at - 1]! > d) {
        distance[at] = distance[at - 1]!;
        found[at] = found[at - 1]!;
        at--;
      }
      distance[at] = d;
      found[at] = other;
    }
    return found;
  }
}

function rowOffset(row: number | undefined, height: number): number {
  return row === undefined ? 0 : Math.min(height / 2, Math.max(-height / 2, row - height / 2));
}

/**
 * Lines by the square cells they pass through, to find the lines a line may cross: two lines that cross
 * both pass through the cell their crossing lies in. (Indexing by the cells of each line's bounding box
 * finds the same crossings, but a long slanted line's box covers many cells the line never enters.)
 */
class LineIndex {
  private readonly cells = new Map<number, number[]>();
  /** Per line, the cells it was added to. */
  private readonly added = new Map<number, number[]>();
  /** cellsNear's answer, and what fills it (both reused: the search asks for millions of cells). */
  private readonly found: number[][] = [];
  private readonly collect = (key: number) => {
    const cell = this.cells.get(key);
    if (cell !== undefined) this.found.push(cell);
  };

  constructor(
    private readonly ends: Float64Array,
    private readonly size: number,
  ) {}

  add(line: number): void {
    const keys: number[] = [];
    this.forCellsOf(line, (key) => {
      keys.push(key);
      const cell = this.cells.get(key);
      if (cell === undefined) this.cells.set(key, [line]);
      else cell.push(line);
    });
    this.added.set(line, keys);
  }

  remove(line: number): void {
    const keys = this.added.get(line);
    if (keys === undefined) return;
    this.added.delete(line);
    for (const key of keys) {
      const cell = this.cells.get(key)!;
      cell.splice(cell.indexOf(line), 1);
    }
  }

  /**
   * The cells the line (as it is now) passes through: the lines in them (a line may be in several). The
   * list is reused by the next call.
   */
  cellsNear(line: number): number[][] {
    const found = this.found;
    found.length = 0;
    this.forCellsOf(line, this.collect);
    return found;
  }

  /**
   * Every cell the line passes through, column by column: in each column the rows between the line's
   * heights at the column's two edges (or at its ends). SLACK, a millionth of a cell on every side, keeps
   * a line that runs along a cell's edge, or crosses another exactly there, in the cells on both sides.
   */
  private forCellsOf(line: number, each: (key: number) => void): void {
    const at = 4 * line;
    let x1 = this.ends[at]! / this.size;
    let y1 = this.ends[at + 1]! / this.size;
    let x2 = this.ends[at + 2]! / this.size;
    let y2 = this.ends[at + 3]! / this.size;
    if (x2 < x1) [x1, y1, x2, y2] = [x2, y2, x1, y1];
    const slope = x2 - x1 > SLACK ? (y2 - y1) / (x2 - x1) : Number.NaN;
    const lastColumn = Math.floor(x2 + SLACK);
    for (let column = Math.floor(x1 - SLACK); column <= lastColumn; column++) {
      let low = Math.min(y1, y2);
      let high = Math.max(y1, y2);
      if (!Number.isNaN(slope)) {
        const ya = y1 + (Math.max(x1, column) - x1) * slope;
        const yb = y1 + (Math.min(x2, column + 1) - x1) * slope;
        low = Math.max(low, Math.min(ya, yb));
        high = Math.min(high, Math.max(ya, yb));
      }
      const lastRow = Math.floor(high + SLACK);
      for (let row = Math.floor(low - SLACK); row <= lastRow; row++) each(column * 100_003 + row);
    }
  }
}

const SLACK = 1e-6;
