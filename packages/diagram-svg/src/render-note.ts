// A sticky note: a coloured card with its content wrapped to the card's width and cut to its height.
import type { StickyNote } from '@dss/schema';
import { type Bounds, placeBox } from './bounds';
import { type ChangeMark, markClass } from './highlight';
import { inkOn, MARK_COLORS, NOTE_BORDER, NOTE_DEFAULT, REMOVED_DASH, safeColor } from './palette';
import { CHARACTER_WIDTH, limitLines, wrapText } from './text-fit';
import { element, escapeXml, textOf, titleElement } from './xml';

const PADDING = 12;
const LINE_HEIGHT = 16;
const MIN_WIDTH = 80;
const MIN_HEIGHT = 40;

/** `group`: the name of the note's group, drawn as `data-group-member` so arranging moves them together. */
export function renderNote(
  note: StickyNote,
  mark: ChangeMark | undefined,
  bounds: Bounds,
  group: string | null = null,
): string {
  const { left, top, width, height } = placeBox(note, { width: MIN_WIDTH, height: MIN_HEIGHT }, bounds);
  const fill = safeColor(note.color, NOTE_DEFAULT);
  const content = textOf(note.content);
  const textWidth = width - 2 * PADDING;
  const maxLines = Math.max(1, Math.floor((height - 2 * PADDING + 4) / LINE_HEIGHT));
  const lines = limitLines(
    wrapText(content, textWidth, CHARACTER_WIDTH.note),
    maxLines,
    textWidth,
    CHARACTER_WIDTH.note,
  );
  const x = left + PADDING;
  const tspans = lines
    .map((line, at) =>
      element('tspan', { x, dy: at === 0 ? 0 : LINE_HEIGHT }, line === '' ? '\u00a0' : escapeXml(line)),
    )
    .join('');
  const body =
    titleElement(content) +
    element('rect', {
      class: 'dss-card',
      x: left,
      y: top,
      width,
      height,
      rx: 4,
      fill,
      stroke: mark === undefined ? NOTE_BORDER : MARK_COLORS[mark].strong,
      'stroke-width': mark === undefined ? 1 : 2,
      'stroke-dasharray': mark === 'removed' ? REMOVED_DASH : undefined,
    }) +
    element(
      'text',
      {
        class: 'dss-note-text',
        x,
        y: top + PADDING + 12,
        'font-size': 12,
        fill: inkOn(fill),
        'text-decoration': mark === 'removed' ? 'line-through' : undefined,
      },
      tspans,
    );
  return element(
    'g',
    {
      class: `dss-note${markClass(mark)}`,
      'data-note': textOf(note.uuid),
      'data-group-member': group === null ? undefined : group,
    },
    body,
  );
}
