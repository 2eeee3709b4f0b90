// Where things sit inside a drawn table. The header and row heights are the ones packages/schema's size
// estimate assumes (36px header, 24px per column, 8px bottom padding), so estimated tables fit exactly.
import type { DocumentTable } from '@dss/schema';
import { numberOf } from './xml';

export const HEADER_HEIGHT = 36;
export const ROW_HEIGHT = 24;
export const BOTTOM_PADDING = 8;
/** Left strip of each row holding the key badges (PK/UQ/IX, FK). */
export const BADGE_GUTTER = 34;
export const SIDE_PADDING = 10;
const MIN_WIDTH = 120;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The table's box: its stored frame, widened to a minimum and made tall enough for every row (a review
 * drawing adds removed columns to a table, and a stored height may be stale).
 */
export function tableBox(table: DocumentTable): Box {
  const rows = Math.max(1, Array.isArray(table.columns) ? table.columns.length : 0);
  return {
    left: numberOf(table.left),
    top: numberOf(table.top),
    width: Math.max(MIN_WIDTH, numberOf(table.width)),
    height: Math.max(numberOf(table.height), HEADER_HEIGHT + ROW_HEIGHT * rows + BOTTOM_PADDING),
  };
}

export function rowTop(box: Box, row: number): number {
  return box.top + HEADER_HEIGHT + ROW_HEIGHT * row;
}

/** Vertical centre of a column's row, or of the header when the column is not known. */
export function rowMiddle(box: Box, row: number | null): number {
  return row === null ? box.top + HEADER_HEIGHT / 2 : rowTop(box, row) + ROW_HEIGHT / 2;
}
