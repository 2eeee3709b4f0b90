// The structured difference between two versions of a document, for the review page. Records are matched
// by uuid, so a rename is a change of `name`, not a removal and an addition. Columns and indexes are listed
// for tables present on both sides; those of an added or removed table come with the table record.
import { compareStrings, compareTuples } from './compare';
import { canonicalJson } from './canonical-json';
import type { Column, DiagramDocument, DocumentTable, Group, Index, Relationship, StickyNote } from './model';
import { sortRelationships } from './project';

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface RecordChange {
  uuid: string;
  changes: FieldChange[];
}

export interface NamedChange extends RecordChange {
  /** The name after the change. */
  name: string;
}

export interface TablePartChange extends NamedChange {
  table_uuid: string;
  table: string;
}

export interface TablePart<T> {
  table_uuid: string;
  /** The table's name after the change (before it, for removals). */
  table: string;
  record: T;
}

export interface DiffSection<TRecord, TChange> {
  added: TRecord[];
  changed: TChange[];
  removed: TRecord[];
}

export interface DocumentDiff {
  tables: DiffSection<DocumentTable, NamedChange>;
  columns: DiffSection<TablePart<Column>, TablePartChange>;
  indexes: DiffSection<TablePart<Index>, TablePartChange>;
  relationships: DiffSection<Relationship, RecordChange>;
  groups: DiffSection<Group, NamedChange>;
  sticky_notes: DiffSection<StickyNote, RecordChange>;
}

const FRAME_FIELDS = ['left', 'top', 'width', 'height'] as const;
// `checks` is compared as one field: a CHECK constraint has no uuid of its own, only its name.
const TABLE_FIELDS = [
  'name',
  'comment',
  'parent_uuid',
  'color',
  'checks',
  'charset',
  'collation',
  ...FRAME_FIELDS,
] as const;
const COLUMN_FIELDS = [
  'name',
  'driver_data_type_name',
  'driver_data_type_params',
  'default',
  'is_nullable',
  'is_primary_key',
  'is_unique_key',
  'is_index',
  'is_auto_increment',
  'is_unsigned',
  'comment',
  'collation',
  'enum_name',
] as const;
const INDEX_FIELDS = ['name', 'type', 'columns', 'method', 'note'] as const;
const RELATIONSHIP_FIELDS = [
  'name',
  'type',
  'source_table',
  'source_column',
  'target_table',
  'target_column',
  'on_delete',
  'on_update',
] as const;
const GROUP_FIELDS = ['name', 'color', 'parent_uuid', ...FRAME_FIELDS] as const;
const NOTE_FIELDS = ['content', 'color', 'parent_uuid', ...FRAME_FIELDS] as const;

export function diff(before: DiagramDocument, after: DiagramDocument): DocumentDiff {
  const tables = matchRecords(before.tables, after.tables, TABLE_FIELDS);
  const parts = tablePartsDiff(tables.pairs);
  const relationships = matchRecords(before.relationships, after.relationships, RELATIONSHIP_FIELDS);
  const groups = matchRecords(before.groups, after.groups, GROUP_FIELDS);
  const notes = matchRecords(before.sticky_notes, after.sticky_notes, NOTE_FIELDS);
  return {
    tables: {
      added: byName(tables.added),
      changed: byName(tables.changed.map(({ after: table, changes }) => named(table, changes))),
      removed: byName(tables.removed),
    },
    ...parts,
    relationships: {
      added: sortRelationships(relationships.added),
      changed: sortChanges(relationships.changed, (change) => relationshipKey(change.after)),
      removed: sortRelationships(relationships.removed),
    },
    groups: {
      added: byName(groups.added),
      changed: byName(groups.changed.map(({ after: group, changes }) => named(group, changes))),
      removed: byName(groups.removed),
    },
    sticky_notes: {
      added: notes.added.sort(compareNotes),
      changed: sortChanges(notes.changed, (change) => [change.after.content, change.after.uuid]),
      removed: notes.removed.sort(compareNotes),
    },
  };
}

/** True when the diff lists nothing at all. */
export function isEmptyDiff(result: DocumentDiff): boolean {
  return Object.values(result).every(
    (section: DiffSection<unknown, unknown>) =>
      section.added.length === 0 && section.changed.length === 0 && section.removed.length === 0,
  );
}

