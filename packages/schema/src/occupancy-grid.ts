// A spatial hash of the rectangles already on the canvas, so the layout can ask "is this spot free?" in
// time proportional to the spot's size, not to the number of tables in the diagram.
//
// Two parts. The diagram as it is before the layout (a thousand tables and their groups) is added once and
// then sealed into a flat index: cells over the diagram's extent, each listing its occupants by number, in
// two typed arrays (counting sort). Building that takes two passes and no object per cell or per
// occupant; the Map of cell arrays it replaces was the layout's largest allocation. The few records placed
// afterwards go into a Map of cells, as they come.
import type { Frame } from './model';

const CELL_SIZE = 256;
/** Cell coordinates are packed into one number; the offset keeps negative canvas coordinates positive. */
const CELL_OFFSET = 1 << 20;
const ROW_STRIDE = 1 << 21;
/** The sealed index has at most this many cells per occupant (plus a floor); wider spreads get bigger cells. */
const CELLS_PER_OCCUPANT = 4;
const MIN_CELLS = 4096;

interface Occupant {
  frame: Frame;
  owner: string;
}

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Occupants by cell in two typed arrays: cell c lists `members[starts[c]]` to `members[starts[c + 1] - 1]`. */
interface SealedCells {
  cellSize: number;
  firstColumn: number;
  firstRow: number;
  columns: number;
  rows: number;
  starts: Int32Array;
  members: Int32Array;
  occupants: Occupant[];
}

export class OccupancyGrid {
  /** Added before `seal`, indexed all at once when sealed; null once sealed. */
  private pending: Occupant[] | null = [];
  private sealed: SealedCells | null = null;
  private readonly cells = new Map<number, Occupant[]>();
  private hasBox = false;
  private left = 0;
  private top = 0;
  private right = 0;
  private bottom = 0;

  /** The smallest box around everything added, or null when the canvas is empty. */
  get bounds(): Bounds | null {
    return this.hasBox ? { left: this.left, top: this.top, right: this.right, bottom: this.bottom } : null;
  }

  add(frame: Frame, owner: string): void {
    const occupant = { frame, owner };
    if (this.pending !== null) this.pending.push(occupant);
    else this.addToCells(occupant);
    const right = frame.left + frame.width;
    const bottom = frame.top + frame.height;
    if (!this.hasBox) {
      this.hasBox = true;
      this.left = frame.left;
      this.top = frame.top;
      this.right = right;
      this.bottom = bottom;
    } else {
      this.left = Math.min(this.left, frame.left);
      this.top = Math.min(this.top, frame.top);
      this.right = Math.max(this.right, right);
      this.bottom = Math.max(this.bottom, bottom);
    }
  }

  /**
   * Indexes everything added so far in the flat sealed index; later records go into the Map of cells. A
   * canvas with coordinates that are not finite numbers stays in the Map of cells (as it always did).
   */
  seal(): void {
    const occupants = this.pending;
    if (occupants === null) return;
    this.pending = null;
    this.sealed = occupants.length > 0 ? sealCells(occupants, this.bounds!) : null;
    if (this.sealed === null) for (const occupant of occupants) this.addToCells(occupant);
  }

  /** True when `frame`, grown by `margin` on every side, touches an occupant not owned by `ignore`. */
  overlaps(frame: Frame, margin: number, ignore: ReadonlySet<string>): boolean {
    this.seal();
    return (
      (this.sealed !== null && overlapsSealed(this.sealed, frame, margin, ignore)) ||
      this.overlapsCells(frame, margin, ignore)
    );
  }

  private addToCells(occupant: Occupant): void {
    const { frame } = occupant;
    const firstColumn = Math.floor(frame.left / CELL_SIZE);
    const lastColumn = Math.floor((frame.left + frame.width) / CELL_SIZE);
    const firstRow = Math.floor(frame.top / CELL_SIZE);
    const lastRow = Math.floor((frame.top + frame.height) / CELL_SIZE);
    for (let column = firstColumn; column <= lastColumn; column++) {
      for (let row = firstRow; row <= lastRow; row++) {
        const key = (column + CELL_OFFSET) * ROW_STRIDE + row + CELL_OFFSET;
        const cell = this.cells.get(key);
        if (cell === undefined) this.cells.set(key, [occupant]);
        else cell.push(occupant);
      }
    }
  }

