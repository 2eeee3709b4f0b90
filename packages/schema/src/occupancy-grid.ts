// A spatial hash of the rectangles already on the canvas, so the layout can ask "is this spot free?" in
// time proportional to the spot's size, not to the number of tables in the diagram.
import type { Frame } from './model';

const CELL_SIZE = 256;
/** Cell coordinates are packed into one number; the offset keeps negative canvas coordinates positive. */
const CELL_OFFSET = 1 << 20;
const ROW_STRIDE = 1 << 21;

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

export class OccupancyGrid {
  private readonly cells = new Map<number, Occupant[]>();
  private box: Bounds | null = null;

  /** The smallest box around everything added, or null when the canvas is empty. */
  get bounds(): Bounds | null {
    return this.box;
  }

  add(frame: Frame, owner: string): void {
    const occupant = { frame, owner };
    this.forEachCell(frame, 0, (key) => {
      const cell = this.cells.get(key);
      if (cell === undefined) this.cells.set(key, [occupant]);
      else cell.push(occupant);
    });
    const right = frame.left + frame.width;
    const bottom = frame.top + frame.height;
    this.box =
      this.box === null
        ? { left: frame.left, top: frame.top, right, bottom }
        : {
            left: Math.min(this.box.left, frame.left),
            top: Math.min(this.box.top, frame.top),
            right: Math.max(this.box.right, right),
            bottom: Math.max(this.box.bottom, bottom),
          };
  }

  /** True when `frame`, grown by `margin` on every side, touches an occupant not owned by `ignore`. */
  overlaps(frame: Frame, margin: number, ignore: ReadonlySet<string>): boolean {
    let hit = false;
    this.forEachCell(frame, margin, (key) => {
      if (hit) return;
      for (const occupant of this.cells.get(key) ?? []) {
        if (!ignore.has(occupant.owner) && intersects(frame, occupant.frame, margin)) {
          hit = true;
          return;
        }
      }
    });
    return hit;
  }

  private forEachCell(frame: Frame, margin: number, visit: (key: number) => void): void {
    const firstColumn = Math.floor((frame.left - margin) / CELL_SIZE);
    const lastColumn = Math.floor((frame.left + frame.width + margin) / CELL_SIZE);
    const firstRow = Math.floor((frame.top - margin) / CELL_SIZE);
    const lastRow = Math.floor((frame.top + frame.height + margin) / CELL_SIZE);
    for (let column = firstColumn; column <= lastColumn; column++) {
      for (let row = firstRow; row <= lastRow; row++)
        visit((column + CELL_OFFSET) * ROW_STRIDE + row + CELL_OFFSET);
    }
  }
}

function intersects(a: Frame, b: Frame, margin: number): boolean {
  return (
    a.left - margin < b.left + b.width &&
    b.left < a.left + a.width + margin &&
    a.top - margin < b.top + b.height &&
    b.top < a.top + a.height + margin
  );
}
