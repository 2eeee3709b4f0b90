// A group: a labelled frame drawn behind its tables, tinted with the group's colour.
import type { Group } from '@dss/schema';
import { type Bounds, placeBox } from './bounds';
import { type ChangeMark, markClass } from './highlight';
import { GROUP_DEFAULT, INK_MUTED, MARK_COLORS, REMOVED_DASH, safeColor } from './palette';
import { CHARACTER_WIDTH, fitText } from './text-fit';
import { element, escapeXml, textOf, titleElement } from './xml';

const MIN_SIZE = 40;
const LABEL_INSET = 14;

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
