// Busy tables drawn again where the tables that reference them are (issue 26, item 1). In many real schemas
// one table is referenced by most of the others: in Lago's 139 tables, `organizations` ends 117 of the 340
// lines. However the layout places it, most of those lines cross half the drawing, in parallel, and they carry
// little: "this table belongs to an organization". Modelling tools answer this with a graphical copy of the
// table (a "shortcut" or "synonym"): the table is drawn once in full, and again, small and marked as a copy,
// beside each far group of the tables that reference it, whose lines then end on the copy.
//
// Here the copies are part of the drawing, not of the document: the stored layout is the one the person
// arranged, and the copies are placed from it every time the drawing is made (the output still depends only
// on the document, so a drawing stays byte-equal for equal input). A copy shows the busy table's name and the
// referenced key columns only; its relationships keep `data-target-table` (the busy table's name) and add
// `data-target-copy`. Copies carry `data-table-copy`, never `data-table`: one `data-table` per table, as the
// markup contract says. Only the read-only views ask for copies (the diagram page and its live updates, the
// embed view, a version's page, share links); the editor, the review page and exports draw every table once.
//
// Measured on Lago (package README, "Busy tables drawn again"): median line 6.5 → 3.1 table widths,
// crossings 7.9 → 4.5 per relationship, near-parallel pairs 59 → 26.
import type { DiagramDocument, DocumentTable, Relationship } from '@dss/schema';
import { COPY_LABEL_WIDTH } from './render-table';
import { type Box, fitTableBoxes, MAX_FIT_WIDTH, SIDE_PADDING, tableBox } from './table-geometry';
import { CHARACTER_WIDTH, estimatedWidth } from './text-fit';
import { textOf } from './xml';

/** A table referenced by at least this many tables… */
const BUSY_AT_LEAST = 24;
/** …and by at least this share of the diagram's tables is drawn again near far groups of them. */
const BUSY_SHARE = 0.3;
/** Referencing tables whose centre lies within this many median table widths of the table's (Manhattan) keep their line. */
const NEAR_WIDTHS = 4;
/** A copy serves the referencing tables within this many median table widths of the group's farthest one. */
const GROUP_WIDTHS = 7;
/** A group of fewer tables keeps its lines to the table itself. */
const GROUP_AT_LEAST = 2;
/** Free space kept around a copy (the layout's gap between tables, where lines run). */
const GAP = 80;
/** The search for a copy's place steps by this many px, out to SEARCH_RINGS steps from the group's centre. */
const STEP = 16;
const SEARCH_RINGS = 64;
/** Internal names of copies: a NUL cannot be part of a table's name in any of the three databases. */
const COPY_MARK = '\u0000copy';

export interface HubCopy {
  /** The busy table's name. */
  of: string;
  /** 1, 2, … per busy table. */
  index: number;
  /** How many tables' lines end on this copy. */
  serves: number;
}

export interface WithCopies {
  tables: DocumentTable[];
  relationships: Relationship[];
  /** Internal table name of each copy (in `tables`, relationships' `target_table`) → what it is. */
  copies: Map<string, HubCopy>;
}

/**
 * The tables that are busy enough to be drawn again: referenced by at least BUSY_AT_LEAST other tables and
 * BUSY_SHARE of all tables. Cheap (one pass over the relationships): pages ask it before choosing a drawing.
 */
export function busyTables(document: Pick<DiagramDocument, 'tables' | 'relationships'>): string[] {
  const tables = Array.isArray(document.tables) ? document.tables : [];
  const relationships = Array.isArray(document.relationships) ? document.relationships : [];
  const least = Math.max(BUSY_AT_LEAST, Math.ceil(tables.length * BUSY_SHARE));
  if (tables.length < least) return [];
  const referrers = referrersOf(relationships);
  const names = new Set(tables.map((table) => textOf(table.name)));
  return [...referrers]
    .filter(([target, sources]) => sources.size >= least && names.has(target))
    .map(([target]) => target)
    .sort();
}

/**
 * The drawing's tables and relationships with copies of the busy tables added and the far groups' lines
 * moved onto them, or null when there is nothing to copy. Groups and sticky notes have frames the copies
 * would have to keep clear of and belong to: a document with either is drawn as it is. Call after
 * fitTableBoxes over the document's tables (the copies keep clear of the fitted boxes).
 */
