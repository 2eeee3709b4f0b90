// Collapsible groups on the diagram page. A collapsed group is one card amid its tables, labelled with its
// name and how many tables it holds; its tables and their lines are hidden, and its relationships become
// one line per neighbour: another group (collapsed or not) or a table in no group, whatever the number of
// foreign keys between them (the line's title says how many). "Collapse groups" in the toolbar collapses
// them all, a collapsed box expands its group (click, Enter or Space), and a diagram of more than
// OFFER_FROM_TABLES tables in groups offers to open with its groups collapsed. Each group's frame has its
// own "Collapse group <name>" button beside its label, so one group can be folded away alone.
const SVG = 'http://www.w3.org/2000/svg';
export const OFFER_FROM_TABLES = 100;

const CARD = { width: 360, height: 120 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Unit {
  /** `group:<name>` for a group, `table:<name>` for a table in no group. */
  key: string;
  box: () => Box;
}

export function addGroups(figure: HTMLElement, svg: SVGSVGElement, bar: HTMLElement): void {
  const groups = Array.from(svg.querySelectorAll<SVGGElement>('g.dss-group[data-group]'));
  if (groups.length === 0) return;
  const frameOf = new Map(
    groups.map((group) => [
      group.dataset['group'] ?? '',
      group.querySelector<SVGRectElement>('rect.dss-frame'),
    ]),
  );
  const tables = Array.from(svg.querySelectorAll<SVGGElement>('g.dss-table[data-table]'));
  const groupOf = new Map<string, string>();
  const tableBox = new Map<string, SVGRectElement | null>();
  for (const table of tables) {
    const name = table.dataset['table'] ?? '';
    tableBox.set(name, table.querySelector<SVGRectElement>('rect.dss-box'));
    const group = table.dataset['groupMember'];
    if (group !== undefined && frameOf.has(group)) groupOf.set(name, group);
  }
  const lines = Array.from(svg.querySelectorAll<SVGGElement>('g.dss-relationship[data-relationship]'));
  const host = groups[0]!.parentElement!.parentElement!;
  const overlay = document.createElementNS(SVG, 'g');
  overlay.setAttribute('class', 'dss-collapsed-layer');
  host.appendChild(overlay);
  const collapsed = new Set<string>();

  // A collapsed group's box: a compact card centred on its tables (frames of groups whose tables are
  // linked across groups may overlap; the cards rarely do).
  const cardOf = (name: string) => {
    let x = 0;
    let y = 0;
    let count = 0;
    for (const [table, group] of groupOf)
      if (group === name) {
        const box = tableBox.get(table)!.getBBox();
        x += box.x + box.width / 2;
        y += box.y + box.height / 2;
        count++;
      }
    const frame = frameOf.get(name)!.getBBox();
    const centre =
      count === 0
        ? { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 }
        : { x: x / count, y: y / count };
    return { x: centre.x - CARD.width / 2, y: centre.y - CARD.height / 2, ...CARD };
  };
  const unitOfGroup = (name: string): Unit => ({ key: `group:${name}`, box: () => cardOf(name) });
  const unitOfTable = (name: string): Unit => {
    const group = groupOf.get(name);
    return group !== undefined
      ? unitOfGroup(group)
      : { key: `table:${name}`, box: () => tableBox.get(name)!.getBBox() };
  };

  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.dataset['zoomAction'] = 'groups';
  const redraw = () => {
    for (const table of tables) {
      const group = groupOf.get(table.dataset['table'] ?? '');
      table.style.display = group !== undefined && collapsed.has(group) ? 'none' : '';
    }
    for (const group of groups)
      group.style.display = collapsed.has(group.dataset['group'] ?? '') ? 'none' : '';
    overlay.replaceChildren();
    // Lines between different units with at least one collapsed end: one per pair of units.
    const pairs = new Map<string, { a: Unit; b: Unit; count: number }>();
    for (const line of lines) {
      const source = line.dataset['sourceTable'] ?? '';
      const target = line.dataset['targetTable'] ?? '';
      const sourceGroup = groupOf.get(source);
      const targetGroup = groupOf.get(target);
      const hidden =
        (sourceGroup !== undefined && collapsed.has(sourceGroup)) ||
        (targetGroup !== undefined && collapsed.has(targetGroup));
      line.style.display = hidden ? 'none' : '';
      if (!hidden) continue;
      const a = unitOfTable(source);
      const b = unitOfTable(target);
      if (a.key === b.key) continue;
      const key = a.key < b.key ? `${a.key}\u0000${b.key}` : `${b.key}\u0000${a.key}`;
      const pair = pairs.get(key) ?? { a: a.key < b.key ? a : b, b: a.key < b.key ? b : a, count: 0 };
      pair.count++;
      pairs.set(key, pair);
    }
    for (const { a, b, count } of pairs.values()) {
      const from = a.box();
      const to = b.box();
      const link = document.createElementNS(SVG, 'line');
      link.setAttribute('class', 'dss-group-link');
      link.dataset['source'] = a.key;
      link.dataset['target'] = b.key;
      link.setAttribute('x1', String(from.x + from.width / 2));
      link.setAttribute('y1', String(from.y + from.height / 2));
      link.setAttribute('x2', String(to.x + to.width / 2));
      link.setAttribute('y2', String(to.y + to.height / 2));
      const title = document.createElementNS(SVG, 'title');
      title.textContent = `${count} relationship${count === 1 ? '' : 's'}`;
      link.appendChild(title);
      overlay.appendChild(link);
    }
    for (const name of collapsed) {
      const frame = cardOf(name);
      const members = tables.filter((table) => groupOf.get(table.dataset['table'] ?? '') === name).length;
      const box = document.createElementNS(SVG, 'g');
      box.setAttribute('class', 'dss-collapsed-group');
      box.setAttribute('role', 'button');
      box.setAttribute('tabindex', '0');
      box.setAttribute('aria-label', `Expand group ${name}`);
      box.dataset['collapsedGroup'] = name;
      const rect = document.createElementNS(SVG, 'rect');
      for (const [attribute, value] of Object.entries({
        x: frame.x,
        y: frame.y,
        width: frame.width,
        height: frame.height,
        rx: 10,
      }))
        rect.setAttribute(attribute, String(value));
      const label = document.createElementNS(SVG, 'text');
      label.setAttribute('x', String(frame.x + frame.width / 2));
      label.setAttribute('y', String(frame.y + frame.height / 2));
      label.setAttribute('text-anchor', 'middle');
      label.setAttribute('font-size', '22');
      label.textContent = `${name} (${members} table${members === 1 ? '' : 's'})`;
      box.append(rect, label);
      const expand = () => {
        collapsed.delete(name);
        redraw();
      };
      box.addEventListener('click', expand);
      box.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          expand();
        }
      });
      overlay.appendChild(box);
    }
    const all = collapsed.size === groups.length;
    toggle.textContent = all ? 'Expand groups' : 'Collapse groups';
    toggle.title = all ? 'Show every table of every group' : 'Show each group as one box';
    toggle.setAttribute('aria-pressed', String(all));
  };
  const collapseAll = (on: boolean) => {
    collapsed.clear();
    if (on) for (const group of groups) collapsed.add(group.dataset['group'] ?? '');
    redraw();
  };
  toggle.addEventListener('click', () => collapseAll(collapsed.size !== groups.length));
  for (const group of groups)
    addCollapseButton(group, (name) => {
      collapsed.add(name);
      redraw();
    });
  bar.appendChild(toggle);
  redraw();

  if (tables.length > OFFER_FROM_TABLES && groupOf.size > 0) {
    const offer = document.createElement('p');
    offer.className = 'dss-groups-offer';
    offer.textContent = `${tables.length} tables in ${groups.length} groups. `;
    const accept = document.createElement('button');
    accept.type = 'button';
    accept.textContent = 'Show groups collapsed';
    accept.addEventListener('click', () => {
      collapseAll(true);
      offer.remove();
    });
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = 'Show every table';
    dismiss.addEventListener('click', () => offer.remove());
    offer.append(accept, ' ', dismiss);
    figure.appendChild(offer);
  }
}

