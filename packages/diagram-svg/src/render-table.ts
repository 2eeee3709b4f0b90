// One table: a box with a header holding the name and one row per column (key badges, name, type,
// nullability). Marks of the table, its columns and its indexes become classes and colours.
import type { Column, DocumentTable } from '@dss/schema';
import type { Bounds } from './bounds';
import { type ChangeMark, type DiagramHighlight, markClass } from './highlight';
import type { HubCopy } from './hub-copies';
import {
  BADGE_COLORS,
  FONT_MONO,
  INK_FAINT,
  INK_MUTED,
  inkOn,
  MARK_COLORS,
  REMOVED_DASH,
  safeColor,
  TABLE_BODY,
  TABLE_BORDER,
  TABLE_HEADER_DEFAULT,
} from './palette';
import {
  BADGE_GUTTER,
  type Box,
  HEADER_HEIGHT,
  NAME_TYPE_GAP,
  NULL_MARKER_GAP,
  NULL_MARKER_WIDTH,
  ROW_HEIGHT,
  rowTop,
  SIDE_PADDING,
  tableBox,
} from './table-geometry';
import { CHARACTER_WIDTH, estimatedWidth, fitText } from './text-fit';
import { columnTypeText } from './type-text';
import { element, escapeXml as escapeText, formatNumber as n, textOf, titleElement } from './xml';

const CORNER = 6;
const NULL_SUFFIX = ' null';
/** The marker and the gap before it: the type ends there, and the marker is placed on its own. */
const NULL_SUFFIX_WIDTH = NULL_MARKER_WIDTH + NULL_MARKER_GAP;

/** What a table's rows need to know beyond the table itself. */
export interface TableContext {
  highlight: DiagramHighlight;
  /** Names of this table's columns that are the foreign-key side of a relationship. */
  foreignKeyColumns: ReadonlySet<string>;
  /** The name of the table's group, drawn as `data-group-member` (collapsing a group hides its tables). */
  group?: string | null;
  /** The table is a copy of a busy table (hub-copies.ts), drawn beside the tables that reference it. */
  copy?: HubCopy;
}

/** The word in a copy's header, after the table's name. */
export const COPY_LABEL = 'copy';
/** A copy's dashed outline. */
const COPY_DASH = '5 3';
/** Room the label takes in the header, with the gap before it. */
export const COPY_LABEL_WIDTH = 40;

interface IndexMark {
  name: string;
  mark: ChangeMark;
}

export function renderTable(table: DocumentTable, context: TableContext, bounds: Bounds): string {
  const box = tableBox(table);
  bounds.include(box.left, box.top, box.left + box.width, box.top + box.height);
  const mark = context.highlight.tables.get(table.uuid);
  const copy = context.copy;
  const name = copy === undefined ? textOf(table.name) : copy.of;
  const comment =
    copy === undefined
      ? textOf(table.comment)
      : `A copy: drawn again beside the ${copy.serves} tables here that reference it. The table itself is drawn once, in full; double-click to go to it.`;
  const headerFill = safeColor(table.color, TABLE_HEADER_DEFAULT);
  const columns = Array.isArray(table.columns) ? table.columns : [];
  const indexMarks = indexMarksByColumn(table, context.highlight);

  // Parts joined once per table: one flat string per table instead of a long-lived tree of concatenations,
  // which made garbage collection most of the time of a 1,000-table drawing.
  const body = [titleElement(comment === '' ? name : `${name}\n${comment}`)];
  body.push(
    element('rect', {
      class: 'dss-box',
      x: box.left,
      y: box.top,
      width: box.width,
      height: box.height,
      rx: CORNER,
      fill: TABLE_BODY,
      stroke: mark === undefined ? TABLE_BORDER : MARK_COLORS[mark].strong,
      'stroke-width': mark === undefined ? 1 : 2,
      'stroke-dasharray': mark === 'removed' ? REMOVED_DASH : copy === undefined ? undefined : COPY_DASH,
    }),
  );
  body.push(element('path', { class: 'dss-header', d: headerPath(box), fill: headerFill }));
  const nameY = box.top + 23;
  const nameRoom = box.width - 2 * SIDE_PADDING - (copy === undefined ? 0 : COPY_LABEL_WIDTH);
  const shownName = fitText(name, nameRoom, CHARACTER_WIDTH.tableName);
  body.push(
    element(
      'text',
      {
        class: 'dss-table-name',
        x: box.left + SIDE_PADDING,
        y: nameY,
        'font-size': 13,
        'font-weight': 600,
        fill: inkOn(headerFill),
      },
      escapeText(shownName),
    ),
  );
  // After the name, so the header's name stays the text right after it (diagramCss styles it so).
  if (copy !== undefined)
    body.push(
      element(
        'text',
        {
          class: 'dss-copy-label',
          x: box.left + box.width - SIDE_PADDING,
          y: nameY,
          'text-anchor': 'end',
          'font-size': 11,
          'font-style': 'italic',
          fill: inkOn(headerFill),
        },
        COPY_LABEL,
      ),
    );
  if (mark === 'removed') body.push(strike(box.left + SIDE_PADDING, box, shownName, nameY));
  columns.forEach((column, row) => {
    body.push(renderColumn(column, row, box, context, indexMarks.get(textOf(column.name)) ?? []));
  });
  return element(
    'g',
    {
      class: `dss-table${copy === undefined ? '' : ' dss-table-copy'}${markClass(mark)}`,
      'data-table': copy === undefined ? name : undefined,
      'data-table-copy': copy === undefined ? undefined : name,
      'data-copy': copy?.index,
      'data-group-member': context.group ?? undefined,
      opacity: mark === 'removed' ? 0.75 : undefined,
    },
    body.join(''),
  );
}

