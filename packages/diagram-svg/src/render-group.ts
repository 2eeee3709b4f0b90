// A group: a labelled frame drawn behind its tables, tinted with the group's colour.
import type { Group } from '@dss/schema';
import { type Bounds, placeBox } from './bounds';
import { type ChangeMark, markClass } from './highlight';
import { GROUP_DEFAULT, INK_MUTED, MARK_COLORS, REMOVED_DASH, safeColor } from './palette';
import { CHARACTER_WIDTH, estimatedWidth, fitText } from './text-fit';
import { element, escapeXml, numberOf, textOf, titleElement } from './xml';

const MIN_SIZE = 40;
const LABEL_INSET = 14;

/**
 * The part of a group's frame that lines keep off: its label (swatch and name, as far as the name is drawn)
 * in the top strip. The rest of the frame's top edge is crossed like any other part of the frame, so a
 * group as wide as the diagram does not wall off the tables above it from those inside it.
 */
export function groupLabelBox(group: Group): { left: number; top: number; width: number; height: number } {
  const left = numberOf(group.left);
  const top = numberOf(group.top);
  const width = Math.max(MIN_SIZE, numberOf(group.width));
  const height = Math.max(MIN_SIZE, numberOf(group.height));
  const label = fitText(textOf(group.name), width - 2 * LABEL_INSET, CHARACTER_WIDTH.groupName);
  const labelWidth = LABEL_INSET + 10 + estimatedWidth(label, CHARACTER_WIDTH.groupName) + 8;
  return { left, top, width: Math.min(width, labelWidth), height: Math.min(height, LABEL_STRIP) };
}

/** Height of the strip at a frame's top that holds its label. */
const LABEL_STRIP = 34;

export function renderGroup(group: Group, mark: ChangeMark | undefined, bounds: Bounds): string {
  const { left, top, width, height } = placeBox(group, { width: MIN_SIZE, height: MIN_SIZE }, bounds);
  const color = safeColor(group.color, GROUP_DEFAULT);
  const name = textOf(group.name);
  const label = fitText(name, width - 2 * LABEL_INSET, CHARACTER_WIDTH.groupName);
  const body =
    titleElement(name) +
    element('rect', {
      class: 'dss-frame',
      x: left,
      y: top,
      width,
      height,
      rx: 10,
      fill: color,
      'fill-opacity': 0.07,
      stroke: mark === undefined ? color : MARK_COLORS[mark].strong,
      'stroke-width': mark === undefined ? 1.25 : 2,
      'stroke-dasharray': mark === 'removed' ? REMOVED_DASH : undefined,
    }) +
    element('rect', {
      class: 'dss-swatch',
      x: left + LABEL_INSET,
      y: top + 12,
      width: 4,
      height: 14,
      rx: 2,
      fill: color,
    }) +
    element(
      'text',
      {
        class: 'dss-group-name',
        x: left + LABEL_INSET + 10,
        y: top + 24,
        'font-size': 13,
        'font-weight': 600,
        fill: INK_MUTED,
        'text-decoration': mark === 'removed' ? 'line-through' : undefined,
      },
      escapeXml(label),
    );
  return element('g', { class: `dss-group${markClass(mark)}`, 'data-group': name }, body);
}
