// The area everything drawn covers, for the viewBox.

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
