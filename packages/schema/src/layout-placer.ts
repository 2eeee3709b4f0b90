// Finds free spots for new records on a canvas that already holds others. A unit (one or more frames that
// move together) takes the free shift nearest to the one it wants, searched ring by ring; when the area
// around it is full, it goes just outside the diagram as it was before the layout started, level with
// where it wanted to be; as a last resort, below everything.
import type { Frame } from './model';
import { type Bounds, OccupancyGrid } from './occupancy-grid';
import { boundingFrame, type Shift } from './layout-units';

/** Space kept between a placed record and everything else. */
export const LAYOUT_GAP = 48;
/** Rings of candidate shifts this far apart, up to this many rings out (about 200 spots per search). */
const SEARCH_STEP = 96;
const SEARCH_RINGS = 7;
/** A unit of more tables than this is not squeezed in among placed ones: it goes outside the diagram. */
const LARGE_UNIT = 12;
const NO_OWNERS: ReadonlySet<string> = new Set();

export class Placer {
  readonly grid = new OccupancyGrid();
  private initial: Bounds | null = null;

  /** Marks an existing record as an obstacle. */
  occupy(frame: Frame, owner: string): void {
    this.grid.add(frame, owner);
  }

  /** Freezes the diagram's extent as it is before anything new is placed, and indexes what is on it. */
  freeze(): Bounds | null {
    this.initial = this.grid.bounds;
    this.grid.seal();
    return this.initial;
  }

  /**
   * Places the frames (keyed by owner) as one unit as near `wanted` as is free and returns their final
   * frames. The unit may overlap records owned by `ignore` (the groups its tables belong to).
   */
  place(
    frames: Map<string, Frame>,
    wanted: Shift,
    ignore: ReadonlySet<string> = NO_OWNERS,
  ): Map<string, Frame> {
    const unit = [...frames.values()];
    const box = boundingFrame(unit);
    const shift =
      (unit.length <= LARGE_UNIT ? this.searchNear(unit, box, wanted, ignore) : null) ??
      this.searchNear(unit, box, this.outside(box, wanted), ignore) ??
      this.belowEverything(box);
    const placed = new Map<string, Frame>();
    for (const [owner, frame] of frames) {
      const final = moved(frame, shift);
      placed.set(owner, final);
      this.grid.add(final, owner);
    }
    return placed;
  }

  private searchNear(unit: Frame[], box: Frame, wanted: Shift, ignore: ReadonlySet<string>): Shift | null {
    const fits = (shift: Shift) =>
      !this.grid.overlaps(moved(box, shift), LAYOUT_GAP, ignore) ||
      unit.every((frame) => !this.grid.overlaps(moved(frame, shift), LAYOUT_GAP, ignore));
    for (let ring = 0; ring <= SEARCH_RINGS; ring++) {
      for (const [i, j] of ringOffsets(ring)) {
        const shift = { dx: wanted.dx + i * SEARCH_STEP, dy: wanted.dy + j * SEARCH_STEP };
        if (fits(shift)) return shift;
      }
    }
    return null;
  }

  /** Just right of or just below the original diagram, whichever is nearer, level with `wanted`. */
  private outside(box: Frame, wanted: Shift): Shift {
    if (this.initial === null) return wanted;
    const right = { dx: this.initial.right + 2 * LAYOUT_GAP - box.left, dy: wanted.dy };
    const below = { dx: wanted.dx, dy: this.initial.bottom + 2 * LAYOUT_GAP - box.top };
    return Math.abs(right.dx - wanted.dx) <= Math.abs(below.dy - wanted.dy) ? right : below;
  }

  private belowEverything(box: Frame): Shift {
    const bounds = this.grid.bounds ?? { left: 0, bottom: 0 };
    return { dx: bounds.left - box.left, dy: bounds.bottom + LAYOUT_GAP - box.top };
  }
}

export function moved(frame: Frame, shift: Shift): Frame {
  return {
    left: Math.round(frame.left + shift.dx),
    top: Math.round(frame.top + shift.dy),
    width: frame.width,
    height: frame.height,
  };
}

/** Grid offsets at Chebyshev distance `ring`, in a fixed order (so the layout is deterministic). */
function ringOffsets(ring: number): [number, number][] {
  if (ring === 0) return [[0, 0]];
  const offsets: [number, number][] = [];
  for (let i = -ring; i <= ring; i++) offsets.push([i, -ring], [i, ring]);
  for (let j = -ring + 1; j < ring; j++) offsets.push([-ring, j], [ring, j]);
  return offsets;
}
