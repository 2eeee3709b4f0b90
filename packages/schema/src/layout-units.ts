// Splits the tables that need a position into units and gives each unit a relative layout:
//   - tables linked by relationships form a component, laid out by dagre together with the placed tables
//     they link to ("anchors"); anchors take part in the ranking only and never move;
//   - components whose tables share a group form one unit: each is laid out by dagre on its own and the
//     components are packed in rows, so the group comes out as one box.
import type { DocumentTable, Frame, Relationship } from './model';
import { RowPacker } from './row-packer';

type DagreModule = typeof import('@dagrejs/dagre', { with: { 'resolution-mode': 'import' }});
// dagre ships as an ES module with a CommonJS build; this package compiles to CommonJS, so it is required.
const dagre: DagreModule = require('@dagrejs/dagre');

export interface Shift {
  dx: number;
  dy: number;
}

export interface LayoutUnit {
  /** Frames relative to the unit's own origin, keyed by table uuid. */
  frames: Map<string, Frame>;
  /** The shift that puts the unit into its placed group or beside its anchors; null when neither exists. */
  anchorShift: Shift | null;
  /** Groups the unit's tables belong to: the unit may sit inside them. */
  ownGroups: Set<string>;
}

interface Link {
  referenced: DocumentTable;
  referencing: DocumentTable;
}

const GRAPH_OPTIONS = { rankdir: 'LR', nodesep: 48, ranksep: 96, marginx: 0, marginy: 0 };
const PACKING_GAP = 48;

export function buildUnits(
  tables: readonly DocumentTable[],
  relationships: readonly Relationship[],
  unplaced: ReadonlySet<string>,
  placedGroups: ReadonlyMap<string, Frame>,
): LayoutUnit[] {
  const links = linksBetween(tables, relationships, unplaced);
  const slots: DocumentTable[][][] = [];
  const slotOfGroup = new Map<string, DocumentTable[][]>();
  for (const component of connectedComponents(tables, links, unplaced)) {
    const group = component.find((table) => table.parent_uuid !== null)?.parent_uuid ?? null;
    const slot = group === null ? undefined : slotOfGroup.get(group);
    if (slot !== undefined) slot.push(component);
    else {
      slots.push([component]);
      if (group !== null) slotOfGroup.set(group, slots.at(-1)!);
    }
  }
  return slots.map((components) => {
    const ownGroups = new Set(
      components.flat().flatMap((t) => (t.parent_uuid === null ? [] : [t.parent_uuid])),
    );
    return components.length === 1
      ? linkedUnit(components[0]!, links, unplaced, ownGroups, placedGroups)
      : packedUnit(components, links, ownGroups, placedGroups);
  });
}

/** Links that touch at least one unplaced table, indexed by the unplaced tables they touch. */
function linksBetween(
  tables: readonly DocumentTable[],
  relationships: readonly Relationship[],
  unplaced: ReadonlySet<string>,
) {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const byTable = new Map<string, Link[]>();
  for (const r of relationships) {
    const referencing = byName.get(r.source_table);
    const referenced = byName.get(r.target_table);
    if (!referencing || !referenced || referencing === referenced) continue;
    // Most relationships link two placed tables: no link object for those.
    const referencedIsNew = unplaced.has(referenced.uuid);
    const referencingIsNew = unplaced.has(referencing.uuid);
    if (!referencedIsNew && !referencingIsNew) continue;
    const link = { referenced, referencing };
    if (referencedIsNew) addLink(byTable, referenced.uuid, link);
    if (referencingIsNew) addLink(byTable, referencing.uuid, link);
  }
  return byTable;
}

function addLink(byTable: Map<string, Link[]>, uuid: string, link: Link): void {
  const tableLinks = byTable.get(uuid);
  if (tableLinks === undefined) byTable.set(uuid, [link]);
  else tableLinks.push(link);
}

/** Connected components of the unplaced tables (by relationships), in document order. */
function connectedComponents(
  tables: readonly DocumentTable[],
  links: ReadonlyMap<string, Link[]>,
  unplaced: ReadonlySet<string>,
): DocumentTable[][] {
  const seen = new Set<string>();
  const components: DocumentTable[][] = [];
  for (const start of tables) {
    if (!unplaced.has(start.uuid) || seen.has(start.uuid)) continue;
    seen.add(start.uuid);
    const component = [start];
    for (let i = 0; i < component.length; i++) {
      for (const { referenced, referencing } of links.get(component[i]!.uuid) ?? []) {
        for (const next of [referenced, referencing]) {
          if (!unplaced.has(next.uuid) || seen.has(next.uuid)) continue;
          seen.add(next.uuid);
          component.push(next);
        }
      }
    }
    components.push(component);
  }
  return components;
}

