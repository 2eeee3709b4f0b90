// Zoom and pan for every drawn diagram on a page (bundled by scripts/bundle.js into dist/browser/viewport.js,
// served as /assets/viewport.js). d3-zoom does the gestures: the wheel or a pinch zooms around the pointer,
// a drag pans. Buttons zoom in and out, fit the whole diagram and show it at 100% (column text at its
// 12 px); keys + - 0 1 do the same while the diagram has focus. The first view fits the whole diagram.
// Diagrams of 20 tables or more get a search box that centres a table, and a minimap while zoomed in:
// every table as a box, the part in view as a frame, and a press or drag on it moves the view there.
// Nothing is sent anywhere.
import { addGroups } from './groups';
import { type Selection, select } from 'd3-selection';
import {
  type D3ZoomEvent,
  type ZoomBehavior,
  type ZoomTransform,
  zoom,
  zoomIdentity,
  zoomTransform,
} from 'd3-zoom';
import { Emphasis } from './emphasis';
import { LiveLines, type Offset } from './live-lines';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SEARCH_FROM_TABLES = 20;
/** Free space, in CSS pixels, between the controls and the nearest table of a fitted view. */
const CONTROLS_CLEARANCE = 8;
/** Space kept between a diagram sized to end inside the window and the window's bottom edge, in CSS pixels. */
const WINDOW_MARGIN = 16;
/** A diagram is not made shorter than this to end inside the window (the stylesheet's min-height). */
const MIN_VIEW_HEIGHT = 320;
/** How far in a person can zoom, relative to 100% (text 12 px → 48 px). */
const MAX_ZOOM_OVER_ACTUAL = 4;

interface Viewport {
  /** While true, dragging a table moves it instead of panning the drawing. */
  arranging: boolean;
  /** User units per CSS pixel at the current zoom. */
  unitsPerPixel(): number;
  fit(): void;
  actualSize(): void;
  zoomBy(factor: number): void;
  centreOn(table: SVGGElement): void;
  /** Zooms (never past actual size) and pans so the marked parts fill the view; the whole when none. */
  focusOnChanges(): void;
  /** Zooms (never past actual size) and pans so the parts fill the view below the controls. */
  showParts(parts: Iterable<SVGGraphicsElement>): void;
  /** Pans, at the current zoom, so the drawing's point (x, y) is in the middle of the view. */
  centreAt(x: number, y: number): void;
  /** The drawing's units of the table boxes and of what is in view (for the minimap). */
  readonly layer: SVGGElement;
  /** Called after every change of zoom or pan. */
  onChange(listener: () => void): void;
}

/** Sets up every `figure.diagram` holding an `svg.dss-diagram` that has not been set up yet. */
export function enableViewports(root: ParentNode = document): void {
  // Pages without a DOM to query (the bundle's own tests run it in a bare script context) get nothing.
  if (typeof root?.querySelectorAll !== 'function') return;
  for (const figure of Array.from(root.querySelectorAll<HTMLElement>('figure.diagram'))) {
    const svg = figure.querySelector<SVGSVGElement>('svg.dss-diagram');
    if (svg === null || figure.dataset['viewport'] === 'ready') continue;
    figure.dataset['viewport'] = 'ready';
    endInsideWindow(figure);
    // A live update replaces the figure (and sets the new one up): the old one's listener goes with it.
    let sizing = 0;
    const resized = () => {
      cancelAnimationFrame(sizing);
      if (figure.isConnected) sizing = requestAnimationFrame(() => endInsideWindow(figure));
      else window.removeEventListener('resize', resized);
    };
    window.addEventListener('resize', resized);
    const viewport = attach(figure, svg);
    if (viewport === null) continue;
    addControls(figure, svg, viewport);
    // The first view fits the whole diagram clear of the controls; a review shows the change first: the
    // view closes in on what the highlight marks.
    viewport.fit();
    if (figure.dataset['focus'] === 'changes') viewport.focusOnChanges();
  }
}

/**
 * The first view shows the whole diagram without scrolling the page: a figure whose stylesheet height (75% of
 * the window) would end below the window, the page scrolled to its top, ends WINDOW_MARGIN above the
 * window's bottom instead, unless that leaves it shorter than MIN_VIEW_HEIGHT (the page then scrolls, as
 * before). A figure that ends inside the window (the embed view's full window) keeps its height.
 */