interface Matched<T> {
  added: T[];
  removed: T[];
  changed: { before: T; after: T; changes: FieldChange[] }[];
  /** Every record present on both sides, changed or not. */
  pairs: { before: T; after: T }[];
}

function matchRecords<T extends { uuid: string }>(
  before: readonly T[],
  after: readonly T[],
  fields: readonly (keyof T & string)[],
): Matched<T> {
  const result: Matched<T> = { added: [], removed: [], changed: [], pairs: [] };
  const matched = new Uint8Array(before.length);
  let positions: Map<string, number> | undefined;
  for (let index = 0; index < after.length; index++) {
    const record = after[index]!;
    // Records usually keep their positions; the uuid map is built only when one has moved.
    let position: number | undefined = before[index]?.uuid === record.uuid ? index : undefined;
    if (position === undefined) {
      positions ??= new Map(before.map((old, at) => [old.uuid, at]));
      position = positions.get(record.uuid);
    }
    if (position === undefined) {
      result.added.push(record);
      continue;
    }
    matched[position] = 1;
    const old = before[position]!;
    result.pairs.push({ before: old, after: record });
    const changes = old === record ? [] : fieldChanges(old, record, fields);
    if (changes.length > 0) result.changed.push({ before: old, after: record, changes });
  }
  result.removed = before.filter((_, position) => matched[position] === 0);
  return result;
}

function fieldChanges<T>(before: T, after: T, fields: readonly (keyof T & string)[]): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const a = before[field];
    const b = after[field];
    if (a === b || (typeof a === 'object' && canonicalJson(a) === canonicalJson(b))) continue;
    // An absent list (`checks` of a document saved before it existed) equals an empty one.
    if (isEmptyList(a) && isEmptyList(b)) continue;
    changes.push({ field, before: a, after: b });
  }
  return changes;
}

function isEmptyList(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Columns and indexes of the tables present on both sides, in table-name order then schema order. */
function tablePartsDiff(pairs: { before: DocumentTable; after: DocumentTable }[]) {
  const ordered = pairs
    .filter((pair) => pair.before !== pair.after)
    .sort((a, b) => compareStrings(a.after.name, b.after.name) || compareStrings(a.after.uuid, b.after.uuid));
  const columns: DocumentDiff['columns'] = { added: [], changed: [], removed: [] };
  const indexes: DocumentDiff['indexes'] = { added: [], changed: [], removed: [] };
  for (const { before, after } of ordered) {
    collectParts(columns, before, after, matchRecords(before.columns, after.columns, COLUMN_FIELDS));
    collectParts(indexes, before, after, matchRecords(before.indexes, after.indexes, INDEX_FIELDS));
  }
  return { columns, indexes };
}

function collectParts<T extends { uuid: string; name: string }>(
  section: DiffSection<TablePart<T>, TablePartChange>,
  before: DocumentTable,
  after: DocumentTable,
  matched: Matched<T>,
): void {
  const scope = { table_uuid: after.uuid, table: after.name };
  for (const record of matched.added) section.added.push({ ...scope, record });
  for (const { after: record, changes } of matched.changed)
    section.changed.push({ ...scope, ...named(record, changes) });
  for (const record of matched.removed)
    section.removed.push({ table_uuid: before.uuid, table: before.name, record });
}

function named(record: { uuid: string; name: string }, changes: FieldChange[]): NamedChange {
  return { uuid: record.uuid, name: record.name, changes };
}

function byName<T extends { uuid: string; name: string }>(records: T[]): T[] {
  return records.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.uuid, b.uuid));
}

function relationshipKey(r: Relationship): string[] {
  return [r.source_table, r.source_column, r.target_table, r.target_column, r.uuid];
}

function sortChanges<T extends { uuid: string }>(
  changed: { after: T; changes: FieldChange[] }[],
  key: (change: { after: T }) => string[],
): RecordChange[] {
  return changed
    .sort((a, b) => compareTuples(key(a), key(b)))
    .map(({ after, changes }) => ({ uuid: after.uuid, changes }));
}

function compareNotes(a: StickyNote, b: StickyNote): number {
  return compareStrings(a.content, b.content) || compareStrings(a.uuid, b.uuid);
}
