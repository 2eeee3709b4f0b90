// Computed layout for the tables, groups and sticky notes a patch creates without a position. Only those
// records move: everything already on the canvas is an obstacle (and, when related, an anchor).
//   1. Each unit of related new tables is laid out by dagre and moved into its placed group, or beside the
//      placed tables it links to; units that relate to nothing placed are packed in rows to the right of
//      the diagram.
//   2. The Placer gives each unit the free spot nearest to where it wants to be, so nothing overlaps.
//   3. A large whole schema (an import or "Auto-layout": at least WHOLE_SCHEMA tables, nothing placed,
//      no groups) is laid out instead by the force-directed layout (layout-force.ts), then tables trade
//      places where their lines cross less and run shorter (layout-refine.ts); see the package README of
//      diagram-svg for the measurements.
//   4. New groups enclose their tables; placed groups grow to enclose new members; new sticky notes go
//      beside their group, or in the rows to the right.
import { layOutForce } from './layout-force';
import { type PortLink, refineLayout } from './layout-refine';
import { boundingFrame, buildUnits, type Shift } from './layout-units';
import { LAYOUT_GAP, Placer } from './layout-placer';
import type { DiagramDocument, Frame } from './model';
import { RowPacker } from './row-packer';
import { rowCentre } from './table-size';

/** Space between a group's frame and its tables: sides and bottom, and top (room for the title). */
const GROUP_PADDING = 24;
const GROUP_TITLE = 48;

export interface Unplaced {
  tables: ReadonlySet<string>;
  groups: ReadonlySet<string>;
  notes: ReadonlySet<string>;
}

/**
 * A diagram of at least this many new tables and nothing placed is a whole schema (an import). The refined
 * force layout wins on every schema of 35 tables and more measured (the corpus's, OpenStreetMap's, Lago's,
 * the generated ones) and leaves no shared run on the corpus's; smaller ones keep dagre's tidy units.
 */
export const WHOLE_SCHEMA = 30;

/**
 * Frames (uuid → frame) for every unplaced record, and for placed groups that had to grow. `wholeSchema:
 * false` keeps the dagre units even for a whole schema (the benchmark's baseline); `refine: false` keeps the
 * force layout as it comes (the benchmark's "force").
 */
export function layOutNewRecords(
  document: DiagramDocument,
  unplaced: Unplaced,
  options: { wholeSchema?: boolean; refine?: boolean } = {},
): Map<string, Frame> {
  if (options.wholeSchema === false || !isWholeSchema(document, unplaced))
    return layOutWith(document, unplaced, null);
  const tables = document.tables.map((table) => ({
    name: table.name,
    width: table.width,
    height: table.height,
  }));
  const links = portLinks(document);
  const forced = layOutForce(tables, links);
  const corners = options.refine === false ? forced : refineLayout(tables, links, forced);
  const frames = new Map<string, Frame>(
    document.tables.map((table) => [
      table.uuid,
      { ...corners.get(table.name)!, width: table.width, height: table.height },
    ]),
  );
  return layOutWith(document, unplaced, frames);
}

/** The relationships with the rows their lines end on (the router starts each line on its column's row). */
export function portLinks(document: DiagramDocument): PortLink[] {
  const rows = new Map(
    document.tables.map((table) => [
      table.name,
      new Map(table.columns.map((column, index) => [column.name, rowCentre(index)])),
    ]),
  );
  return document.relationships.map((link) => ({
    source: link.source_table,
    target: link.target_table,
    sourceRow: rows.get(link.source_table)?.get(link.source_column),
    targetRow: rows.get(link.target_table)?.get(link.target_column),
  }));
}

/**
 * Every table new, none in a group, nothing else on the canvas, enough tables to need a real layout, and
 * enough relationships to shape one (dagre's rows are tidier for tables that hardly relate).
 */
function isWholeSchema(document: DiagramDocument, unplaced: Unplaced): boolean {
  return (
    unplaced.tables.size >= WHOLE_SCHEMA &&
    document.relationships.length >= unplaced.tables.size / 2 &&
    document.tables.every((table) => unplaced.tables.has(table.uuid) && table.parent_uuid === null) &&
    document.groups.length === 0 &&
    document.sticky_notes.every((note) => unplaced.notes.has(note.uuid))
  );
}