  private overlapsCells(frame: Frame, margin: number, ignore: ReadonlySet<string>): boolean {
    if (this.cells.size === 0) return false;
    const firstColumn = Math.floor((frame.left - margin) / CELL_SIZE);
    const lastColumn = Math.floor((frame.left + frame.width + margin) / CELL_SIZE);
    const firstRow = Math.floor((frame.top - margin) / CELL_SIZE);
    const lastRow = Math.floor((frame.top + frame.height + margin) / CELL_SIZE);
    for (let column = firstColumn; column <= lastColumn; column++) {
      for (let row = firstRow; row <= lastRow; row++) {
        const cell = this.cells.get((column + CELL_OFFSET) * ROW_STRIDE + row + CELL_OFFSET);
        if (cell === undefined) continue;
        for (const occupant of cell)
          if (!ignore.has(occupant.owner) && intersects(frame, occupant.frame, margin)) return true;
      }
    }
    return false;
  }
}

/** The sealed index of `occupants`, or null when their extent is not finite. */
function sealCells(occupants: Occupant[], bounds: Bounds): SealedCells | null {
  const spanX = bounds.right - bounds.left;
  const spanY = bounds.bottom - bounds.top;
  if (!Number.isFinite(spanX) || !Number.isFinite(spanY)) return null;
  const maxCells = Math.max(MIN_CELLS, CELLS_PER_OCCUPANT * occupants.length);
  let cellSize = CELL_SIZE;
  let firstColumn = 0;
  let firstRow = 0;
  let columns = 0;
  let rows = 0;
  for (;;) {
    firstColumn = Math.floor(bounds.left / cellSize);
    firstRow = Math.floor(bounds.top / cellSize);
    columns = Math.floor(bounds.right / cellSize) - firstColumn + 1;
    rows = Math.floor(bounds.bottom / cellSize) - firstRow + 1;
    if (columns * rows <= maxCells) break;
    cellSize *= 2;
  }
  const starts = new Int32Array(columns * rows + 1);
  // Pass 1 counts each cell's occupants (one cell on, so the running sum gives each cell's start); pass 2
  // writes each occupant's number into its cells.
  let members = new Int32Array(0);
  let next = starts;
  for (const pass of [1, 2]) {
    for (let index = 0; index < occupants.length; index++) {
      const { left, top, width, height } = occupants[index]!.frame;
      const lastColumn = Math.floor((left + width) / cellSize) - firstColumn;
      const lastRow = Math.floor((top + height) / cellSize) - firstRow;
      for (let column = Math.floor(left / cellSize) - firstColumn; column <= lastColumn; column++)
        for (let row = Math.floor(top / cellSize) - firstRow; row <= lastRow; row++)
          if (pass === 1) starts[column * rows + row + 1]!++;
          else members[next[column * rows + row]!++] = index;
    }
    if (pass === 1) {
      for (let cell = 1; cell < starts.length; cell++) starts[cell]! += starts[cell - 1]!;
      members = new Int32Array(starts[starts.length - 1]!);
      next = starts.slice(0, -1);
    }
  }
  return { cellSize, firstColumn, firstRow, columns, rows, starts, members, occupants };
}

function overlapsSealed(
  sealed: SealedCells,
  frame: Frame,
  margin: number,
  ignore: ReadonlySet<string>,
): boolean {
  const { cellSize, rows, starts, members, occupants } = sealed;
  const firstColumn = Math.max(0, Math.floor((frame.left - margin) / cellSize) - sealed.firstColumn);
  const lastColumn = Math.min(
    sealed.columns - 1,
    Math.floor((frame.left + frame.width + margin) / cellSize) - sealed.firstColumn,
  );
  const firstRow = Math.max(0, Math.floor((frame.top - margin) / cellSize) - sealed.firstRow);
  const lastRow = Math.min(
    rows - 1,
    Math.floor((frame.top + frame.height + margin) / cellSize) - sealed.firstRow,
  );
  for (let column = firstColumn; column <= lastColumn; column++) {
    for (let row = firstRow; row <= lastRow; row++) {
      const cell = column * rows + row;
      for (let member = starts[cell]!; member < starts[cell + 1]!; member++) {
        const occupant = occupants[members[member]!]!;
        if (!ignore.has(occupant.owner) && intersects(frame, occupant.frame, margin)) return true;
      }
    }
  }
  return false;
}

function intersects(a: Frame, b: Frame, margin: number): boolean {
  return (
    a.left - margin < b.left + b.width &&
    b.left < a.left + a.width + margin &&
    a.top - margin < b.top + b.height &&
    b.top < a.top + a.height + margin
  );
}