function endInsideWindow(figure: HTMLElement): void {
  figure.style.removeProperty('height');
  const box = figure.getBoundingClientRect();
  const top = box.top + window.scrollY;
  const room = Math.floor(window.innerHeight - top - WINDOW_MARGIN);
  if (top + box.height > window.innerHeight && room >= MIN_VIEW_HEIGHT) figure.style.height = `${room}px`;
}

function attach(figure: HTMLElement, svg: SVGSVGElement): Viewport | null {
  const box = svg.viewBox.baseVal;
  if (box === null || box.width === 0 || box.height === 0) return null;
  // Everything drawn moves inside one group; the svg keeps the viewBox that fits the whole diagram.
  const layer = document.createElementNS(SVG_NS, 'g');
  layer.setAttribute('class', 'dss-viewport');
  for (const child of Array.from(svg.childNodes))
    if ((child as Element).nodeName !== 'title') layer.appendChild(child);
  svg.appendChild(layer);
  svg.setAttribute('width', '100%');
  svg.setAttribute('height', '100%');
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');

  /** CSS pixels per viewBox unit when the transform is the identity (the fitted first view). */
  const fittedScale = () => {
    const { width, height } = svg.getBoundingClientRect();
    return Math.min(width / box.width, height / box.height) || 1;
  };
  const state = { arranging: false };
  const listeners: (() => void)[] = [];
  const behaviour: ZoomBehavior<SVGSVGElement, unknown> = zoom<SVGSVGElement, unknown>()
    // In arrange mode a press on a table starts moving it, not panning.
    .filter((event: Event) => {
      const target = event.target as Element | null;
      if (
        state.arranging &&
        event.type !== 'wheel' &&
        target?.closest('g.dss-table, g.dss-group, g.dss-note')
      )
        return false;
      return (!(event as MouseEvent).ctrlKey || event.type === 'wheel') && !(event as MouseEvent).button;
    })
    .scaleExtent([0.2, Math.max(8, MAX_ZOOM_OVER_ACTUAL / fittedScale())])
    .on('zoom', (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
      layer.setAttribute('transform', event.transform.toString());
      figure.dataset['zoom'] = String(Math.round(event.transform.k * fittedScale() * 100));
      for (const listener of listeners) listener();
    });
  const selection: Selection<SVGSVGElement, unknown, null, undefined> = select(svg);
  selection.call(behaviour).on('dblclick.zoom', null);
  figure.dataset['zoom'] = String(Math.round(fittedScale() * 100));

  const centre = () => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  /** Height in CSS pixels of the strip at the top of the view that the page's controls cover. */
  const coveredTop = () => {
    const bar = figure.querySelector<HTMLElement>(':scope > .dss-zoom-controls');
    if (bar === null) return 0;
    const view = svg.getBoundingClientRect();
    return Math.max(0, bar.getBoundingClientRect().bottom - view.top + CONTROLS_CLEARANCE);
  };
  /**
   * The whole drawing in view, and no table under the controls: when the plain fit puts a table under the
   * toolbar, the drawing is fitted into the part of the view below it instead.
   */
  const fittedTransform = (): ZoomTransform => {
    const band = coveredTop();
    const bar = figure.querySelector<HTMLElement>(':scope > .dss-zoom-controls');
    if (band === 0 || bar === null) return zoomIdentity;
    const view = svg.getBoundingClientRect();
    const s = fittedScale();
    const toScreen = (x: number, y: number) => ({
      x: view.left + view.width / 2 + (x - (box.x + box.width / 2)) * s,
      y: view.top + view.height / 2 + (y - (box.y + box.height / 2)) * s,
    });
    const controls = bar.getBoundingClientRect();
    const covered = Array.from(layer.querySelectorAll<SVGRectElement>('g.dss-table rect.dss-box')).some(
      (rect) => {
        const from = toScreen(rect.x.baseVal.value, rect.y.baseVal.value);
        const to = toScreen(
          rect.x.baseVal.value + rect.width.baseVal.value,
          rect.y.baseVal.value + rect.height.baseVal.value,
        );
        return (
          from.x < controls.right + CONTROLS_CLEARANCE &&
          to.x > controls.left - CONTROLS_CLEARANCE &&
          from.y < controls.bottom + CONTROLS_CLEARANCE &&
          to.y > controls.top - CONTROLS_CLEARANCE
        );
      },
    );
    if (!covered) return zoomIdentity;
    // In viewBox units: the part of the view below the band, and the drawing scaled and centred into it.
    const width = view.width / s;
    const height = view.height / s;
    const free = height - band / s;
    const k = Math.min(width / box.width, free / box.height, 1);
    const middle = centre();
    const freeMiddleY = middle.y - height / 2 + band / s + free / 2;
    return zoomIdentity.translate(middle.x, freeMiddleY).scale(k).translate(-middle.x, -middle.y);
  };
  const scaleAbout = (k: number, x: number, y: number) => {
    // Keep (x, y), in viewBox units, at the middle of the view.
    const middle = centre();
    return zoomIdentity.translate(middle.x, middle.y).scale(k).translate(-x, -y);
  };
  return {
    get arranging() {
      return state.arranging;
    },
    set arranging(value: boolean) {
      state.arranging = value;
    },
    layer,
    onChange(listener: () => void) {
      listeners.push(listener);
    },
    centreAt(x: number, y: number) {
      selection.call(behaviour.transform, scaleAbout(zoomTransform(svg).k, x, y));
    },
    unitsPerPixel() {
      const matrix = layer.getScreenCTM();
      return matrix && matrix.a !== 0 ? 1 / matrix.a : 1;
    },
    fit() {
      selection.call(behaviour.transform, fittedTransform());
    },
    actualSize() {
      behaviour.scaleExtent([0.2, Math.max(8, MAX_ZOOM_OVER_ACTUAL / fittedScale())]);
      const k = 1 / fittedScale();
      const current = centre();
      selection.call(behaviour.transform, scaleAbout(k, current.x, current.y));
    },
    zoomBy(factor: number) {
      selection.call(behaviour.scaleBy, factor);
    },
    centreOn(table: SVGGElement) {
      const bounds = (table.querySelector<SVGRectElement>('rect.dss-box') ?? table).getBBox();
      const k = Math.max(1 / fittedScale(), 1);
      // Centred, unless the table is taller (or wider) than the view below the controls: then its header
      // (its left edge) goes to the top (left) of that part of the view, so the name is what one sees.
      const view = svg.getBoundingClientRect();
      const unitsPerPixel = 1 / (fittedScale() * k);
      const band = coveredTop() * unitsPerPixel;
      const margin = 16 * unitsPerPixel;
      const visibleWidth = view.width * unitsPerPixel;
      const visibleHeight = view.height * unitsPerPixel;
      const x =
        bounds.width + 2 * margin > visibleWidth
          ? bounds.x - margin + visibleWidth / 2
          : bounds.x + bounds.width / 2;
      const y =
        bounds.height + 2 * margin > visibleHeight - band
          ? bounds.y - margin - band + visibleHeight / 2
          : bounds.y + bounds.height / 2 - band / 2;
      selection.call(behaviour.transform, scaleAbout(k, x, y));
      table.classList.add('dss-found');
      window.setTimeout(() => table.classList.remove('dss-found'), 1600);
    },
    focusOnChanges() {
      const parts = new Set<SVGGraphicsElement>();
      for (const marked of Array.from(
        layer.querySelectorAll<SVGGraphicsElement>('.dss-added, .dss-changed, .dss-removed'),
      ))
        parts.add(
          marked.closest<SVGGraphicsElement>('g.dss-table, g.dss-relationship, g.dss-note, g.dss-group') ??
            marked,
        );
      this.showParts(parts);
    },
    showParts(parts: Iterable<SVGGraphicsElement>) {
      let union: { x0: number; y0: number; x1: number; y1: number } | null = null;
      for (const part of parts) {
        const b = part.getBBox();
        if (b.width === 0 && b.height === 0) continue;
        union =
          union === null
            ? { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height }
            : {
                x0: Math.min(union.x0, b.x),
                y0: Math.min(union.y0, b.y),
                x1: Math.max(union.x1, b.x + b.width),
                y1: Math.max(union.y1, b.y + b.height),
              };
      }
      if (union === null) return;
      const margin = 40;
      const view = svg.getBoundingClientRect();
      const s = fittedScale();
      // In viewBox units at k = 1: the whole view, and the strip the controls cover.
      const width = view.width / s;
      const height = view.height / s;
      const band = coveredTop() / s;
      const k = Math.min(
        width / (union.x1 - union.x0 + 2 * margin),
        (height - band) / (union.y1 - union.y0 + 2 * margin),
        Math.max(1, 1 / s),
      );
      if (k <= 1.05) {
        this.fit();
        return;
      }
      // The parts' middle at the middle of the view below the controls.
      const y = (union.y0 + union.y1) / 2 - band / (2 * k);
      selection.call(behaviour.transform, scaleAbout(k, (union.x0 + union.x1) / 2, y));
    },
  };
}