/** The layout of the unplaced records; `preset` gives the tables frames of their own (a whole schema's). */
function layOutWith(
  document: DiagramDocument,
  unplaced: Unplaced,
  preset: ReadonlyMap<string, Frame> | null,
): Map<string, Frame> {
  const result = new Map<string, Frame>();
  if (unplaced.tables.size + unplaced.groups.size + unplaced.notes.size === 0) return result;
  const placer = new Placer();
  for (const [uuid, frame] of preset ?? []) {
    placer.occupy(frame, uuid);
    result.set(uuid, frame);
  }
  const placedGroups = new Map<string, Frame>();
  for (const table of document.tables) if (!unplaced.tables.has(table.uuid)) placer.occupy(table, table.uuid);
  for (const note of document.sticky_notes)
    if (!unplaced.notes.has(note.uuid)) placer.occupy(note, note.uuid);
  for (const group of document.groups) {
    if (unplaced.groups.has(group.uuid)) continue;
    placer.occupy(group, group.uuid);
    placedGroups.set(group.uuid, group);
  }
  const bounds = placer.freeze();
  const rows = new RowPacker(
    bounds === null
      ? { left: LAYOUT_GAP, top: LAYOUT_GAP }
      : { left: bounds.right + 2 * LAYOUT_GAP, top: bounds.top },
    LAYOUT_GAP,
  );
  const units =
    preset === null ? buildUnits(document.tables, document.relationships, unplaced.tables, placedGroups) : [];
  const anchored = units.filter((unit) => unit.anchorShift !== null);
  const loose = units.filter((unit) => unit.anchorShift === null);
  rows.reserve(loose.map((unit) => boundingFrame([...unit.frames.values()])));
  for (const unit of [...anchored, ...loose]) {
    const wanted = unit.anchorShift ?? rows.next(boundingFrame([...unit.frames.values()]));
    for (const [uuid, frame] of placer.place(unit.frames, wanted, unit.ownGroups)) result.set(uuid, frame);
  }
  frameGroups(document, unplaced, result, placer, rows);
  placeNotes(document, unplaced, result, placer, rows);
  return result;
}

function frameGroups(
  document: DiagramDocument,
  unplaced: Unplaced,
  result: Map<string, Frame>,
  placer: Placer,
  rows: RowPacker,
): void {
  const members = new Map<string, Frame[]>();
  const gainedMembers = new Set<string>();
  for (const table of document.tables) {
    if (table.parent_uuid === null) continue;
    const frames = members.get(table.parent_uuid) ?? [];
    frames.push(result.get(table.uuid) ?? table);
    members.set(table.parent_uuid, frames);
    if (unplaced.tables.has(table.uuid)) gainedMembers.add(table.parent_uuid);
  }
  for (const group of document.groups) {
    const memberFrames = members.get(group.uuid) ?? [];
    if (unplaced.groups.has(group.uuid) && memberFrames.length > 0) {
      const frame = enclose([], memberFrames);
      placer.occupy(frame, group.uuid);
      result.set(group.uuid, frame);
    } else if (unplaced.groups.has(group.uuid)) {
      const frame = { left: 0, top: 0, width: group.width, height: group.height };
      result.set(group.uuid, placer.place(new Map([[group.uuid, frame]]), rows.next(frame)).get(group.uuid)!);
    } else if (gainedMembers.has(group.uuid)) {
      result.set(group.uuid, enclose([group], memberFrames));
    }
  }
}

function placeNotes(
  document: DiagramDocument,
  unplaced: Unplaced,
  result: Map<string, Frame>,
  placer: Placer,
  rows: RowPacker,
): void {
  const groups = new Map(document.groups.map((group) => [group.uuid, result.get(group.uuid) ?? group]));
  for (const note of document.sticky_notes) {
    if (!unplaced.notes.has(note.uuid)) continue;
    const frame = { left: 0, top: 0, width: note.width, height: note.height };
    const group = note.parent_uuid === null ? undefined : groups.get(note.parent_uuid);
    const wanted: Shift =
      group === undefined ? rows.next(frame) : { dx: group.left + group.width + LAYOUT_GAP, dy: group.top };
    result.set(note.uuid, placer.place(new Map([[note.uuid, frame]]), wanted).get(note.uuid)!);
  }
}

/** The box around `frames` and their padding, grown to also cover `containers` as they are. */
function enclose(containers: Frame[], frames: Frame[]): Frame {
  const box = boundingFrame(frames);
  const padded = {
    left: box.left - GROUP_PADDING,
    top: box.top - GROUP_TITLE,
    width: box.width + 2 * GROUP_PADDING,
    height: box.height + GROUP_TITLE + GROUP_PADDING,
  };
  return boundingFrame([padded, ...containers]);
}

/**
 * The document with every table, group and sticky note laid out anew ("Auto-layout"): the same layout an
 * import gets (a whole schema without groups may get the force-directed one), records otherwise unchanged.
 */
export function reLayOut(document: DiagramDocument): DiagramDocument {
  const frames = layOutNewRecords(document, {
    tables: new Set(document.tables.map((table) => table.uuid)),
    groups: new Set(document.groups.map((group) => group.uuid)),
    notes: new Set(document.sticky_notes.map((note) => note.uuid)),
  });
  const framed = <T extends { uuid: string }>(record: T): T => {
    const frame = frames.get(record.uuid);
    return frame === undefined ? record : { ...record, ...frame };
  };
  return {
    ...document,
    tables: document.tables.map(framed),
    groups: document.groups.map(framed),
    sticky_notes: document.sticky_notes.map(framed),
  };
}