function linkedUnit(
  members: DocumentTable[],
  links: ReadonlyMap<string, Link[]>,
  unplaced: ReadonlySet<string>,
  ownGroups: Set<string>,
  placedGroups: ReadonlyMap<string, Frame>,
): LayoutUnit {
  const unitLinks = [...new Set(members.flatMap((table) => links.get(table.uuid) ?? []))];
  const anchors = new Map<string, DocumentTable>();
  for (const { referenced, referencing } of unitLinks) {
    for (const table of [referenced, referencing])
      if (!unplaced.has(table.uuid)) anchors.set(table.uuid, table);
  }
  // A new group is a box of its own, placed away from the diagram: anchors would only stretch it.
  const inGroup = ownGroups.size > 0;
  const positions = runDagre(inGroup ? members : [...members, ...anchors.values()], unitLinks);
  const frames = new Map(members.map((table) => [table.uuid, positions.get(table.uuid)!]));
  const anchorShift =
    shiftIntoGroup(frames, ownGroups, placedGroups) ??
    (!inGroup && anchors.size > 0 ? shiftOntoAnchors([...anchors.values()], positions) : null);
  return { frames, anchorShift, ownGroups };
}

function packedUnit(
  components: DocumentTable[][],
  links: ReadonlyMap<string, Link[]>,
  ownGroups: Set<string>,
  placedGroups: ReadonlyMap<string, Frame>,
): LayoutUnit {
  const layouts = components.map((members) => {
    const memberLinks = [...new Set(members.flatMap((table) => links.get(table.uuid) ?? []))];
    return runDagre(members, memberLinks);
  });
  const rows = new RowPacker({ left: 0, top: 0 }, PACKING_GAP).reserve(
    layouts.map((l) => boundingFrame([...l.values()])),
  );
  const frames = new Map<string, Frame>();
  for (const layout of layouts) {
    const shift = rows.next(boundingFrame([...layout.values()]));
    for (const [uuid, frame] of layout)
      frames.set(uuid, { ...frame, left: frame.left + shift.dx, top: frame.top + shift.dy });
  }
  return { frames, anchorShift: shiftIntoGroup(frames, ownGroups, placedGroups), ownGroups };
}

/** Dagre positions (as frames) of `nodes`; links to tables outside `nodes` are left out. */
function runDagre(nodes: DocumentTable[], links: Link[]): Map<string, Frame> {
  if (nodes.length === 1) {
    const [table] = nodes as [DocumentTable];
    return new Map([[table.uuid, { left: 0, top: 0, width: table.width, height: table.height }]]);
  }
  if (nodes.length === 2 && links.length === 1) return besideEachOther(links[0]!);
  const graph = new dagre.graphlib.Graph();
  graph.setGraph(GRAPH_OPTIONS);
  graph.setDefaultEdgeLabel(() => ({}));
  for (const table of nodes) graph.setNode(table.uuid, { width: table.width, height: table.height });
  for (const { referenced, referencing } of links) {
    if (graph.hasNode(referenced.uuid) && graph.hasNode(referencing.uuid))
      graph.setEdge(referenced.uuid, referencing.uuid);
  }
  dagre.layout(graph);
  return wrapTallRanks(
    new Map(
      nodes.map((table) => {
        const { x, y } = graph.node(table.uuid);
        const frame = {
          left: x - table.width / 2,
          top: y - table.height / 2,
          width: table.width,
          height: table.height,
        };
        return [table.uuid, frame];
      }),
    ),
  );
}

/** Space between the tables of a folded rank, and between its columns. */
const WRAP_GAP = 80;

/** The shape a laid-out unit aims for: a wide screen's (16:10). */
const TARGET_ASPECT = 1.0;

/**
 * Dagre ranks left to right by reference: a table referenced by thirty others gets a rank thirty tables
 * tall, a thin column that a screen can only show as a thumbnail. Here each rank taller than the unit's
 * target height (from its tables' area and a 16:10 shape) is folded into side-by-side columns, in dagre's
 * order, so related tables stay next to each other; every column is centred on the unit's middle, so a
 * rank of one table (a hub such as `users`) sits level with the many that reference it. Deterministic.
 */