function addControls(figure: HTMLElement, svg: SVGSVGElement, viewport: Viewport): void {
  const bar = document.createElement('div');
  bar.className = 'dss-zoom-controls';
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', 'Zoom');
  const button = (label: string, title: string, action: () => void, name: string) => {
    const element = document.createElement('button');
    element.type = 'button';
    element.textContent = label;
    element.title = title;
    element.setAttribute('aria-label', title);
    element.dataset['zoomAction'] = name;
    element.addEventListener('click', action);
    bar.appendChild(element);
  };
  button('+', 'Zoom in (+)', () => viewport.zoomBy(1.4), 'in');
  button('−', 'Zoom out (−)', () => viewport.zoomBy(1 / 1.4), 'out');
  button('Fit', 'Fit the whole diagram (0)', () => viewport.fit(), 'fit');
  // The accessible name holds the visible label (WCAG 2.5.3, label in name): "100%", then what it does.
  button('100%', '100%, actual size (1)', () => viewport.actualSize(), 'actual');

  const tables = Array.from(svg.querySelectorAll<SVGGElement>('g.dss-table[data-table]'));
  if (tables.length >= SEARCH_FROM_TABLES) {
    const search = document.createElement('input');
    search.type = 'search';
    search.placeholder = 'Find a table';
    search.setAttribute('aria-label', 'Find a table');
    search.className = 'dss-table-search';
    const listId = `dss-tables-${Math.random().toString(36).slice(2)}`;
    const list = document.createElement('datalist');
    list.id = listId;
    for (const name of [...new Set(tables.map((table) => table.dataset['table'] ?? ''))].sort()) {
      const option = document.createElement('option');
      option.value = name;
      list.appendChild(option);
    }
    search.setAttribute('list', listId);
    const find = () => {
      const wanted = search.value.trim().toLowerCase();
      if (wanted === '') return;
      const found =
        tables.find((table) => (table.dataset['table'] ?? '').toLowerCase() === wanted) ??
        tables.find((table) => (table.dataset['table'] ?? '').toLowerCase().includes(wanted));
      if (found) viewport.centreOn(found);
    };
    search.addEventListener('change', find);
    search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') find();
    });
    bar.append(search, list);
    addMinimap(figure, svg, viewport, tables);
  }
  addFocus(figure, svg, viewport, bar);
  addGroups(figure, svg, bar);
  // A copy of a busy table (hub-copies.ts): a double click goes to the table itself, instead of zooming in.
  figure.addEventListener(
    'dblclick',
    (event) => {
      const copy = (event.target as Element).closest<SVGGElement>('g.dss-table-copy[data-table-copy]');
      if (copy === null) return;
      const table = Array.from(svg.querySelectorAll<SVGGElement>('g.dss-table[data-table]')).find(
        (each) => each.dataset['table'] === copy.dataset['tableCopy'],
      );
      if (table === undefined) return;
      event.stopPropagation();
      event.preventDefault();
      viewport.centreOn(table);
    },
    { capture: true },
  );
  const layoutForm = document.getElementById('layout-form') as HTMLFormElement | null;
  if (layoutForm !== null) addArranging(bar, svg, viewport, layoutForm);
  figure.prepend(bar);

  figure.tabIndex = 0;
  figure.addEventListener('keydown', (event) => {
    if ((event.target as HTMLElement).tagName === 'INPUT') return;
    const actions: Record<string, () => void> = {
      '+': () => viewport.zoomBy(1.4),
      '=': () => viewport.zoomBy(1.4),
      '-': () => viewport.zoomBy(1 / 1.4),
      _: () => viewport.zoomBy(1 / 1.4),
      '0': () => viewport.fit(),
      '1': () => viewport.actualSize(),
    };
    const action = actions[event.key];
    if (action && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      action();
    }
  });
}

