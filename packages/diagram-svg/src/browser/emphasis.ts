// Focus on what the person points at. Hovering or selecting (clicking) a table emphasises its relationships
// (wider, coloured) and its neighbour tables and fades everything else; selecting a relationship also marks
// the two columns it joins and shows its name and cardinality; Focus mode shows only a table and its
// neighbours to depth 1 or 2. On a review page the changed tables are what is emphasised while nothing else
// is pointed at. Everything is classes on the drawing, styled by diagramCss:
//   svg.dss-emphasis            something is emphasised (the rest fades)
//   g.dss-table.dss-focus       the table(s) pointed at; .dss-neighbour: tables one relationship away
//   g.dss-relationship.dss-related   the relationships of the focused tables; .dss-selected: the one clicked
//   g.dss-column.dss-joined     the two columns a selected relationship joins
//   svg.dss-focus-mode          only .dss-in-focus tables and relationships are shown

interface Link {
  g: SVGGElement;
  source: string;
  target: string;
  sourceColumn: string;
  targetColumn: string;
}

/** A table, or a copy of a busy table (hub-copies.ts): a copy stands for its table. */
const TABLE = 'g.dss-table[data-table], g.dss-table[data-table-copy]';
const nameOf = (g: SVGGElement) => g.dataset['table'] ?? g.dataset['tableCopy'] ?? '';

const FOCUS_CLASSES = [
  'dss-focus',
  'dss-neighbour',
  'dss-related',
  'dss-selected',
  'dss-joined',
  'dss-in-focus',
];

