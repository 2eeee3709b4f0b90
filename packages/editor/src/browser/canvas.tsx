// The drawing: the server's renderer (the same code as every other page) draws the document into a
// scrolling canvas at 1:1 scale; after an edit only the changed tables and lines are drawn again
// (CanvasDrawing). A press on a table selects it (Shift
// adds to the selection); dragging moves every selected table, written as one edit when released.
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { EditorController } from './controller';
import { CanvasDrawing, type ServedDrawing } from './drawing';

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
    editor.measureView = () => ({
      left: box.x + element.scrollLeft,
      top: box.y + element.scrollTop,
      width: element.clientWidth,
      height: element.clientHeight,
    });
  }, [document]);

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
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
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
      if (moved) done(event.clientX - x, event.clientY - y);
    };
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
    return () => {
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

/** The pointer's place in the drawing's units (the canvas shows it at 1:1 from the viewBox origin). */
function svgPoint(svg: SVGSVGElement, event: PointerEvent): { x: number; y: number } {
  const box = svg.viewBox.baseVal;
  const rect = svg.getBoundingClientRect();
  return {
    x: Math.round(event.clientX - rect.left + box.x),
    y: Math.round(event.clientY - rect.top + box.y),
  };
}

function mark(element: HTMLElement, selection: string[]): void {
  const selected = new Set(selection);
  for (const group of Array.from(element.querySelectorAll<SVGGElement>('g.dss-table')))
    group.classList.toggle('selected', selected.has(group.dataset['table'] ?? ''));
}