function renderColumn(
  column: Column,
  row: number,
  box: Box,
  context: TableContext,
  indexMarks: IndexMark[],
): string {
  const mark = context.highlight.columns.get(column.uuid);
  const top = rowTop(box, row);
  const baseline = top + 16;
  const name = textOf(column.name);
  const type = columnTypeText(column);
  const nullable = column.is_nullable === true;
  const isForeignKey = context.foreignKeyColumns.has(name);

  const { shownName, shownType, showNull } = fitRow(name, type, nullable, box.width);
  const hidesSomething = shownName !== name || shownType !== type || showNull !== nullable;

  let body = '';
  const tooltip = columnTooltip(column, name, type, isForeignKey, indexMarks, hidesSomething);
  if (tooltip !== null) body += titleElement(tooltip);
  if (mark !== undefined)
    body += element('rect', {
      class: 'dss-row-mark',
      x: box.left + 1,
      y: top,
      width: box.width - 2,
      height: ROW_HEIGHT,
      fill: MARK_COLORS[mark].tint,
    });
  const indexMark = indexMarks[0];
  if (indexMark !== undefined)
    body += element('rect', {
      class: 'dss-index-mark',
      x: box.left + 2,
      y: top + 3,
      width: 3,
      height: ROW_HEIGHT - 6,
      fill: MARK_COLORS[indexMark.mark].strong,
    });
  body += badges(column, isForeignKey, box.left, baseline);
  body += element(
    'text',
    {
      class: 'dss-column-name',
      x: box.left + BADGE_GUTTER,
      y: baseline,
      'font-weight': column.is_primary_key === true ? 600 : undefined,
      // Size 12 and the ink colour are inherited from the tables layer.
      fill: mark === 'removed' ? INK_MUTED : undefined,
    },
    escapeText(shownName),
  );
  // The marker is a text chunk of its own (its own x, anchored at the box's edge), so whatever the font of
  // the viewer or the PNG export, the type ends NULL_SUFFIX_WIDTH before it and the two never touch.
  const rowEnd = box.left + box.width - SIDE_PADDING;
  const typeChildren =
    escapeText(shownType) +
    (showNull
      ? element('tspan', { class: 'dss-nullable', x: rowEnd, 'font-size': 10, fill: INK_FAINT }, NULL_SUFFIX)
      : '');
  body += element(
    'text',
    {
      class: 'dss-column-type',
      x: showNull ? rowEnd - NULL_SUFFIX_WIDTH : rowEnd,
      y: baseline,
      'text-anchor': 'end',
      'font-family': FONT_MONO,
      'font-size': 11,
      fill: INK_MUTED,
    },
    typeChildren,
  );
  if (mark === 'removed') {
    const middle = top + ROW_HEIGHT / 2;
    body += element('line', {
      class: 'dss-strike',
      x1: box.left + BADGE_GUTTER - 4,
      y1: middle,
      x2: box.left + box.width - SIDE_PADDING + 2,
      y2: middle,
      stroke: MARK_COLORS.removed.strong,
      'stroke-width': 1.25,
    });
  }
  const indexClasses = indexMarks.map((entry) => ` dss-index-${entry.mark}`);
  return element(
    'g',
    { class: `dss-column${markClass(mark)}${[...new Set(indexClasses)].join('')}`, 'data-column': name },
    body,
  );
}

/**
 * What of the name, the type and the "null" marker fits a row of a table this wide. The type keeps at least
 * 40% of the room; when it does not fit with the marker, the marker goes first (the tooltip still says
 * nullable), then the type is cut, then the name.
 */
