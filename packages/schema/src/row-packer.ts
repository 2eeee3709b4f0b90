// Packs boxes left to right into rows of about equal width, so many unrelated boxes come out as a rough
// square instead of one long line.

export interface PackedBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

const MIN_ROW_WIDTH = 1600;

export class RowPacker {
  private left: number;
  private top: number;
  private rowHeight = 0;
  private rowWidth = MIN_ROW_WIDTH;

  constructor(
    private readonly origin: { left: number; top: number },
    private readonly gap: number,
  ) {
    this.left = origin.left;
    this.top = origin.top;
  }

  /** Sets the row width from the boxes that will be packed, so the rows come out roughly square. */
  reserve(boxes: readonly PackedBox[]): this {
    let area = 0;
    for (const box of boxes) area += (box.width + this.gap) * (box.height + this.gap);
    this.rowWidth = Math.max(MIN_ROW_WIDTH, Math.sqrt(area) * 1.5);
    return this;
  }

  /** The shift that moves `box` to the next free place in the rows. */
  next(box: PackedBox): { dx: number; dy: number } {
    if (this.left > this.origin.left && this.left + box.width > this.origin.left + this.rowWidth) {
      this.left = this.origin.left;
      this.top += this.rowHeight + this.gap;
      this.rowHeight = 0;
    }
    const shift = { dx: this.left - box.left, dy: this.top - box.top };
    this.left += box.width + this.gap;
    this.rowHeight = Math.max(this.rowHeight, box.height);
    return shift;
  }
}
