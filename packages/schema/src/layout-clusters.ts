// A layout for a whole large schema (an import, or "Auto-layout"): related tables close together, hubs
// central. Synchronous and deterministic, so the same apply path that lays out new tables can use it.
//   1. Hubs (tables referenced by many: `users`, `accounts`) are set apart; they would otherwise pull every
//      table into one cluster.
//   2. The other tables are clustered by foreign-key neighbourhood (label propagation, a link between
//      tables of one name prefix or database schema counting more), so each module is one cluster.
//   3. Each cluster is laid out by dagre (left to right, tall ranks folded), the hubs in a column.
//   4. The hub column goes in the middle; clusters follow, most linked to what is placed first, each at
//      the free spot nearest to the tables it links to (the Placer), so lines between clusters are short
//      and leave each hub in all directions instead of running side by side across the drawing.
import { wrapTallRanks } from './layout-units';
import { Placer } from './layout-placer';
import type { Frame } from './model';

type DagreModule = typeof import('@dagrejs/dagre', { with: { 'resolution-mode': 'import' }});
// dagre ships as an ES module with a CommonJS build; this package compiles to CommonJS, so it is required.
const dagre: DagreModule = require('@dagrejs/dagre');

export interface ClusterTable {
  name: string;
  width: number;
  height: number;
}

export interface ClusterLink {
  source: string;
  target: string;
}

const GRAPH_OPTIONS = { rankdir: 'LR', nodesep: 56, ranksep: 112, marginx: 0, marginy: 0 };
/** A table linked to at least this many others (and to several times the median) is a hub. */
const HUB_DEGREE = 8;
const ROUNDS = 12;
const SAME_PREFIX_WEIGHT = 1.5;
const HUB_GAP = 80;

/** Top-left corners (by table name) for every table. */
export function layOutClusters(
  tables: readonly ClusterTable[],
  links: readonly ClusterLink[],
): Map<string, { left: number; top: number }> {
  const names = tables.map((table) => table.name);
  const neighbours = new Map<string, Map<string, number>>(names.map((name) => [name, new Map()]));
  for (const { source, target } of links) {
    if (source === target || !neighbours.has(source) || !neighbours.has(target)) continue;
    const weight = prefixOf(source) === prefixOf(target) ? SAME_PREFIX_WEIGHT : 1;
    neighbours.get(source)!.set(target, weight);
    neighbours.get(target)!.set(source, weight);
  }
  const degrees = names.map((name) => neighbours.get(name)!.size).sort((a, b) => a - b);
  const median = degrees[Math.floor(degrees.length / 2)] ?? 0;
  const hubs = names.filter((name) => {
    const degree = neighbours.get(name)!.size;
    return degree >= HUB_DEGREE && degree >= 3 * Math.max(1, median);
  });
  const hubSet = new Set(hubs);
  const clusters = propagateLabels(names, neighbours, hubSet);

  const size = new Map(tables.map((table) => [table.name, table]));
  const placer = new Placer();
  placer.freeze();
  const placed = new Map<string, Frame>();
  const put = (frames: Map<string, Frame>, wanted: { dx: number; dy: number }) => {
    for (const [name, frame] of placer.place(frames, wanted)) placed.set(name, frame);
  };
  // The hubs: one column, most referenced in the middle.
  if (hubs.length > 0) {
    const ordered = [...hubs].sort((a, b) => neighbours.get(b)!.size - neighbours.get(a)!.size);
    const column = new Map<string, Frame>();
    let top = 0;
    for (const name of middleOut(ordered)) {
      const table = size.get(name)!;
      column.set(name, { left: -table.width / 2, top, width: table.width, height: table.height });
      top += table.height + HUB_GAP;
    }
    put(column, { dx: 0, dy: -top / 2 });
  }
  // Clusters in order of how strongly they link to what is already placed (the largest first at the start).
  const remaining = [...clusters.values()].sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
  while (remaining.length > 0) {
    let best = 0;
    let bestScore = -1;
    remaining.forEach((members, at) => {
      let score = 0;
      for (const name of members)
        for (const other of neighbours.get(name)!.keys()) if (placed.has(other)) score++;
      if (score > bestScore) {
        best = at;
        bestScore = score;
      }
    });
    const [members] = remaining.splice(best, 1) as [string[]];
    const frames = layOutCluster(members, size, links);
    const box = boundsOf([...frames.values()]);
    // Wanted: the cluster's middle at the middle of the placed tables it links to.
    let sumX = 0;
    let sumY = 0;
    let count = 0;
    for (const name of members)
      for (const other of neighbours.get(name)!.keys()) {
        const frame = placed.get(other);
        if (frame === undefined) continue;
        sumX += frame.left + frame.width / 2;
        sumY += frame.top + frame.height / 2;
        count++;
      }
    const goal = count === 0 ? { x: 0, y: 0 } : { x: sumX / count, y: sumY / count };
    put(frames, { dx: goal.x - (box.left + box.width / 2), dy: goal.y - (box.top + box.height / 2) });
  }
  const out = new Map<string, { left: number; top: number }>();
  const all = boundsOf([...placed.values()]);
  for (const [name, frame] of placed)
    out.set(name, { left: frame.left - all.left + 48, top: frame.top - all.top + 48 });
  return out;
}

