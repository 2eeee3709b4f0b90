// Lines that follow a table while it is dragged: every relationship touching a moved table is routed again
// (the server's routing and shapes, bundled) around the tables where they now stand, on each animation
// frame of the drag, so a person sees where the lines will go before saving.
import { pointsOfPath } from '../geometry-check';
import { type Endpoint, routeAll } from '../relationship-route';
import { relationshipShapes } from '../render-relationship';
import type { Box } from '../table-geometry';

/** Where a drawn table was at load and how far it has been moved since. */
export interface Offset {
  dx: number;
  dy: number;
}

interface Line {
  g: SVGGElement;
  source: string;
  target: string;
  /** The ends' heights relative to their table's top (the row and the spread of shared rows). */
  sourceRowY: number;
  targetRowY: number;
  type: string;
  nullable: boolean;
}

/** A copy's key among the drawn boxes: no table's name holds a NUL. */
const copyKey = (table: string, index: string) => `${table}\u0000${index}`;

export class LiveLines {
  private readonly stored = new Map<string, Box>();
  private readonly lines: Line[] = [];
  private pending = false;
  private latest: { moved: ReadonlyMap<string, Offset>; dragged: ReadonlySet<string> } | null = null;

  constructor(svg: SVGSVGElement) {
    // Copies of busy tables (hub-copies.ts) stay where they are; lines that end on one keep ending there.
    for (const g of Array.from(
      svg.querySelectorAll<SVGGElement>('g.dss-table[data-table], g.dss-table[data-table-copy]'),
    )) {
      const rect = g.querySelector<SVGRectElement>('rect.dss-box');
      const name = g.dataset['table'] ?? copyKey(g.dataset['tableCopy'] ?? '', g.dataset['copy'] ?? '');
      // A review drawing can hold a removed table of the same name: the current one is the one moved.
      if (rect === null || (this.stored.has(name) && g.classList.contains('dss-removed'))) continue;
      this.stored.set(name, {
        left: rect.x.baseVal.value,
        top: rect.y.baseVal.value,
        width: rect.width.baseVal.value,
        height: rect.height.baseVal.value,
      });
    }
    for (const g of Array.from(svg.querySelectorAll<SVGGElement>('g.dss-relationship[data-relationship]'))) {
      const path = g.querySelector<SVGPathElement>('path.dss-line');
      const copy = g.dataset['targetCopy'];
      const targetKey =
        copy === undefined ? (g.dataset['targetTable'] ?? '') : copyKey(g.dataset['targetTable'] ?? '', copy);
      const source = this.stored.get(g.dataset['sourceTable'] ?? '');
      const target = this.stored.get(targetKey);
      const points = pointsOfPath(path?.getAttribute('d') ?? '');
      if (source === undefined || target === undefined || points.length < 2) continue;
      this.lines.push({
        g,
        source: g.dataset['sourceTable'] ?? '',
        target: targetKey,
        sourceRowY: points[0]![1] - source.top,
        targetRowY: points.at(-1)![1] - target.top,
        type: g.dataset['cardinality'] ?? 'many-to-one',
        nullable: g.querySelector('circle.dss-optional') !== null,
      });
    }
  }

  /**
   * Redraws, on the next animation frame, the lines of the `dragged` tables, with every table of `moved`
   * (by name, the dragged ones among them) where it now stands.
   */
  follow(moved: ReadonlyMap<string, Offset>, dragged: ReadonlySet<string>): void {
    this.latest = { moved, dragged };
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      if (this.latest !== null) this.redraw(this.latest.moved, this.latest.dragged);
    });
  }

  private redraw(moved: ReadonlyMap<string, Offset>, dragged: ReadonlySet<string>): void {
    const boxes = new Map<string, Box>();
    for (const [name, box] of this.stored) {
      const offset = moved.get(name);
      boxes.set(name, offset ? { ...box, left: box.left + offset.dx, top: box.top + offset.dy } : box);
    }
    const touched = this.lines.filter((line) => dragged.has(line.source) || dragged.has(line.target));
    if (touched.length === 0) return;
    const endpoint = (table: string, rowY: number): Endpoint => {
      const box = boxes.get(table) as Box;
      return { box, y: box.top + rowY };
    };
    const routes = routeAll(
      touched.map((line) => ({
        source: endpoint(line.source, line.sourceRowY),
        target: endpoint(line.target, line.targetRowY),
      })),
      { tables: [...boxes.values()] },
    );
    touched.forEach((line, at) => {
      const shapes = relationshipShapes(routes[at]!, line.type, line.nullable);
      line.g.querySelector('path.dss-line')?.setAttribute('d', shapes.line);
      line.g.querySelector('path.dss-halo')?.setAttribute('d', shapes.line);
      line.g.querySelector('path.dss-ends')?.setAttribute('d', shapes.ends);
      const circle = line.g.querySelector('circle.dss-optional');
      if (circle !== null && shapes.circle !== null) {
        circle.setAttribute('cx', String(shapes.circle.cx));
        circle.setAttribute('cy', String(shapes.circle.cy));
      }
    });
  }
}