/**
 * Emphasis of what the pointer is on (see emphasis.ts), the line under the drawing that names a selected
 * relationship, and the "Show" choice of the toolbar: all tables, or Focus mode (the selected table, or on a
 * review the changed ones, with their neighbours to depth 1 or 2), which zooms to what it shows.
 */
function addFocus(figure: HTMLElement, svg: SVGSVGElement, viewport: Viewport, bar: HTMLElement): void {
  const info = document.createElement('p');
  info.className = 'dss-relationship-info';
  info.setAttribute('role', 'status');
  info.hidden = true;
  figure.appendChild(info);
  const emphasis = new Emphasis(svg, info);
  const choice = document.createElement('select');
  choice.className = 'dss-focus-choice';
  choice.dataset['zoomAction'] = 'focus';
  choice.title = 'Show every table, or only the selected table and its neighbours (click a table first)';
  choice.setAttribute('aria-label', 'Show');
  for (const [value, label] of [
    ['0', 'All tables'],
    ['1', 'Focus: neighbours'],
    ['2', 'Focus: 2 steps'],
  ] as const) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    choice.appendChild(option);
  }
  const showFocused = () => {
    if (emphasis.focusing === 0) viewport.fit();
    else viewport.showParts(Array.from(svg.querySelectorAll<SVGGElement>('g.dss-table.dss-in-focus')));
  };
  choice.addEventListener('change', () => {
    emphasis.setFocusDepth(Number(choice.value));
    showFocused();
  });
  const refresh = () => {
    choice.disabled = emphasis.centre.size === 0;
    if (choice.disabled && choice.value !== '0') {
      choice.value = '0';
      emphasis.setFocusDepth(0);
      viewport.fit();
    }
  };
  // Selecting another table while in Focus mode moves the focus there.
  emphasis.onChange(() => {
    const before = choice.disabled;
    refresh();
    if (!before && emphasis.focusing > 0) showFocused();
  });
  figure.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') emphasis.select(null, null);
  });
  refresh();
  bar.appendChild(choice);
}