export class Emphasis {
  private readonly tables = new Map<string, SVGGElement[]>();
  private readonly links: Link[] = [];
  private readonly linksOf = new Map<string, Link[]>();
  /** What stays emphasised when the pointer leaves: a clicked table or relationship, or the changes. */
  private selected: { tables: Set<string>; link: Link | null } | null = null;
  private readonly changed: Set<string>;
  private focusDepth = 0;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly svg: SVGSVGElement,
    private readonly info: HTMLElement,
  ) {
    for (const g of Array.from(svg.querySelectorAll<SVGGElement>(TABLE))) {
      const name = nameOf(g);
      this.tables.set(name, [...(this.tables.get(name) ?? []), g]);
    }
    for (const g of Array.from(svg.querySelectorAll<SVGGElement>('g.dss-relationship[data-relationship]'))) {
      const link: Link = {
        g,
        source: g.dataset['sourceTable'] ?? '',
        target: g.dataset['targetTable'] ?? '',
        sourceColumn: g.dataset['sourceColumn'] ?? '',
        targetColumn: g.dataset['targetColumn'] ?? '',
      };
      this.links.push(link);
      for (const end of new Set([link.source, link.target]))
        this.linksOf.set(end, [...(this.linksOf.get(end) ?? []), link]);
    }
    // A table is changed when it, or anything drawn in it (a column, an index), carries a mark; a marked
    // relationship changes both its tables.
    this.changed = new Set<string>();
    for (const marked of Array.from(
      svg.querySelectorAll<SVGElement>('.dss-added, .dss-changed, .dss-removed'),
    )) {
      const table = marked.closest<SVGGElement>('g.dss-table[data-table]');
      if (table !== null) this.changed.add(table.dataset['table'] ?? '');
      else if (marked.matches('g.dss-relationship'))
        for (const end of [marked.dataset['sourceTable'], marked.dataset['targetTable']])
          if (end) this.changed.add(end);
    }
    svg.addEventListener('pointerover', (event) => {
      if ((event as PointerEvent).buttons !== 0) return;
      const table = (event.target as Element).closest<SVGGElement>(TABLE);
      if (table !== null) this.show(new Set([nameOf(table)]), null);
    });
    svg.addEventListener('pointerout', (event) => {
      const from = (event.target as Element).closest(TABLE);
      const to = (event.relatedTarget as Element | null)?.closest(TABLE) ?? null;
      if (from !== null && from !== to) this.showResting();
    });
    // A click (d3-zoom swallows the one that ends a pan) selects a table or a relationship; one on the
    // background clears the selection.
    svg.addEventListener('click', (event) => {
      const target = event.target as Element;
      const table = target.closest<SVGGElement>(TABLE);
      const line = target.closest<SVGGElement>('g.dss-relationship[data-relationship]');
      if (table !== null) this.select(new Set([nameOf(table)]), null);
      else if (line !== null) {
        const link = this.links.find((candidate) => candidate.g === line) ?? null;
        if (link !== null) this.select(new Set([link.source, link.target]), link);
      } else this.select(null, null);
    });
    this.showResting();
  }

  /** The names of the tables selected (or, on a review, changed) that Focus mode centres on. */
  get centre(): ReadonlySet<string> {
    return this.selected?.tables ?? this.changed;
  }

  /** Called whenever what is selected or focused changes (the toolbar enables its Focus button). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  select(tables: Set<string> | null, link: Link | null): void {
    this.selected = tables === null ? null : { tables, link };
    this.showResting();
    this.applyFocus();
    for (const listener of this.listeners) listener();
  }

  /** 0 turns Focus mode off; 1 or 2 shows only the centre tables and their neighbours to that depth. */
  setFocusDepth(depth: number): void {
    this.focusDepth = depth;
    this.applyFocus();
    for (const listener of this.listeners) listener();
  }

  get focusing(): number {
    return this.focusDepth;
  }

  /** Tables within `depth` relationships of the centre. */
  neighbourhood(centre: ReadonlySet<string>, depth: number): Set<string> {
    const reached = new Set(centre);
    let frontier = [...centre];
    for (let step = 0; step < depth; step++) {
      const next: string[] = [];
      for (const name of frontier)
        for (const link of this.linksOf.get(name) ?? [])
          for (const other of [link.source, link.target])
            if (!reached.has(other)) {
              reached.add(other);
              next.push(other);
            }
      frontier = next;
    }
    return reached;
  }

  private showResting(): void {
    if (this.selected !== null) this.show(this.selected.tables, this.selected.link);
    else if (this.changed.size > 0) this.show(this.changed, null);
    else this.clear();
  }

  private clear(): void {
    this.svg.classList.remove('dss-emphasis');
    // `dss-selected` is ours on a relationship only: on a table it is the live page's shared selection.
    for (const element of Array.from(this.svg.querySelectorAll(`.${FOCUS_CLASSES.slice(0, 5).join(', .')}`)))
      element.classList.remove(
        ...FOCUS_CLASSES.slice(0, 5).filter(
          (name) => name !== 'dss-selected' || element.matches('g.dss-relationship'),
        ),
      );
    this.info.hidden = true;
  }

  private show(focus: ReadonlySet<string>, link: Link | null): void {
    this.clear();
    this.svg.classList.add('dss-emphasis');
    const neighbours = this.neighbourhood(focus, 1);
    for (const name of neighbours)
      for (const g of this.tables.get(name) ?? [])
        g.classList.add(focus.has(name) ? 'dss-focus' : 'dss-neighbour');
    // A selected relationship is emphasised alone; a table brings all of its relationships.
    const related = link !== null ? [link] : [...focus].flatMap((name) => this.linksOf.get(name) ?? []);
    for (const each of related) each.g.classList.add('dss-related');
    if (link === null) return;
    link.g.classList.add('dss-selected');
    this.column(link.source, link.sourceColumn)?.classList.add('dss-joined');
    this.column(link.target, link.targetColumn)?.classList.add('dss-joined');
    this.info.textContent = link.g.querySelector('title')?.textContent ?? '';
    this.info.hidden = false;
  }

  private column(table: string, name: string): SVGGElement | null {
    for (const g of this.tables.get(table) ?? []) {
      const row = Array.from(g.querySelectorAll<SVGGElement>('g.dss-column[data-column]')).find(
        (candidate) => candidate.dataset['column'] === name,
      );
      if (row !== undefined) return row;
    }
    return null;
  }

  private applyFocus(): void {
    for (const element of Array.from(this.svg.querySelectorAll('.dss-in-focus')))
      element.classList.remove('dss-in-focus');
    const centre = this.centre;
    const on = this.focusDepth > 0 && centre.size > 0;
    this.svg.classList.toggle('dss-focus-mode', on);
    if (!on) return;
    const shown = this.neighbourhood(centre, this.focusDepth);
    for (const name of shown) for (const g of this.tables.get(name) ?? []) g.classList.add('dss-in-focus');
    for (const link of this.links)
      if (shown.has(link.source) && shown.has(link.target)) link.g.classList.add('dss-in-focus');
  }
}