export function withHubCopies(document: DiagramDocument): WithCopies | null {
  const busy = busyTables(document);
  if (busy.length === 0) return null;
  if ((document.groups?.length ?? 0) > 0 || (document.sticky_notes?.length ?? 0) > 0) return null;
  const tables = document.tables;
  const byName = new Map(tables.map((table) => [textOf(table.name), table]));
  const boxes = tables.map(tableBox);
  const unit = median(boxes.map((box) => box.width));
  const occupied: Box[] = [...boxes];
  const referrers = referrersOf(document.relationships);
  const copies = new Map<string, HubCopy>();
  const movedTo = new Map<string, string>(); // `${source}\u0000${target}` → copy's internal name
  const copyTables: DocumentTable[] = [];

  for (const hub of busy) {
    const hubTable = byName.get(hub) as DocumentTable;
    const [hubX, hubY] = centre(tableBox(hubTable));
    const far = [...(referrers.get(hub) ?? [])]
      .filter((name) => name !== hub && byName.has(name))
      .map((name) => {
        const [x, y] = centre(tableBox(byName.get(name) as DocumentTable));
        return { name, x, y, distance: Math.abs(x - hubX) + Math.abs(y - hubY) };
      })
      .filter((table) => table.distance > NEAR_WIDTHS * unit)
      // Farthest first; ties by name, so the groups do not depend on the relationships' order.
      .sort((a, b) => b.distance - a.distance || (a.name < b.name ? -1 : 1));
    const left = new Set(far);
    let index = 0;
    for (const seed of far) {
      if (!left.has(seed)) continue;
      const members = [...left].filter(
        (table) => Math.abs(table.x - seed.x) + Math.abs(table.y - seed.y) <= GROUP_WIDTHS * unit,
      );
      for (const member of members) left.delete(member);
      if (members.length < GROUP_AT_LEAST) continue;
      const memberNames = new Set(members.map((member) => member.name));
      const keyColumns = new Set(
        document.relationships
          .filter((link) => textOf(link.target_table) === hub && memberNames.has(textOf(link.source_table)))
          .map((link) => textOf(link.target_column)),
      );
      const copy = copyOf(hubTable, keyColumns, `${hub}${COPY_MARK}${index + 1}`);
      const size = tableBox(copy);
      const at = freePlace(
        members.reduce((sum, member) => sum + member.x, 0) / members.length,
        members.reduce((sum, member) => sum + member.y, 0) / members.length,
        size,
        occupied,
      );
      if (at === null) continue;
      index += 1;
      const placed = { ...copy, left: at.left, top: at.top };
      occupied.push(tableBox(placed));
      copyTables.push(placed);
      copies.set(placed.name, { of: hub, index, serves: members.length });
      for (const name of memberNames) movedTo.set(`${name}\u0000${hub}`, placed.name);
    }
  }
  if (copyTables.length === 0) return null;
  return {
    tables: [...tables, ...copyTables],
    relationships: document.relationships.map((link) => {
      const to = movedTo.get(`${textOf(link.source_table)}\u0000${textOf(link.target_table)}`);
      return to === undefined ? link : { ...link, target_table: to };
    }),
    copies,
  };
}

/** Target table → the names of the other tables that reference it. */
function referrersOf(relationships: readonly Relationship[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const link of relationships) {
    const source = textOf(link.source_table);
    const target = textOf(link.target_table);
    if (source === target) continue;
    const sources = out.get(target) ?? new Set<string>();
    sources.add(source);
    out.set(target, sources);
  }
  return out;
}

/** The copy's table: the busy table's name and colour, only the referenced columns, sized to its text. */
function copyOf(hub: DocumentTable, keyColumns: ReadonlySet<string>, name: string): DocumentTable {
  const columns = (Array.isArray(hub.columns) ? hub.columns : []).filter((column) =>
    keyColumns.has(textOf(column.name)),
  );
  const sized: DocumentTable = {
    ...hub,
    uuid: `${textOf(hub.uuid)}${COPY_MARK}`,
    name,
    comment: null,
    columns,
    indexes: [],
    checks: [],
    left: 0,
    top: 0,
    width: 0,
    height: 0,
    parent_uuid: null,
  };
  // The copy's text is the busy table's name, not the internal one: size it on a table of that name. The
  // copy itself is never fitted (its stored size is this one).
  const probe = { ...sized, name: hub.name };
  fitTableBoxes([probe]);
  const box = tableBox(probe);
  // The header holds the name and the word "copy" after it.
  const header =
    2 * SIDE_PADDING + estimatedWidth(textOf(hub.name), CHARACTER_WIDTH.tableName) + COPY_LABEL_WIDTH;
  return {
    ...sized,
    width: Math.min(MAX_FIT_WIDTH, Math.max(box.width, Math.ceil(header))),
    height: box.height,
  };
}

/** The free place for a box of `size` nearest (x, y) that keeps GAP from every occupied box, or null. */
function freePlace(
  x: number,
  y: number,
  size: Box,
  occupied: readonly Box[],
): { left: number; top: number } | null {
  const fits = (left: number, top: number) =>
    occupied.every(
      (box) =>
        left + size.width + GAP <= box.left ||
        box.left + box.width + GAP <= left ||
        top + size.height + GAP <= box.top ||
        box.top + box.height + GAP <= top,
    );
  const left0 = Math.round(x - size.width / 2);
  const top0 = Math.round(y - size.height / 2);
  for (let ring = 0; ring <= SEARCH_RINGS; ring++) {
    const candidates: [number, number][] = [];
    for (let dx = -ring; dx <= ring; dx++)
      for (let dy = -ring; dy <= ring; dy++)
        if (Math.max(Math.abs(dx), Math.abs(dy)) === ring) candidates.push([dx, dy]);
    // Nearest first; ties in a fixed order (the loops'), so the place is the same on every drawing.
    candidates.sort((a, b) => a[0] * a[0] + a[1] * a[1] - (b[0] * b[0] + b[1] * b[1]));
    for (const [dx, dy] of candidates) {
      const left = left0 + dx * STEP;
      const top = top0 + dy * STEP;
      if (fits(left, top)) return { left, top };
    }
  }
  return null;
}

function centre(box: Box): [number, number] {
  return [box.left + box.width / 2, box.top + box.height / 2];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[sorted.length >> 1] as number);
}
