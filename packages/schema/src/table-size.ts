// Estimated canvas size of a table, used when a patch does not send one. The editor draws a header with
// the table name and one row per column ("name  type"); these constants approximate its 13px font.

export const TABLE_MIN_WIDTH = 180;
export const TABLE_MAX_WIDTH = 480;
const CHARACTER_WIDTH = 8;
const HORIZONTAL_PADDING = 48;
const HEADER_HEIGHT = 36;
const ROW_HEIGHT = 24;

/** Centre of the row of a table's column `index` (0 first), below the table's top. */
export function rowCentre(index: number): number {
  return HEADER_HEIGHT + ROW_HEIGHT * index + ROW_HEIGHT / 2;
}
const BOTTOM_PADDING = 8;

export interface SizedTable {
  name: string;
  columns: readonly { name: string; driver_data_type_name: string }[];
}

/**
 * width  = clamp(8 × longest text + 48, 180, 480), where the texts are the table name and each column's
 *          name and type name with two characters between them;
 * height = 36 + 24 × max(1, number of columns) + 8.
 */
export function estimateTableSize(table: SizedTable): { width: number; height: number } {
  let longest = table.name.length;
  for (const column of table.columns) {
    longest = Math.max(longest, column.name.length + column.driver_data_type_name.length + 2);
  }
  const width = Math.min(
    TABLE_MAX_WIDTH,
    Math.max(TABLE_MIN_WIDTH, CHARACTER_WIDTH * longest + HORIZONTAL_PADDING),
  );
  const height = HEADER_HEIGHT + ROW_HEIGHT * Math.max(1, table.columns.length) + BOTTOM_PADDING;
  return { width, height };
}
