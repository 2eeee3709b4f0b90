// The area everything drawn covers, for the viewBox, and where a sized canvas item (group, sticky note)
// is drawn.
import { numberOf } from './xml';

export class Bounds {
  minX = Number.POSITIVE_INFINITY;
  minY = Number.POSITIVE_INFINITY;
  maxX = Number.NEGATIVE_INFINITY;
  maxY = Number.NEGATIVE_INFINITY;

  include(left: number, top: number, right: number, bottom: number): void {
    if (left < this.minX) this.minX = left;
    if (top < this.minY) this.minY = top;
    if (right > this.maxX) this.maxX = right;
    if (bottom > this.maxY) this.maxY = bottom;
  }

  get isEmpty(): boolean {
    return this.minX > this.maxX;
  }
}

/** Where a group or sticky note sits and how big it is: stored values, never under the minimum size. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The box of a sized canvas item, clamped to the minimum size, and added to `bounds`. */
export function placeBox(
  item: { left?: unknown; top?: unknown; width?: unknown; height?: unknown },
  minimum: { width: number; height: number },
  bounds: Bounds,
): Box {
  const left = numberOf(item.left);
  const top = numberOf(item.top);
  const width = Math.max(minimum.width, numberOf(item.width));
  const height = Math.max(minimum.height, numberOf(item.height));
  bounds.include(left, top, left + width, top + height);
  return { left, top, width, height };
}
