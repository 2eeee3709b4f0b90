// Where things sit inside a drawn table. The header and row heights are the ones packages/schema's size
// estimate assumes (36px header, 24px per column, 8px bottom padding), so estimated tables fit exactly.
import type { DocumentTable } from '@dss/schema';
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
/** The widest a table grows to fit its text (packages/schema's estimate stops there too); past it, text is cut. */
const MAX_FIT_WIDTH = 480;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Free space kept between a widened table and the next table to its right. */
const NEIGHBOUR_GAP = 16;
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
 * Widens each table whose stored width cuts its name or a column's name or type, up to what its text needs
 * (at most 480px) and to the space free on its right: it stops short of any table that starts to its right
 * at the same height, so widening never makes tables overlap. Boxes only grow.
 */
export function fitTableBoxes(tables: readonly DocumentTable[]): void {
  const boxes = tables.map(storedBox);
  tables.forEach((table, at) => {
    const box = boxes[at] as Box;
    const wanted = Math.min(MAX_FIT_WIDTH, textWidth(table));
    if (wanted <= box.width) {
      fitted.set(table, box);
      return;
    }
    let room = wanted;
    for (const other of boxes) {
      const toTheRight = other.left > box.left;
      const sameHeight = other.top < box.top + box.height && box.top < other.top + other.height;
      if (toTheRight && sameHeight) room = Math.min(room, other.left - NEIGHBOUR_GAP - box.left);
    }
    fitted.set(table, { ...box, width: Math.max(box.width, room) });
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

/** The width that shows the name and every column's name and type whole (render-table's row layout). */
function textWidth(table: DocumentTable): number {
  const columns = Array.isArray(table.columns) ? table.columns : [];
  let widest = 2 * SIDE_PADDING + estimatedWidth(textOf(table.name), CHARACTER_WIDTH.tableName);
  for (const column of columns) {
    const row =
      BADGE_GUTTER +
      SIDE_PADDING +
      NAME_TYPE_GAP +
      estimatedWidth(textOf(column.name), CHARACTER_WIDTH.columnName) +
      estimatedWidth(columnTypeText(column), CHARACTER_WIDTH.columnType);
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
