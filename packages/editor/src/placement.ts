// Where a new table goes: the first free spot in the part of the diagram in view, scanned row by row from
// its top-left corner, never overlapping a table (with a margin); right of everything when the view is full.
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const MARGIN = 24;
const STEP = 40;

export function freeSpotFor(
  size: { width: number; height: number },
  view: Rect,
  taken: readonly Rect[],
): {
  left: number;
  top: number;
} {
  const overlaps = (left: number, top: number) =>
    taken.some(
      (box) =>
        left < box.left + box.width + MARGIN &&
        left + size.width + MARGIN > box.left &&
        top < box.top + box.height + MARGIN &&
        top + size.height + MARGIN > box.top,
    );
  const startLeft = Math.max(0, Math.round(view.left + MARGIN));
  const startTop = Math.max(0, Math.round(view.top + MARGIN));
  const lastLeft = Math.max(startLeft, view.left + view.width - size.width - MARGIN);
  const lastTop = Math.max(startTop, view.top + view.height - size.height - MARGIN);
  for (let top = startTop; top <= lastTop; top += STEP)
    for (let left = startLeft; left <= lastLeft; left += STEP) if (!overlaps(left, top)) return { left, top };
  const right = taken.reduce((edge, box) => Math.max(edge, box.left + box.width), 0);
  return { left: Math.round(right + MARGIN * 2), top: startTop };
}