export function wrapTallRanks(frames: Map<string, Frame>): Map<string, Frame> {
  if (frames.size < 3) return frames;
  // Wider than dagre's own spacing: lines to a hub run between these tables, each in a lane of its own.
  const gap = WRAP_GAP;
  let area = 0;
  let tallest = 0;
  for (const frame of frames.values()) {
    area += (frame.width + GRAPH_OPTIONS.ranksep) * (frame.height + gap);
    tallest = Math.max(tallest, frame.height);
  }
  const targetHeight = Math.max(tallest, Math.sqrt(area / TARGET_ASPECT));
  // Ranks: dagre puts each rank's tables on one vertical line (their centres share an x).
  const ranks = new Map<number, [string, Frame][]>();
  for (const entry of frames) {
    const centre = Math.round(entry[1].left + entry[1].width / 2);
    const rank = ranks.get(centre) ?? [];
    rank.push(entry);
    ranks.set(centre, rank);
  }
  const folded: [string, Frame][][][] = [];
  for (const centre of [...ranks.keys()].sort((a, b) => a - b)) {
    const members = (ranks.get(centre) as [string, Frame][]).sort((a, b) => a[1].top - b[1].top);
    const rankColumns: [string, Frame][][] = [];
    let column: [string, Frame][] = [];
    let height = 0;
    for (const member of members) {
      const added = (column.length === 0 ? 0 : gap) + member[1].height;
      if (column.length > 0 && height + added > targetHeight) {
        rankColumns.push(column);
        column = [];
        height = 0;
      }
      column.push(member);
      height += column.length === 1 ? member[1].height : added;
    }
    rankColumns.push(column);
    folded.push(rankColumns);
  }
  // A hub (a rank that fits one column) followed by a rank folded into several gets half of those
  // columns on its other side: the hub ends up in the middle of the tables that reference it, and their
  // lines reach it from both sides instead of all through one gap.
  const sequence: { column: [string, Frame][]; endsRank: boolean }[] = [];
  for (let rank = 0; rank < folded.length; rank++) {
    const here = folded[rank] as [string, Frame][][];
    const next = folded[rank + 1];
    if (here.length === 1 && next !== undefined && next.length >= 2) {
      const before = next.splice(0, Math.floor(next.length / 2));
      for (const [at, column] of before.entries())
        sequence.push({ column, endsRank: at === before.length - 1 });
    }
    for (const [at, column] of here.entries()) sequence.push({ column, endsRank: at === here.length - 1 });
  }
  const columns = sequence.map((entry) => entry.column);
  const rankEnds = sequence.map((entry) => entry.endsRank);
  if (columns.length === ranks.size) return frames;
  const wrapped = new Map<string, Frame>();
  let left = 0;
  columns.forEach((column, at) => {
    const width = Math.max(...column.map(([, frame]) => frame.width));
    const height = column.reduce((sum, [, frame]) => sum + frame.height, 0) + gap * (column.length - 1);
    let top = (targetHeight - height) / 2;
    for (const [uuid, frame] of column) {
      wrapped.set(uuid, { ...frame, left: left + (width - frame.width) / 2, top });
      top += frame.height + gap;
    }
    left += width + (rankEnds[at] ? GRAPH_OPTIONS.ranksep : 1.5 * gap);
  });
  return wrapped;
}

/** What dagre does with one link, without its set-up cost: the referenced table left, centres level. */
function besideEachOther({ referenced, referencing }: Link): Map<string, Frame> {
  const middle = Math.max(referenced.height, referencing.height) / 2;
  return new Map([
    [
      referenced.uuid,
      { left: 0, top: middle - referenced.height / 2, width: referenced.width, height: referenced.height },
    ],
    [
      referencing.uuid,
      {
        left: referenced.width + GRAPH_OPTIONS.ranksep,
        top: middle - referencing.height / 2,
        width: referencing.width,
        height: referencing.height,
      },
    ],
  ]);
}

/** The shift that moves the dagre centroid of the anchors onto their real centroid on the canvas. */
function shiftOntoAnchors(anchors: DocumentTable[], positions: ReadonlyMap<string, Frame>): Shift {
  let dx = 0;
  let dy = 0;
  for (const anchor of anchors) {
    const laidOut = positions.get(anchor.uuid)!;
    dx += anchor.left - laidOut.left;
    dy += anchor.top - laidOut.top;
  }
  return { dx: dx / anchors.length, dy: dy / anchors.length };
}

/** For a unit whose tables belong to a placed group: the shift that centres it on the group. */
function shiftIntoGroup(
  frames: ReadonlyMap<string, Frame>,
  ownGroups: ReadonlySet<string>,
  placedGroups: ReadonlyMap<string, Frame>,
): Shift | null {
  const group = [...ownGroups].map((uuid) => placedGroups.get(uuid)).find((frame) => frame !== undefined);
  if (group === undefined) return null;
  const box = boundingFrame([...frames.values()]);
  return {
    dx: group.left + group.width / 2 - (box.left + box.width / 2),
    dy: group.top + group.height / 2 - (box.top + box.height / 2),
  };
}

export function boundingFrame(frames: readonly Frame[]): Frame {
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const frame of frames) {
    left = Math.min(left, frame.left);
    top = Math.min(top, frame.top);
    right = Math.max(right, frame.left + frame.width);
    bottom = Math.max(bottom, frame.top + frame.height);
  }
  return { left, top, width: right - left, height: bottom - top };
}