/** A point of the page (client coordinates) in the user units of `element`. */
function toUnits(element: SVGGraphicsElement, x: number, y: number): { x: number; y: number } {
  const matrix = element.getScreenCTM();
  if (matrix === null) return { x: 0, y: 0 };
  const point = new DOMPoint(x, y).matrixTransform(matrix.inverse());
  return { x: point.x, y: point.y };
}

/**
 * The minimap of a large diagram: in the figure's corner, every table as a box in the drawing's units,
 * and a frame over the part in view, kept current on every zoom and pan; shown only while part of the
 * drawing is out of view. Pressing or dragging on it puts that point in the middle of the view, at the
 * same zoom.
 */
function addMinimap(
  figure: HTMLElement,
  svg: SVGSVGElement,
  viewport: Viewport,
  tables: readonly SVGGElement[],
): void {
  const { layer } = viewport;
  const boxOf = (element: Element) => {
    const rect = element.getBoundingClientRect();
    const from = toUnits(layer, rect.left, rect.top);
    const to = toUnits(layer, rect.right, rect.bottom);
    return { x: from.x, y: from.y, width: to.x - from.x, height: to.y - from.y };
  };
  const boxes = tables.map((table) => ({ name: table.dataset['table'] ?? '', ...boxOf(table) }));
  if (boxes.length === 0) return;
  const margin = 40;
  const x0 = Math.min(...boxes.map((b) => b.x)) - margin;
  const y0 = Math.min(...boxes.map((b) => b.y)) - margin;
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)) + margin;
  const y1 = Math.max(...boxes.map((b) => b.y + b.height)) + margin;

  const map = document.createElementNS(SVG_NS, 'svg');
  map.setAttribute('class', 'dss-minimap');
  map.setAttribute('viewBox', `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
  map.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  map.setAttribute('role', 'img');
  map.setAttribute('aria-label', 'Minimap: press or drag to move the view');
  // Wide drawings get a wide map, tall ones a tall map, within 200 × 140 px.
  const scale = Math.min(200 / (x1 - x0), 140 / (y1 - y0));
  map.style.width = `${Math.round((x1 - x0) * scale)}px`;
  map.style.height = `${Math.round((y1 - y0) * scale)}px`;
  for (const box of boxes) {
    const rect = document.createElementNS(SVG_NS, 'rect');
    rect.setAttribute('class', 'dss-minimap-table');
    rect.setAttribute('x', String(box.x));
    rect.setAttribute('y', String(box.y));
    rect.setAttribute('width', String(box.width));
    rect.setAttribute('height', String(box.height));
    rect.dataset['minimapTable'] = box.name;
    map.appendChild(rect);
  }
  const frame = document.createElementNS(SVG_NS, 'rect');
  frame.setAttribute('class', 'dss-minimap-view');
  frame.setAttribute('vector-effect', 'non-scaling-stroke');
  map.appendChild(frame);
  const showView = () => {
    const shown = boxOf(svg);
    frame.setAttribute('x', String(shown.x));
    frame.setAttribute('y', String(shown.y));
    frame.setAttribute('width', String(shown.width));
    frame.setAttribute('height', String(shown.height));
    // While every table is in view the map adds nothing, and it would cover part of the drawing.
    const whole =
      shown.x <= x0 + margin &&
      shown.y <= y0 + margin &&
      shown.x + shown.width >= x1 - margin &&
      shown.y + shown.height >= y1 - margin;
    map.style.display = whole ? 'none' : '';
  };
  viewport.onChange(showView);

  let pressed = false;
  const move = (event: PointerEvent) => {
    const point = toUnits(map, event.clientX, event.clientY);
    viewport.centreAt(point.x, point.y);
  };
  map.addEventListener('pointerdown', (event) => {
    pressed = true;
    map.setPointerCapture(event.pointerId);
    move(event);
    event.preventDefault();
  });
  map.addEventListener('pointermove', (event) => {
    if (pressed) move(event);
  });
  const release = () => {
    pressed = false;
  };
  map.addEventListener('pointerup', release);
  map.addEventListener('pointercancel', release);
  figure.appendChild(map);
  showView();
}

/**
 * Arrange by hand (owners and editors: the page carries the layout form): "Arrange" lets a drag move a
 * table; "Save layout" posts the moved tables' new positions, which become a new version. Lines to a
 * moved table follow it while it is dragged (routed again around the tables where they now stand).
 */
function addArranging(bar: HTMLElement, svg: SVGSVGElement, viewport: Viewport, form: HTMLFormElement): void {
  interface Moved {
    kind: 'tables' | 'groups' | 'notes';
    g: SVGGElement;
    left: number;
    top: number;
    dx: number;
    dy: number;
  }
  const moved = new Map<string, Moved>();
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.textContent = 'Arrange';
  toggle.title = 'Move tables, groups and notes by dragging them';
  toggle.dataset['zoomAction'] = 'arrange';
  const save = document.createElement('button');
  save.type = 'button';
  save.textContent = 'Save layout';
  save.dataset['zoomAction'] = 'save-layout';
  save.hidden = true;
  save.disabled = true;
  toggle.addEventListener('click', () => {
    viewport.arranging = !viewport.arranging;
    toggle.setAttribute('aria-pressed', String(viewport.arranging));
    svg.classList.toggle('dss-arranging', viewport.arranging);
    save.hidden = !viewport.arranging && moved.size === 0;
  });
  save.addEventListener('click', () => {
    const positions: Record<'tables' | 'groups' | 'notes', Record<string, [number, number]>> = {
      tables: {},
      groups: {},
      notes: {},
    };
    for (const [key, entry] of moved) {
      const name = key.slice(key.indexOf(':') + 1);
      positions[entry.kind][name] = [entry.left + entry.dx, entry.top + entry.dy];
    }
    (form.elements.namedItem('positions') as HTMLInputElement).value = JSON.stringify(positions);
    form.submit();
  });
  bar.append(toggle, save);

  const boxOf = (g: SVGGElement) =>
    g.querySelector<SVGRectElement>('rect.dss-box, rect.dss-frame, rect.dss-card');
  const track = (kind: Moved['kind'], g: SVGGElement, name: string): Moved => {
    const key = `${kind}:${name}`;
    let entry = moved.get(key);
    if (!entry) {
      const box = boxOf(g);
      entry = { kind, g, left: box?.x.baseVal.value ?? 0, top: box?.y.baseVal.value ?? 0, dx: 0, dy: 0 };
      moved.set(key, entry);
    }
    return entry;
  };
  /** What one drag moves: a table, or a group frame with the tables inside it. */
  let dragging: { entries: Moved[]; names: Set<string>; x: number; y: number } | null = null;
  /** Read from the drawing at the first move, before any table has been moved. */
  let lines: LiveLines | null = null;
  svg.addEventListener('pointerdown', (event) => {
    if (!viewport.arranging) return;
    const target = event.target as Element;
    const table = target.closest<SVGGElement>('g.dss-table[data-table]');
    const note = table ? null : target.closest<SVGGElement>('g.dss-note[data-note]');
    const group = table || note ? null : target.closest<SVGGElement>('g.dss-group[data-group]');
    if (table === null && group === null && note === null) return;
    const entries: Moved[] = [];
    const names = new Set<string>();
    if (table !== null) {
      const name = table.dataset['table'] ?? '';
      entries.push(track('tables', table, name));
      names.add(name);
    } else if (note !== null) {
      entries.push(track('notes', note, note.dataset['note'] ?? ''));
    } else if (group !== null) {
      entries.push(track('groups', group, group.dataset['group'] ?? ''));
      const frame = boxOf(group)!.getBBox();
      // The tables and notes inside the frame move with it.
      for (const member of Array.from(
        svg.querySelectorAll<SVGGElement>('g.dss-table[data-table], g.dss-note[data-note]'),
      )) {
        const kind = member.dataset['table'] !== undefined ? 'tables' : 'notes';
        const memberName = (kind === 'tables' ? member.dataset['table'] : member.dataset['note']) ?? '';
        // A note of the group (drawn beside it or inside) always goes with it.
        if (kind === 'notes' && member.dataset['groupMember'] === group.dataset['group']) {
          entries.push(track(kind, member, memberName));
          continue;
        }
        const box = boxOf(member)!.getBBox();
        const entry = moved.get(`${kind}:${memberName}`);
        const left = box.x + (entry?.dx ?? 0);
        const top = box.y + (entry?.dy ?? 0);
        const groupEntry = moved.get(`groups:${group.dataset['group']}`)!;
        const fx = frame.x + groupEntry.dx;
        const fy = frame.y + groupEntry.dy;
        if (
          left >= fx &&
          top >= fy &&
          left + box.width <= fx + frame.width &&
          top + box.height <= fy + frame.height
        ) {
          entries.push(track(kind, member, memberName));
          if (kind === 'tables') names.add(memberName);
        }
      }
    }
    dragging = { entries, names, x: event.clientX, y: event.clientY };
    svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  svg.addEventListener('pointermove', (event) => {
    if (dragging === null) return;
    const scale = viewport.unitsPerPixel();
    const dx = (event.clientX - dragging.x) * scale;
    const dy = (event.clientY - dragging.y) * scale;
    dragging.x = event.clientX;
    dragging.y = event.clientY;
    for (const entry of dragging.entries) {
      entry.dx += dx;
      entry.dy += dy;
      entry.g.setAttribute('transform', `translate(${entry.dx.toFixed(1)},${entry.dy.toFixed(1)})`);
    }
    const offsets = new Map<string, Offset>();
    for (const [key, entry] of moved)
      if (entry.kind === 'tables') offsets.set(key.slice('tables:'.length), entry);
    lines ??= new LiveLines(svg);
    lines.follow(offsets, dragging.names);
    save.disabled = false;
  });
  const stop = () => {
    dragging = null;
  };
  svg.addEventListener('pointerup', stop);
  svg.addEventListener('pointercancel', stop);
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', () => enableViewports());
  else enableViewports();
}