function fitRow(name: string, type: string, nullable: boolean, tableWidth: number) {
  const available = tableWidth - BADGE_GUTTER - SIDE_PADDING - NAME_TYPE_GAP;
  const typeRoom = Math.max(available - estimatedWidth(name, CHARACTER_WIDTH.columnName), available * 0.4);
  const typeWidth = estimatedWidth(type, CHARACTER_WIDTH.columnType);
  const showNull = nullable && typeWidth + NULL_SUFFIX_WIDTH <= typeRoom;
  const shownType = fitText(type, typeRoom - (showNull ? NULL_SUFFIX_WIDTH : 0), CHARACTER_WIDTH.columnType);
  const usedByType =
    estimatedWidth(shownType, CHARACTER_WIDTH.columnType) + (showNull ? NULL_SUFFIX_WIDTH : 0);
  const shownName = fitText(name, available - usedByType, CHARACTER_WIDTH.columnName);
  return { shownName, shownType, showNull };
}

/** PK, UQ or IX in the first slot of the gutter; FK in the second. */
function badges(column: Column, isForeignKey: boolean, left: number, baseline: number): string {
  const key =
    column.is_primary_key === true
      ? 'PK'
      : column.is_unique_key === true
        ? 'UQ'
        : column.is_index === true
          ? 'IX'
          : null;
  let out = '';
  if (key !== null) out += badge(key, left + 5, baseline);
  if (isForeignKey) out += badge('FK', left + 19, baseline);
  return out;
}

function badge(label: keyof typeof BADGE_COLORS, x: number, baseline: number): string {
  return element(
    'text',
    {
      class: `dss-badge dss-badge-${label.toLowerCase()}`,
      x,
      y: baseline - 1,
      'font-size': 8,
      'font-weight': 700,
      fill: BADGE_COLORS[label],
    },
    label,
  );
}

/**
 * The row's tooltip: the whole column when the row cut something or there is more to know (a default, a
 * comment, auto-increment, marked indexes); null when the row already shows everything.
 */
function columnTooltip(
  column: Column,
  name: string,
  type: string,
  isForeignKey: boolean,
  indexMarks: IndexMark[],
  rowHidesSomething: boolean,
): string | null {
  const facts: string[] = [];
  if (column.is_primary_key === true) facts.push('primary key');
  if (isForeignKey) facts.push('foreign key');
  if (column.is_unique_key === true) facts.push('unique');
  if (column.is_index === true) facts.push('indexed');
  if (column.is_auto_increment === true) facts.push('auto-increment');
  facts.push(column.is_nullable === true ? 'nullable' : 'not null');
  const hasDefault = column.default !== null && column.default !== undefined;
  if (hasDefault) facts.push(`default ${textOf(column.default)}`);
  for (const entry of indexMarks) facts.push(`index ${entry.name} ${entry.mark}`);
  const comment = textOf(column.comment);
  const interesting =
    rowHidesSomething ||
    hasDefault ||
    comment !== '' ||
    indexMarks.length > 0 ||
    column.is_auto_increment === true;
  if (!interesting) return null;
  return `${name} ${type}: ${facts.join(', ')}${comment === '' ? '' : `\n${comment}`}`;
}

/** Marked indexes of the table, by the names of the columns they cover. */
function indexMarksByColumn(table: DocumentTable, highlight: DiagramHighlight): Map<string, IndexMark[]> {
  const byColumn = new Map<string, IndexMark[]>();
  if (highlight.indexes.size === 0 || !Array.isArray(table.indexes)) return byColumn;
  for (const index of table.indexes) {
    const mark = highlight.indexes.get(index.uuid);
    if (mark === undefined || !Array.isArray(index.columns)) continue;
    for (const column of index.columns) {
      const key = textOf(column);
      const list = byColumn.get(key) ?? [];
      list.push({ name: textOf(index.name), mark });
      byColumn.set(key, list);
    }
  }
  return byColumn;
}

/** The header band: the box's top with rounded top corners. */
function headerPath(box: Box): string {
  const { left, top, width } = box;
  const right = left + width;
  const bottom = top + HEADER_HEIGHT;
  const r = CORNER;
  return `M${n(left)} ${n(bottom)}V${n(top + r)}Q${n(left)} ${n(top)} ${n(left + r)} ${n(top)}H${n(right - r)}Q${n(right)} ${n(top)} ${n(right)} ${n(top + r)}V${n(bottom)}Z`;
}

function strike(x: number, box: Box, shownText: string, baseline: number): string {
  const width = Math.min(estimatedWidth(shownText, CHARACTER_WIDTH.tableName), box.width - 2 * SIDE_PADDING);
  return element('line', {
    class: 'dss-strike',
    x1: x,
    y1: baseline - 4,
    x2: x + width,
    y2: baseline - 4,
    stroke: MARK_COLORS.removed.strong,
    'stroke-width': 1.5,
  });
}
