// The drawing: the server's renderer (the same code as every other page) draws the document into a
// scrolling canvas, at 1:1 scale until the person zooms (the toolbar's buttons, the keys - + 0 1, or
// Ctrl/⌘ with the wheel or a pinch, around the pointer); after an edit only the changed tables and lines
// are drawn again (CanvasDrawing). A press on a table selects it (Shift adds to the selection); dragging
// moves every selected table, written as one edit when released.
import type { DiagramDocument } from '@dss/schema';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { clampScale, type EditorController, type ViewAnchor, type ViewRequest } from './controller';
import { CanvasDrawing, type ServedDrawing } from './drawing';
import type { Rect } from '../placement';

export function Canvas({
  editor,
  title,
  routes = null,
  served = null,
}: {
  editor: EditorController;
  title: string;
  /** The server's routing of the first document (a RouteSeed), or null. */
  routes?: unknown;
  /** The server's drawing of the first document, or null. */
  served?: ServedDrawing | null;
}) {
  const host = useRef<HTMLElement>(null);
  /** The dashed line of a relationship being drawn; kept across redraws (a save may land mid-drag). */
  const draft = useRef<SVGLineElement | null>(null);
  const drawing = useRef<CanvasDrawing | null>(null);
  /** Whether the first view has been chosen (openingView, once, after the first drawing). */
  const opened = useRef(false);
  const document = editor.document.value;
  const selection = editor.selection.value;

  // Drawn before the browser paints the render that carries the edit (a layout effect): an effect after
  // paint would show the panels' change one frame before the drawing's.
  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return;
    drawing.current ??= new CanvasDrawing(routes, served);
    const { svg } = drawing.current.draw(element, document, title);
    const box = svg.viewBox.baseVal;
    // Drawn after the layers, so a patched drawing moves it back on top.
    if (draft.current) svg.appendChild(draft.current);
    mark(element, selection);
    // Tells a benchmark or test the drawing of this version is on the page (an attribute, read only by them).
    element.dataset['drawn'] = String(Number(element.dataset['drawn'] ?? '0') + 1);
    editor.measureView = () => {
      const scale = editor.scale.peek();
      const origin = originOf(element, svg);
      return {
        left: box.x + (element.scrollLeft - origin.x) / scale,
        top: box.y + (element.scrollTop - origin.y) / scale,
        width: element.clientWidth / scale,
        height: element.clientHeight / scale,
      };
    };
    if (!opened.current) {
      opened.current = true;
      const start = openingView(document, editor.measureView(), element.clientWidth);
      if (start) editor.viewRequest.value = start;
    }
  }, [document]);

  // After the drawing (declared after its effect), so a Fit asked for with an edit fits the new drawing.
  const request = editor.viewRequest.value;
  useLayoutEffect(() => {
    const element = host.current;
    const svg = element?.querySelector<SVGSVGElement>(':scope > svg');
    if (!element || !svg || !drawing.current || request === null) return;
    const { scale, at } = resolveView(request, element, svg, () => editor.view);
    drawing.current.rescale(scale);
    editor.scale.value = scale;
    const box = svg.viewBox.baseVal;
    const origin = originOf(element, svg);
    element.scrollLeft = origin.x + (at.x - box.x) * scale - at.left;
    element.scrollTop = origin.y + (at.y - box.y) * scale - at.top;
  }, [request]);

  useEffect(() => {
    if (host.current) mark(host.current, selection);
  }, [selection]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // What a drag moves: the selected tables, one group, or one note; written as one edit on release.
    let drag: {
      x: number;
      y: number;
      moved: boolean;
      shapes: SVGGElement[];
      done: (dx: number, dy: number) => void;
    } | null = null;
    const startDrag = (
      event: PointerEvent,
      shapes: SVGGElement[],
      done: (dx: number, dy: number) => void,
    ) => {
      if (!editor.editable) return;
      drag = { x: event.clientX, y: event.clientY, moved: false, shapes, done };
      element.setPointerCapture(event.pointerId);
    };
    // Linking: with the relationship panel open (or Alt held), a drag from a column row to another
    // column row draws a relationship (many-to-one, from the first column to the second).
    let link: { from: string; line: SVGLineElement } | null = null;
    const down = (event: PointerEvent) => {
      const target = event.target as Element;
      const table = target.closest<SVGGElement>('g.dss-table');
      const from = columnAt(target);
      if (editor.editable && from && (event.altKey || editor.panel.value?.kind === 'relationship')) {
        const svg = element.querySelector('svg')!;
        const line = window.document.createElementNS('http://www.w3.org/2000/svg', 'line');
        const point = svgPoint(svg, event);
        for (const [name, value] of [
          ['x1', point.x],
          ['y1', point.y],
          ['x2', point.x],
          ['y2', point.y],
        ] as const)
          line.setAttribute(name, String(value));
        line.setAttribute('class', 'dss-link-draft');
        line.setAttribute('stroke', '#2563eb');
        line.setAttribute('stroke-width', '2');
        line.setAttribute('stroke-dasharray', '6 4');
        svg.appendChild(line);
        link = { from, line };
        draft.current = line;
        event.preventDefault();
        element.setPointerCapture(event.pointerId);
        return;
      }
      const note = table ? null : target.closest<SVGGElement>('g.dss-note');
      const group = table || note ? null : target.closest<SVGGElement>('g.dss-group');
      if (note) {
        const uuid = note.dataset['note'] ?? '';
        editor.openPanel({ kind: 'note', uuid });
        return startDrag(event, [note], (dx, dy) => editor.changeNote(uuid, { dx, dy }));
      }
      if (group) {
        const name = group.dataset['group'] ?? '';
        editor.openPanel({ kind: 'group', name });
        return startDrag(event, [group], (dx, dy) => editor.moveGroup(name, dx, dy));
      }
      if (!table) {
        if (!event.shiftKey) editor.selection.value = [];
        return;
      }
      const name = table.dataset['table'] ?? '';
      const current = editor.selection.value;
      if (event.shiftKey)
        editor.selection.value = current.includes(name)
          ? current.filter((n) => n !== name)
          : [...current, name];
      else if (!current.includes(name)) editor.select([name]);
      else editor.openPanel({ kind: 'table', table: name });
      const shapes = editor.selection.value
        .map((selected) =>
          element.querySelector<SVGGElement>(`g.dss-table[data-table="${CSS.escape(selected)}"]`),
        )
        .filter((g) => g !== null);
      startDrag(event, shapes, (dx, dy) => editor.nudge(dx, dy, true));
    };
    const move = (event: PointerEvent) => {
      if (link) {
        const point = svgPoint(element.querySelector('svg')!, event);
        link.line.setAttribute('x2', String(point.x));
        link.line.setAttribute('y2', String(point.y));
        return;
      }
      if (!drag) return;
      const scale = editor.scale.peek();
      const dx = (event.clientX - drag.x) / scale;
      const dy = (event.clientY - drag.y) / scale;
      if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 3) drag.moved = true;
      for (const shape of drag.shapes) {
        shape.setAttribute('transform', `translate(${dx} ${dy})`);
        shape.classList.add('dragging');
      }
    };
    const up = (event: PointerEvent) => {
      if (link) {
        const { from, line } = link;
        link = null;
        draft.current = null;
        line.remove();
        // Pointer capture sends the release to the canvas: the row under the pointer is looked up.
        const to = columnAt(window.document.elementFromPoint(event.clientX, event.clientY));
        if (to && to !== from) editor.link(from, to);
        return;
      }
      if (!drag) return;
      const { moved, x, y, done } = drag;
      drag = null;
      const scale = editor.scale.peek();
      if (moved) done(Math.round((event.clientX - x) / scale), Math.round((event.clientY - y) / scale));
    };
    // Ctrl or ⌘ with the wheel (a trackpad's pinch arrives so too) zooms around the pointer; the wheel
    // alone scrolls, as in any page.
    const wheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      const svg = element.querySelector<SVGSVGElement>(':scope > svg');
      if (!svg) return;
      event.preventDefault();
      const point = svgPoint(svg, event);
      const frame = element.getBoundingClientRect();
      const pixels = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      editor.zoomBy(Math.exp(-pixels * WHEEL_ZOOM_PER_PIXEL), {
        x: point.x,
        y: point.y,
        left: event.clientX - frame.left - element.clientLeft,
        top: event.clientY - frame.top - element.clientTop,
      });
    };
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
    element.addEventListener('wheel', wheel, { passive: false });
    return () => {
      element.removeEventListener('wheel', wheel);
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
    };
  }, []);

  // A section with a name is a region. It takes focus: it scrolls (WCAG: a scrollable region must be
  // reachable by keyboard) and the arrow keys and Delete act on its selection.
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling canvas that keys act on, see above
    <section class="editor-canvas" ref={host} id="editor-canvas" aria-label="Diagram" tabIndex={0} />
  );
}

