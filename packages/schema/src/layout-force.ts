// A force-directed layout for a whole large schema: every relationship is a spring, every table repels the
// others, so a hub (`organizations`, `users`) ends up in the middle of the tables that reference it, its
// lines short and fanned out in all directions, and modules of tightly linked tables form clumps of their
// own. d3-force runs the simulation (deterministic: its own seeded random source, a fixed number of ticks),
// for large schemas (PAIRS_FROM) with the repulsion and collision computed over every pair of tables
// (layout-force-pairs.ts: d3's own quadtree forces cost 3-4x more for a few hundred tables); then the
// tables are put down most linked first, each at the free spot nearest to where the simulation left it
// (the Placer), so nothing overlaps and every table keeps the gap the router needs.
// Large schemas (SPREAD_FROM) are spread from their centre before the tables are put down.
import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY } from 'd3-force';
import type { ClusterLink, ClusterTable } from './layout-clusters';
import { forceCollision, forceRepulsion } from './layout-force-pairs';
import { Placer } from './layout-placer';
import type { Frame } from './model';

interface Node {
  index?: number;
  name: string;
  width: number;
  height: number;
  degree: number;
  x?: number;
  y?: number;
  vx?: number;
  vy?: number;
}

const TICKS = 300;
/** Length of a relationship's spring beyond the two tables' half sizes. */
const LINK_SLACK = 60;
/** Repulsion of a table: a base, and more for each relationship, so hubs get room for their lines. */
const CHARGE = 300;
const CHARGE_PER_LINK = 40;
/** Collision radius as a share of the table's diagonal: overlaps left over are for the Placer. */
const COLLIDE = 0.5;
const GRAVITY = 0.04;
/**
 * From this many tables, the simulation's positions are spread from their centre by SPREAD before the
 * tables are put down, and the refined layout is pulled back towards its centre by COMPACT keeping every
 * table's order along each axis (`compactLayout`): the router gets room between the tables where lines are
 * dense (Lago, 139 tables: crossings per relationship 17.9 → 15.4, near-parallel pairs 479 → 340, mean over
 * four starts; package README), while lines keep their length. Below it (the corpus's 30–70-table
 * schemas) the layout is as before: there the spread left a shared run on danbooru.
 */
export const SPREAD_FROM = 100;
const SPREAD = 1.3;
/**
 * From this many tables the repulsion and collision are computed over every pair of tables
 * (layout-force-pairs.ts: 3–4× faster on 300 tables, the layouts differing as another start does); below
 * it by d3's own quadtree forces, so the corpus's 30–70-table schemas (cheap either way) keep their
 * layouts: with the pairs, two of the fanned ends on danbooru's `users` row left the table crossed
 * (diagram-svg's test/line-ends.test.ts).
 */
const PAIRS_FROM = 100;

/** Top-left corners (by table name) for every table. */
export function layOutForce(
  tables: readonly ClusterTable[],
  links: readonly ClusterLink[],
): Map<string, { left: number; top: number }> {
  const nodes: Node[] = tables.map((table) => ({ ...table, degree: 0 }));
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const seen = new Set<string>();
  const edges: { source: Node; target: Node }[] = [];
  for (const { source, target } of links) {
    const a = byName.get(source);
    const b = byName.get(target);
    const key = source < target ? `${source}\u0000${target}` : `${target}\u0000${source}`;
    if (a === undefined || b === undefined || a === b || seen.has(key)) continue;
    seen.add(key);
    a.degree++;
    b.degree++;
    edges.push({ source: a, target: b });
  }
  const half = (node: Node) => Math.max(node.width, node.height) / 2;
  const charge = (node: Node) => -CHARGE - CHARGE_PER_LINK * node.degree;
  const radius = (node: Node) => COLLIDE * Math.hypot(node.width, node.height) + 24;
  const pairs = nodes.length >= PAIRS_FROM;
  const simulation = forceSimulation<Node>(nodes)
    .force(
      'link',
      forceLink<Node, { source: Node; target: Node }>(edges).distance(
        (edge) => half(edge.source) + half(edge.target) + LINK_SLACK,
      ),
    )
    .force('charge', pairs ? forceRepulsion(charge) : forceManyBody<Node>().strength(charge))
    .force('collide', pairs ? forceCollision(radius, 2) : forceCollide<Node>(radius).iterations(2))
    .force('x', forceX<Node>(0).strength(GRAVITY))
    .force('y', forceY<Node>(0).strength(GRAVITY))
    .stop();
  simulation.tick(TICKS);

  // Most linked first: hubs keep the spot the simulation gave them, leaves move aside if they must.
  const placer = new Placer();
  placer.freeze();
  const placed = new Map<string, Frame>();
  // Ties keep the tables' order (a stable sort), so the result does not depend on how tables are named.
  const order = [...nodes].sort((a, b) => b.degree - a.degree);
  if (nodes.length >= SPREAD_FROM) {
    let x = 0;
    let y = 0;
    for (const node of nodes) {
      x += (node.x ?? 0) / nodes.length;
      y += (node.y ?? 0) / nodes.length;
    }
    for (const node of nodes) {
      node.x = x + ((node.x ?? 0) - x) * SPREAD;
      node.y = y + ((node.y ?? 0) - y) * SPREAD;
    }
  }
  for (const node of order) {
    const frame = { left: 0, top: 0, width: node.width, height: node.height };
    const wanted = { dx: (node.x ?? 0) - node.width / 2, dy: (node.y ?? 0) - node.height / 2 };
    const [final] = placer.place(new Map([[node.name, frame]]), wanted).values();
    placed.set(node.name, final as Frame);
  }
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  for (const frame of placed.values()) {
    left = Math.min(left, frame.left);
    top = Math.min(top, frame.top);
  }
  const out = new Map<string, { left: number; top: number }>();
  for (const [name, frame] of placed)
    out.set(name, { left: frame.left - left + 48, top: frame.top - top + 48 });
  return out;
}
