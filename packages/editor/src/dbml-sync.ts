// The DBML pane's edit: what a person changed in the text, as one patch for the editor's engine.
//
// The server reads DBML by writing it as the driver's DDL and importing that (packages/ddl, "DBML in"), so
// a diagram read back from its own DBML export is close to, but not always equal to, the diagram (a
// default's spelling, an index's name). So the change is not "the text against the diagram" but "the text
// against the text it was edited from": both are read by the same conversion, their records matched by
// name, and `patchBetween` writes the difference. That patch names everything by name, so it applies to
// the diagram on screen as any canvas edit does (normalize → validate → apply, one undo step), and an edit
// made on the canvas meanwhile stays. Tables, groups and notes the text already had keep their places on
// the canvas; new ones go to free space in the part in view (`freeSpotFor`).
import {
  type DiagramDocument,
  type DocumentTable,
  estimateTableSize,
  type Group,
  type Relationship,
  type StickyNote,
} from '@dss/schema';
import { type EditPatch, patchBetween } from './changes';
import { freeSpotFor, type Rect } from './placement';

/**
 * The patch that makes `current` (the diagram on screen) show what changed from `base` (the text the person
 * started from, as read) to `next` (the text now, as read).
 */
export function dbmlChange(
  base: DiagramDocument,
  next: DiagramDocument,
  current: DiagramDocument,
  view: Rect,
): EditPatch {
  const taken: Rect[] = [...current.tables, ...current.groups, ...current.sticky_notes].map(box);
  const place = (size: { width: number; height: number }) => {
    const spot = freeSpotFor(size, view, taken);
    taken.push({ ...spot, width: size.width, height: size.height });
    return spot;
  };

  // Groups by name: one the base had keeps its uuid and frame; a new one is placed in free space.
  const baseGroups = new Map(base.groups.map((group) => [group.name, group]));
  const currentGroups = new Map(current.groups.map((group) => [group.name, group]));
  const groupUuid = new Map<string, string>();
  const groups: Group[] = next.groups.map((group) => {
    const before = baseGroups.get(group.name);
    const frame = currentGroups.get(group.name) ?? before;
    const uuid = before?.uuid ?? group.uuid;
    groupUuid.set(group.uuid, uuid);
    if (before) return { ...group, uuid, parent_uuid: before.parent_uuid, ...frameOf(before) };
    return { ...group, ...(frame ? frameOf(frame) : place(group)) };
  });
  const parentOf = (uuid: string | null) => (uuid === null ? null : (groupUuid.get(uuid) ?? uuid));

  // Tables by name, columns and indexes within them by name: a table the base had keeps its place.
  const baseTables = new Map(base.tables.map((table) => [table.name, table]));
  const tables: DocumentTable[] = next.tables.map((table) => {
    const before = baseTables.get(table.name);
    const parent_uuid = parentOf(table.parent_uuid);
    if (!before) return { ...table, parent_uuid, ...place(estimateTableSize(table)) };
    const columnUuid = new Map(before.columns.map((column) => [column.name, column.uuid]));
    const indexUuid = new Map(before.indexes.map((index) => [index.name, index.uuid]));
    return {
      ...table,
      uuid: before.uuid,
      parent_uuid,
      left: before.left,
      top: before.top,
      columns: table.columns.map((column) => ({
        ...column,
        uuid: columnUuid.get(column.name) ?? column.uuid,
      })),
      indexes: table.indexes.map((index) => ({ ...index, uuid: indexUuid.get(index.name) ?? index.uuid })),
    };
  });

  const baseRelationships = new Map(base.relationships.map((r) => [endpointKey(r), r]));
  const relationships: Relationship[] = next.relationships.map((r) => {
    const before = baseRelationships.get(endpointKey(r));
    return before ? { ...r, uuid: before.uuid } : r;
  });

  // Notes have no name: one with the same text (and group) as a note of the base is that note.
  const baseNotes = new Map<string, StickyNote[]>();
  for (const note of base.sticky_notes) {
    const key = noteKey(note.content, base.groups.find((group) => group.uuid === note.parent_uuid)?.name);
    baseNotes.set(key, [...(baseNotes.get(key) ?? []), note]);
  }
  const sticky_notes: StickyNote[] = next.sticky_notes.map((note) => {
    const key = noteKey(note.content, next.groups.find((group) => group.uuid === note.parent_uuid)?.name);
    const before = baseNotes.get(key)?.shift();
    if (before) return before;
    return { ...note, parent_uuid: parentOf(note.parent_uuid), ...place(note) };
  });

  return patchBetween(base, { ...next, groups, tables, relationships, sticky_notes });
}

function box({ left, top, width, height }: Rect): Rect {
  return { left, top, width, height };
}

function frameOf(frame: Rect): Rect {
  return { left: frame.left, top: frame.top, width: frame.width, height: frame.height };
}

function endpointKey(r: Relationship): string {
  return [r.source_table, r.source_column, r.target_table, r.target_column].join('\u0000');
}

function noteKey(content: string, group: string | undefined): string {
  return `${group ?? ''}\u0000${content}`;
}

/** The line (1-based) where `Table <name>` starts in DBML text, for a problem that names a table. */
export function tableLine(text: string, table: string): { line: number; column: number } | null {
  const lines = text.split('\n');
  const quoted = (name: string) => [name, `"${name}"`, `\`${name}\``];
  const forms = new Set(quoted(table));
  // A schema-qualified name may be written `schema.table` or `"schema"."table"`.
  const dot = table.indexOf('.');
  if (dot > 0) forms.add(`"${table.slice(0, dot)}"."${table.slice(dot + 1)}"`);
  for (let at = 0; at < lines.length; at++) {
    const match = /^\s*table\s+("[^"]+"(?:\."[^"]+")?|`[^`]+`|[^\s{[]+)/i.exec(lines[at]!);
    if (match && forms.has(match[1]!))
      return { line: at + 1, column: lines[at]!.toLowerCase().indexOf('table') + 1 };
  }
  return null;
}
