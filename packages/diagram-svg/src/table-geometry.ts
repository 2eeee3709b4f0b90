// Where things sit inside a drawn table. The header and row heights are the ones packages/schema's size
// estimate assumes (36px header, 24px per column, 8px bottom padding), so estimated tables fit exactly.
import type { DocumentTable } from '@dss/schema';
import type { MarkupCache } from './markup-cache';
import { CHARACTER_WIDTH, estimatedWidth } from './text-fit';
import { columnTypeText } from './type-text';
import { numberOf, textOf } from './xml';

export const HEADER_HEIGHT = 36;
export const ROW_HEIGHT = 24;
export const BOTTOM_PADDING = 8;
/** Left strip of each row holding the key badges (PK/UQ/IX, FK). */
export const BADGE_GUTTER = 34;
export const SIDE_PADDING = 10;
/** Between a column's name and its type. */
export const NAME_TYPE_GAP = 12;
const MIN_WIDTH = 120;
/**
 * The widest a table grows to fit its text; past it, text is cut and the row's tooltip holds it whole. Wider
 * than packages/schema's estimate (480px), so long enum and set types (sakila's `film.special_features`)
 * still read whole.
 */
export const MAX_FIT_WIDTH = 720;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Free space kept between a widened table and a table it pushes to its right (packages/schema's LAYOUT_GAP). */
const NEIGHBOUR_GAP = 48;
/** The "null" marker after a nullable column's type, and the gap that keeps the two apart. */
export const NULL_MARKER_WIDTH = 22;
export const NULL_MARKER_GAP = 6;
const fitted = new WeakMap<DocumentTable, Box>();

/**
 * The table's box: its stored frame, made tall enough for every row, and as fitted by fitTableBoxes when
 * the drawing ran it over its tables. A stored size may be stale: a patch that adds columns to a table
 * keeps its size, and a review drawing adds the removed columns back.
 */
export function tableBox(table: DocumentTable): Box {
  return fitted.get(table) ?? storedBox(table);
}

/**
 * Widens each table whose stored width cuts its name or a column's name or type to what its text needs
 * (at most MAX_FIT_WIDTH; past that the text is cut and the tooltip holds it whole). A stored width is often stale
 * (a proposal or an edit that adds a long column keeps it), and the text matters more than the stored
 * place: a table that a widened one would now reach is drawn further right by what it lacks (and so on
 * along the row), so widening never makes tables overlap. Stored positions are not changed; the drawing
 * shows tables where they are drawn, and a drag saves where the person put them. Boxes only grow.
 */
export function fitTableBoxes(tables: readonly DocumentTable[], cache?: MarkupCache): void {
  const stored = tables.map(storedBox);
  const boxes = stored.map((box, at) => {
    const table = tables[at] as DocumentTable;
    const needed = cache === undefined ? textWidth(table) : cache.width(table, () => textWidth(table));
    const wanted = Math.min(MAX_FIT_WIDTH, needed);
    return wanted <= box.width ? box : { ...box, width: wanted };
  });
  // Left to right, so a push carries on along the row; ties keep document order.
  const order = boxes
    .map((_box, at) => at)
    .sort((a, b) => (stored[a] as Box).left - (stored[b] as Box).left || a - b);
  for (const [rank, at] of order.entries()) {
    const box = boxes[at] as Box;
    let shift = 0;
    for (const before of order.slice(0, rank)) {
      const other = boxes[before] as Box;
      const was = stored[before] as Box;
      const sameHeight = other.top < box.top + box.height && box.top < other.top + other.height;
      // Only room the fitting took: tables a person stored overlapping stay as they were.
      const storedGap = (stored[at] as Box).left - (was.left + was.width);
      // Keep the gap the person left, up to the layout's 48px: room for the lines between the two.
      const needed = other.left + other.width + Math.min(NEIGHBOUR_GAP, storedGap);
      if (sameHeight && storedGap >= 0 && needed > box.left) shift = Math.max(shift, needed - box.left);
    }
    if (shift > 0) boxes[at] = { ...box, left: box.left + shift };
  }
  tables.forEach((table, at) => {
    fitted.set(table, boxes[at] as Box);
  });
}

function storedBox(table: DocumentTable): Box {
  const rows = Math.max(1, Array.isArray(table.columns) ? table.columns.length : 0);
  return {
    left: numberOf(table.left),
    top: numberOf(table.top),
    width: Math.max(MIN_WIDTH, numberOf(table.width)),
    height: Math.max(numberOf(table.height), HEADER_HEIGHT + ROW_HEIGHT * rows + BOTTOM_PADDING),
  };
}

/** The width that shows the name and every column's name, type and null marker whole (render-table's rows). */
function textWidth(table: DocumentTable): number {
  const columns = Array.isArray(table.columns) ? table.columns : [];
  let widest = 2 * SIDE_PADDING + estimatedWidth(textOf(table.name), CHARACTER_WIDTH.tableName);
  for (const column of columns) {
    const row =
      BADGE_GUTTER +
      SIDE_PADDING +
      NAME_TYPE_GAP +
      estimatedWidth(textOf(column.name), CHARACTER_WIDTH.columnName) +
      estimatedWidth(columnTypeText(column), CHARACTER_WIDTH.columnType) +
      (column.is_nullable === true ? NULL_MARKER_GAP + NULL_MARKER_WIDTH : 0);
    if (row > widest) widest = row;
  }
  return Math.ceil(widest);
}

export function rowTop(box: Box, row: number): number {
  return box.top + HEADER_HEIGHT + ROW_HEIGHT * row;
}

/** Vertical centre of a column's row, or of the header when the column is not known. */
export function rowMiddle(box: Box, row: number | null): number {
  return row === null ? box.top + HEADER_HEIGHT / 2 : rowTop(box, row) + ROW_HEIGHT / 2;
}