/** The prefix a module's tables share: the database schema (`audit.`) or the name before the first `_`. */
function prefixOf(name: string): string {
  const dot = name.indexOf('.');
  if (dot > 0) return name.slice(0, dot);
  const underscore = name.indexOf('_');
  return underscore > 0 ? name.slice(0, underscore) : name;
}

/**
 * Clusters of the non-hub tables: each takes the label weighted most among its neighbours, in name order,
 * for a few rounds. A table linked only to hubs joins the other tables of its prefix, or the hub it links
 * to most.
 */
function propagateLabels(
  names: readonly string[],
  neighbours: ReadonlyMap<string, ReadonlyMap<string, number>>,
  hubs: ReadonlySet<string>,
): Map<string, string[]> {
  const ordered = names.filter((name) => !hubs.has(name)).sort();
  const label = new Map(ordered.map((name) => [name, name]));
  for (let round = 0; round < ROUNDS; round++) {
    let changed = false;
    for (const name of ordered) {
      const votes = new Map<string, number>();
      for (const [other, weight] of neighbours.get(name)!)
        if (!hubs.has(other)) votes.set(label.get(other)!, (votes.get(label.get(other)!) ?? 0) + weight);
      if (votes.size === 0) continue;
      let winner = label.get(name)!;
      let most = votes.get(winner) ?? 0;
      for (const [candidate, weight] of votes)
        if (weight > most || (weight === most && candidate < winner)) {
          winner = candidate;
          most = weight;
        }
      if (winner !== label.get(name)) {
        label.set(name, winner);
        changed = true;
      }
    }
    if (!changed) break;
  }
  // Tables left alone (no non-hub neighbour) gather by prefix.
  const sizes = new Map<string, number>();
  for (const value of label.values()) sizes.set(value, (sizes.get(value) ?? 0) + 1);
  for (const name of ordered)
    if (sizes.get(label.get(name)!) === 1) label.set(name, `prefix:${prefixOf(name)}`);
  const clusters = new Map<string, string[]>();
  for (const name of ordered) {
    const key = label.get(name)!;
    clusters.set(key, [...(clusters.get(key) ?? []), name]);
  }
  return clusters;
}

function layOutCluster(
  members: readonly string[],
  size: ReadonlyMap<string, ClusterTable>,
  links: readonly ClusterLink[],
): Map<string, Frame> {
  if (members.length === 1) {
    const table = size.get(members[0]!)!;
    return new Map([[table.name, { left: 0, top: 0, width: table.width, height: table.height }]]);
  }
  const inside = new Set(members);
  const graph = new dagre.graphlib.Graph();
  graph.setGraph(GRAPH_OPTIONS);
  graph.setDefaultEdgeLabel(() => ({}));
  for (const name of members) {
    const table = size.get(name)!;
    graph.setNode(name, { width: table.width, height: table.height });
  }
  for (const { source, target } of links)
    if (inside.has(source) && inside.has(target) && source !== target) graph.setEdge(target, source);
  dagre.layout(graph);
  return wrapTallRanks(
    new Map(
      members.map((name) => {
        const table = size.get(name)!;
        const { x, y } = graph.node(name);
        return [
          name,
          { left: x - table.width / 2, top: y - table.height / 2, width: table.width, height: table.height },
        ];
      }),
    ),
  );
}

/** The list reordered so the first items sit in the middle: a, b, c, d → d, b, a, c. */
function middleOut<T>(items: readonly T[]): T[] {
  const out: T[] = [];
  items.forEach((item, at) => {
    if (at % 2 === 0) out.push(item);
    else out.unshift(item);
  });
  return out;
}

function boundsOf(frames: readonly Frame[]): Frame {
  const left = Math.min(...frames.map((frame) => frame.left));
  const top = Math.min(...frames.map((frame) => frame.top));
  const right = Math.max(...frames.map((frame) => frame.left + frame.width));
  const bottom = Math.max(...frames.map((frame) => frame.top + frame.height));
  return { left, top, width: right - left, height: bottom - top };
}