/** `table.column` of the column row an element is in, from the row's place in its table's drawing. */
function columnAt(target: Element | null): string | null {
  const row = target?.closest<SVGGElement>('g.dss-column');
  const table = row?.closest<SVGGElement>('g.dss-table');
  if (!row || !table) return null;
  const rows = Array.from(table.querySelectorAll('g.dss-column'));
  const name = row.querySelector('text.dss-column-name')?.textContent?.trim();
  return name && rows.includes(row) ? `${table.dataset['table'] ?? ''}.${name}` : null;
}

/** The pointer's place in the drawing's units, at any zoom (the SVG's own screen transform). */
function svgPoint(svg: SVGSVGElement, event: MouseEvent): { x: number; y: number } {
  const matrix = svg.getScreenCTM();
  if (matrix === null) return { x: 0, y: 0 };
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return { x: Math.round(point.x), y: Math.round(point.y) };
}

/**
 * Where the drawing's top left corner is in the canvas's scrolled content (CSS pixels): not 0 when the
 * drawing is smaller than the canvas and stands in its middle.
 */
function originOf(element: HTMLElement, svg: SVGSVGElement): { x: number; y: number } {
  const frame = element.getBoundingClientRect();
  const drawn = svg.getBoundingClientRect();
  return {
    x: drawn.left - frame.left - element.clientLeft + element.scrollLeft,
    y: drawn.top - frame.top - element.clientTop + element.scrollTop,
  };
}