/** Side of a frame's collapse button, in drawing units. */
const BUTTON = 18;

/**
 * A small "−" button just right of a group's label, inside the frame's label strip (lines keep off the
 * label, and the group's tables stand below the strip). It is part of the group's <g>, so it is hidden
 * with the frame while the group is collapsed.
 */
function addCollapseButton(group: SVGGElement, collapse: (name: string) => void): void {
  const name = group.dataset['group'] ?? '';
  const label = group.querySelector<SVGTextElement>('text.dss-group-name');
  const frame = group.querySelector<SVGRectElement>('rect.dss-frame');
  if (label === null || frame === null) return;
  const text = label.getBBox();
  const box = frame.getBBox();
  const x = Math.min(text.x + text.width + 8, box.x + box.width - BUTTON - 6);
  const y = box.y + 10;
  const button = document.createElementNS(SVG, 'g');
  button.setAttribute('class', 'dss-group-collapse');
  button.setAttribute('role', 'button');
  button.setAttribute('tabindex', '0');
  button.setAttribute('aria-label', `Collapse group ${name}`);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `Collapse group ${name}`;
  const rect = document.createElementNS(SVG, 'rect');
  for (const [attribute, value] of Object.entries({ x, y, width: BUTTON, height: BUTTON, rx: 4 }))
    rect.setAttribute(attribute, String(value));
  const mark = document.createElementNS(SVG, 'path');
  mark.setAttribute('d', `M${x + 5} ${y + BUTTON / 2}H${x + BUTTON - 5}`);
  button.append(title, rect, mark);
  const act = () => collapse(name);
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    act();
  });
  button.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      act();
    }
  });
  group.appendChild(button);
}
