// A new table goes into free space of the view: never on another table, measured box against box.
import { freeSpotFor, type Rect } from '../src';

const overlap = (a: Rect, b: Rect) =>
  a.left < b.left + b.width &&
  a.left + a.width > b.left &&
  a.top < b.top + b.height &&
  a.top + a.height > b.top;

describe('freeSpotFor()', () => {
  const size = { width: 220, height: 80 };

  it('should place a table in the view, clear of every table in it', () => {
    const view = { left: 100, top: 100, width: 900, height: 600 };
    const taken = [
      { left: 100, top: 100, width: 300, height: 200 },
      { left: 450, top: 120, width: 300, height: 400 },
    ];
    const spot = freeSpotFor(size, view, taken);
    const box = { ...spot, ...size };
    for (const other of taken) expect(overlap(box, other)).toBe(false);
    expect(box.left).toBeGreaterThanOrEqual(view.left);
    expect(box.top + box.height).toBeLessThanOrEqual(view.top + view.height);
  });

  it('should go right of everything when the view has no room', () => {
    const view = { left: 0, top: 0, width: 400, height: 300 };
    const taken = [{ left: 0, top: 0, width: 400, height: 300 }];
    const spot = freeSpotFor(size, view, taken);
    expect(overlap({ ...spot, ...size }, taken[0]!)).toBe(false);
    expect(spot.left).toBeGreaterThan(400);
  });
});