/** How much a pixel of wheel travel zooms (a notch of about 100 px: a fifth). */
const WHEEL_ZOOM_PER_PIXEL = 0.002;
/** Free space, in CSS pixels, around a fitted drawing. */
const FIT_MARGIN = 16;

/** The scale a request asks for and the drawing's point to keep (or put) where in the view. */
function resolveView(
  request: ViewRequest,
  element: HTMLElement,
  svg: SVGSVGElement,
  view: () => Rect,
): { scale: number; at: ViewAnchor } {
  const box = svg.viewBox.baseVal;
  const width = element.clientWidth;
  const height = element.clientHeight;
  if (request.kind === 'fit') {
    const scale = clampScale(
      Math.min(
        1,
        (width - 2 * FIT_MARGIN) / Math.max(box.width, 1),
        (height - 2 * FIT_MARGIN) / Math.max(box.height, 1),
      ),
    );
    // The drawing's middle in the view's middle (the browser keeps the scroll in range when it is smaller).
    const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    return { scale, at: { ...middle, left: width / 2, top: height / 2 } };
  }
  if (request.at) return { scale: request.scale, at: request.at };
  // The middle of what is in view now stays in the middle.
  const shown = view();
  const middle = { x: shown.left + shown.width / 2, y: shown.top + shown.height / 2 };
  return { scale: request.scale, at: { ...middle, left: width / 2, top: height / 2 } };
}

/** Space above the header of the table the first view opens on, in CSS pixels. */
const OPENING_MARGIN = 24;

/**
 * The first view: at 100% from the drawing's top-left corner, unless no table is there (a large schema laid
 * out around its hubs leaves that corner empty). Then it opens at 100% on the table with the most
 * relationships (ties: the first), centred across with its header at the top of the canvas: the table
 * the schema hangs on, among its neighbours, rather than an empty canvas.
 */
export function openingView(
  document: Pick<DiagramDocument, 'tables' | 'relationships'>,
  view: Rect,
  canvasWidth: number,
): ViewRequest | null {
  const seen = (table: Rect) =>
    table.left < view.left + view.width &&
    table.left + table.width > view.left &&
    table.top < view.top + view.height &&
    table.top + table.height > view.top;
  if (document.tables.length === 0 || document.tables.some(seen)) return null;
  const links = new Map<string, number>();
  for (const link of document.relationships)
    for (const name of new Set([link.source_table, link.target_table]))
      links.set(name, (links.get(name) ?? 0) + 1);
  let hub = document.tables[0]!;
  for (const table of document.tables)
    if ((links.get(table.name) ?? 0) > (links.get(hub.name) ?? 0)) hub = table;
  return {
    kind: 'scale',
    scale: 1,
    at: { x: hub.left + hub.width / 2, y: hub.top, left: canvasWidth / 2, top: OPENING_MARGIN },
  };
}

function mark(element: HTMLElement, selection: string[]): void {
  const selected = new Set(selection);
  for (const group of Array.from(element.querySelectorAll<SVGGElement>('g.dss-table')))
    group.classList.toggle('selected', selected.has(group.dataset['table'] ?? ''));
}
