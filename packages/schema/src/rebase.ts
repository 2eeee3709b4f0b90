// Rebasing a patch: a patch written against one version of a diagram (its base) is applied to a later one
// only if it still means the same thing there. Patches name entities; the model identifies them by uuid.
// So the patch is applied to its base to learn which entities (by uuid) it touches and which it relies on,
// the diff engine lists what changed between the base and the current document, and any overlap is a
// conflict named after the entity. When there is none, every name the patch uses still denotes the same
// entity on the current document, and the patch applies there unchanged.
//
// What counts (layout never does: positions, sizes, colors and group membership change meaning of nothing):
// - an entity the patch changes, restates (a merge entry sets every field it sends, so on a changed column
//   it would silently undo the other change) or deletes conflicts with any change, rename or drop of it;
// - an entity the patch relies on conflicts when dropped or renamed: the table a column or index entry
//   sits in, the group a record is placed in, a restated entry of an additive patch (which adds it again
//   under its old name if it was renamed); a column a relationship or an index entry links conflicts
//   with any change but its comment (a retyped key no longer matches the referencing column);
// - a name the patch introduces conflicts with the same name introduced in between (the patch would
//   update the other entity instead of adding its own), and so does a link between the same two columns;
// - a deletion conflicts with what it would take along that did not exist at the base: columns, indexes or
//   relationships added to a dropped table or column, records moved into a group deleted with its children.
import { apply } from './apply';
import { type DocumentDiff, diff, type FieldChange } from './diff';
import type { DiagramDocument, Relationship } from './model';
import type { Patch } from './patch-types';
import { EntityIndex } from './rebase-index';

export type RebaseEntity = 'table' | 'column' | 'index' | 'relationship' | 'group' | 'sticky_note';
export type RebaseChange = 'dropped' | 'renamed' | 'changed' | 'added';

export interface RebaseConflict {
  entity: RebaseEntity;
  /** The table, as the base names it (a relationship's source table); absent for groups and notes. */
  table?: string;
  /** For columns: the column as the base names it. */
  column?: string;
  /** For indexes and groups: the name; for relationships `source -> target`; for notes the uuid. */
  name?: string;
  change: RebaseChange;
  /** One sentence naming the entity and what happened to it. */
  reason: string;
}

export type RebaseResult = { ok: true; patch: Patch } | { ok: false; conflicts: RebaseConflict[] };

const LAYOUT_FIELDS: ReadonlySet<string> = new Set([
  'left',
  'top',
  'width',
  'height',
  'color',
  'parent_uuid',
]);
const ENDPOINT_FIELDS: ReadonlySet<string> = new Set([
  'source_table',
  'source_column',
  'target_table',
  'target_column',
]);

/** The message of a refused rebase: every conflict's reason, in order. */
export function rebaseConflictMessage(conflicts: readonly RebaseConflict[]): string {
  const reasons = conflicts.slice(0, 5).map((conflict) => conflict.reason);
  const more = conflicts.length > 5 ? `; and ${conflicts.length - 5} more` : '';
  return `The diagram changed since the version this change was made on: ${reasons.join('; ')}${more}`;
}

/**
 * Decides whether `patch`, validated against `base`, means the same thing on `current`. On success the
 * patch to apply to `current` is returned (the same entries: its names still denote the same entities).
 */
export function rebasePatch(patch: Patch, base: DiagramDocument, current: DiagramDocument): RebaseResult {
  if (base === current) return { ok: true, patch };
  const between = new Changes(diff(base, current));
  if (between.isEmpty) return { ok: true, patch };
  let next = 0;
  const patched = apply(base, patch, { newUuid: () => `\u0000rebase-${++next}` }).document;
  const check = new RebaseCheck(new EntityIndex(base), new EntityIndex(current), new EntityIndex(patched));
  check.run(patch, diff(base, patched), between);
  return check.conflicts.size === 0
    ? { ok: true, patch }
    : { ok: false, conflicts: [...check.conflicts.values()] };
}

/** What happened to each entity between two documents, by uuid, layout fields left out. */
class Changes {
  /** uuid → the meaningful fields that changed. */
  readonly changed = new Map<string, FieldChange[]>();
  readonly removed = new Set<string>();
  readonly isEmpty: boolean;

  constructor(readonly diff: DocumentDiff) {
    for (const section of Object.values(diff) as DocumentDiff[keyof DocumentDiff][]) {
      for (const change of section.changed) {
        const fields = change.changes.filter((entry) => !LAYOUT_FIELDS.has(entry.field));
        if (fields.length > 0) this.changed.set(change.uuid, fields);
      }
    }
    for (const table of diff.tables.removed) {
      this.removed.add(table.uuid);
      for (const column of table.columns) this.removed.add(column.uuid);
      for (const index of table.indexes) this.removed.add(index.uuid);
    }
    for (const part of [...diff.columns.removed, ...diff.indexes.removed]) this.removed.add(part.record.uuid);
    for (const record of [
      ...diff.relationships.removed,
      ...diff.groups.removed,
      ...diff.sticky_notes.removed,
    ])
      this.removed.add(record.uuid);
    this.isEmpty =
      this.changed.size === 0 &&
      this.removed.size === 0 &&
      diff.tables.added.length === 0 &&
      diff.columns.added.length === 0 &&
      diff.indexes.added.length === 0 &&
      diff.relationships.added.length === 0 &&
      diff.groups.added.length === 0;
  }

  fieldsOf(uuid: string): string[] {
    return (this.changed.get(uuid) ?? []).map((change) => change.field);
  }

  /** The new value of `field` if it changed. */
  after(uuid: string, field: string): unknown {
    return this.changed.get(uuid)?.find((change) => change.field === field)?.after;
  }
}

/** How the patch depends on an entity. */
type Use = 'edits' | 'relies' | 'links';

class RebaseCheck {
  readonly conflicts = new Map<string, RebaseConflict>();

  constructor(
    private readonly base: EntityIndex,
    private readonly current: EntityIndex,
    private readonly patched: EntityIndex,
  ) {}

  run(patch: Patch, effect: DocumentDiff, between: Changes): void {
    const uses = this.usesOf(patch, effect);
    for (const [uuid, use] of uses) this.checkUse(uuid, use, between);
    this.checkNewNames(effect);
    this.checkDeletions(effect, between);
  }

  /** Every base entity the patch edits, relies on or links, by uuid (the strongest use wins). */
  private usesOf(patch: Patch, effect: DocumentDiff): Map<string, Use> {
    const uses = new Map<string, Use>();
    const strength: Record<Use, number> = { relies: 0, links: 1, edits: 2 };
    const use = (uuid: string | undefined, kind: Use) => {
      if (uuid === undefined || !this.isBaseEntity(uuid)) return;
      const before = uses.get(uuid);
      if (before === undefined || strength[kind] > strength[before]) uses.set(uuid, kind);
    };
    for (const change of effect.tables.changed)
      if (change.changes.some((entry) => !LAYOUT_FIELDS.has(entry.field))) use(change.uuid, 'edits');
    for (const table of effect.tables.removed) use(table.uuid, 'edits');
    for (const section of [effect.columns, effect.indexes]) {
      for (const part of section.added) use(part.table_uuid, 'relies');
      for (const change of section.changed) {
        use(change.uuid, 'edits');
        use(change.table_uuid, 'relies');
      }
      for (const part of section.removed) {
        use(part.record.uuid, 'edits');
        use(part.table_uuid, 'relies');
      }
    }
    for (const change of effect.relationships.changed) {
      const before = this.base.relationships.get(change.uuid)!;
      const after = this.patched.relationships.get(change.uuid)!;
      // A link whose endpoint names only follow a rename of its table or column is not edited by the patch.
      const followsRename =
        change.changes.every((entry) => ENDPOINT_FIELDS.has(entry.field)) &&
        this.base.pairOf(before) === this.patched.pairOf(after);
      if (!followsRename) use(change.uuid, 'edits');
    }
    for (const relationship of effect.relationships.removed) use(relationship.uuid, 'edits');
    for (const relationship of effect.relationships.added) this.linkEndpoints(relationship, use);
    for (const group of effect.groups.removed) use(group.uuid, 'edits');
    for (const note of effect.sticky_notes.removed) use(note.uuid, 'edits');
    for (const note of effect.sticky_notes.added) use(note.parent_uuid ?? undefined, 'relies');

    // Entries the patch restates: their names must still denote the same records.
    const restated: Use = patch.strategy === 'merge' ? 'edits' : 'relies';
    for (const entry of patch.tables) {
      const table = this.patched.tablesByName.get(entry.name);
      if (table === undefined) continue;
      use(table.uuid, 'relies');
      if (entry.parent_uuid !== undefined || entry.parent_name !== undefined)
        use(table.parent_uuid ?? undefined, 'relies');
      for (const column of entry.columns)
        use(table.columns.find((c) => c.name === column.name)?.uuid, restated);
      for (const index of entry.indexes) {
        use(table.indexes.find((i) => i.name === index.name)?.uuid, restated);
        for (const name of index.columns) use(table.columns.find((c) => c.name === name)?.uuid, 'links');
      }
    }
    for (const entry of patch.relationships) {
      const source = this.patched.columnUuid(entry.source_table, entry.source_column);
      const target = this.patched.columnUuid(entry.target_table, entry.target_column);
      for (const uuid of [source, target]) {
        use(uuid, 'links');
        if (uuid !== undefined) use(this.patched.columns.get(uuid)?.table.uuid, 'relies');
      }
      if (source !== undefined && target !== undefined) {
        const pair = source < target ? `${source}\u0000${target}` : `${target}\u0000${source}`;
        use(this.patched.relationshipsByPair.get(pair)?.uuid, restated);
      }
    }
    for (const entry of patch.groups) use(this.patched.groupsByName.get(entry.name)?.uuid, 'relies');
    for (const entry of patch.sticky_notes)
      if (entry.parent_uuid !== undefined) use(entry.parent_uuid, 'relies');
      else if (entry.parent_name !== undefined)
        use(this.patched.groupsByName.get(entry.parent_name)?.uuid, 'relies');
    return uses;
  }

  private linkEndpoints(
    relationship: Relationship,
    use: (uuid: string | undefined, kind: Use) => void,
  ): void {
    for (const [table, column] of [
      [relationship.source_table, relationship.source_column],
      [relationship.target_table, relationship.target_column],
    ] as const) {
      const uuid = this.patched.columnUuid(table, column);
      use(uuid, 'links');
      use(this.patched.tablesByName.get(table)?.uuid, 'relies');
    }
  }

  private isBaseEntity(uuid: string): boolean {
    const base = this.base;
    return (
      base.tables.has(uuid) ||
      base.columns.has(uuid) ||
      base.indexes.has(uuid) ||
      base.relationships.has(uuid) ||
      base.groups.has(uuid) ||
      base.notes.has(uuid)
    );
  }

  private checkUse(uuid: string, use: Use, between: Changes): void {
    if (between.removed.has(uuid)) {
      this.add(uuid, 'dropped', '');
      return;
    }
    const fields = between.fieldsOf(uuid);
    if (fields.length === 0) return;
    const relevant =
      use === 'edits'
        ? fields
        : use === 'links'
          ? fields.filter((field) => field !== 'comment')
          : fields.filter((field) => field === 'name');
    if (relevant.length === 0) return;
    if (relevant.includes('name')) this.add(uuid, 'renamed', String(between.after(uuid, 'name')));
    else this.add(uuid, 'changed', relevant.join(', '));
  }

  /** Names the patch introduces (new or renamed records, new links) that were introduced in between too. */
  private checkNewNames(effect: DocumentDiff): void {
    const isIntroduced = (change: { changes: FieldChange[] }) =>
      change.changes.some((c) => c.field === 'name');
    const tables = [
      ...effect.tables.added,
      ...effect.tables.changed.filter(isIntroduced).map((change) => this.patched.tables.get(change.uuid)!),
    ];
    for (const table of tables) {
      const now = this.current.tablesByName.get(table.name);
      if (now !== undefined && this.base.tablesByName.get(table.name)?.uuid !== now.uuid)
        this.addNew('table', { table: table.name }, `table ${table.name}`);
    }
    for (const [section, entity] of [
      [effect.columns, 'column'],
      [effect.indexes, 'index'],
    ] as const) {
      const parts = [
        ...section.added.map((part) => ({ table_uuid: part.table_uuid, name: part.record.name })),
        ...section.changed.filter(isIntroduced),
      ];
      for (const part of parts) {
        const before = this.base.tables.get(part.table_uuid);
        const now = this.current.tables.get(part.table_uuid);
        if (before === undefined || now === undefined) continue;
        const records = (table: typeof now) => (entity === 'column' ? table.columns : table.indexes);
        const found = records(now).find((record) => record.name === part.name);
        if (
          found !== undefined &&
          records(before).find((record) => record.name === part.name)?.uuid !== found.uuid
        ) {
          const where =
            entity === 'column'
              ? { table: before.name, column: part.name }
              : { table: before.name, name: part.name };
          this.addNew(entity, where, `${entity} ${before.name}.${part.name}`);
        }
      }
    }
    for (const group of effect.groups.added) {
      const now = this.current.groupsByName.get(group.name);
      if (now !== undefined && this.base.groupsByName.get(group.name)?.uuid !== now.uuid)
        this.addNew('group', { name: group.name }, `group ${group.name}`);
    }
    for (const relationship of effect.relationships.added) {
      const pair = this.patched.pairOf(relationship);
      const now = pair === null ? undefined : this.current.relationshipsByPair.get(pair);
      if (now !== undefined && !this.base.relationships.has(now.uuid))
        this.addNew(
          'relationship',
          { table: relationship.source_table, name: linkName(relationship) },
          `relationship ${linkName(relationship)}`,
        );
    }
  }

  /** What the patch's deletions would take along on the current document that they did not at the base. */
  private checkDeletions(effect: DocumentDiff, between: Changes): void {
    const dropped = new Set(effect.tables.removed.map((table) => table.uuid));
    for (const part of [
      ...between.diff.columns.added,
      ...between.diff.columns.changed,
      ...between.diff.columns.removed,
      ...between.diff.indexes.added,
      ...between.diff.indexes.changed,
      ...between.diff.indexes.removed,
    ])
      if (dropped.has(part.table_uuid)) this.add(part.table_uuid, 'changed', 'columns or indexes');
    const droppedColumns = new Set(effect.columns.removed.map((part) => part.record.uuid));
    for (const uuid of effect.tables.removed.flatMap((table) => table.columns.map((column) => column.uuid)))
      droppedColumns.add(uuid);
    if (droppedColumns.size > 0) {
      for (const relationship of this.current.document.relationships) {
        if (this.base.relationships.has(relationship.uuid) && !between.changed.has(relationship.uuid))
          continue;
        for (const [table, column] of [
          [relationship.source_table, relationship.source_column],
          [relationship.target_table, relationship.target_column],
        ] as const) {
          const uuid = this.current.columnUuid(table, column);
          if (uuid !== undefined && droppedColumns.has(uuid)) this.add(uuid, 'changed', 'relationships');
        }
      }
      for (const part of [...between.diff.indexes.added, ...between.diff.indexes.changed]) {
        const table = this.current.tables.get(part.table_uuid)!;
        const index = table.indexes.find(
          (entry) => entry.uuid === ('record' in part ? part.record.uuid : part.uuid),
        )!;
        for (const name of index.columns) {
          const uuid = table.columns.find((column) => column.name === name)?.uuid;
          if (uuid !== undefined && droppedColumns.has(uuid)) this.add(uuid, 'changed', 'indexes');
        }
      }
    }
    const droppedGroups = new Set(effect.groups.removed.map((group) => group.uuid));
    if (droppedGroups.size === 0) return;
    for (const section of [between.diff.tables, between.diff.groups, between.diff.sticky_notes]) {
      for (const change of section.changed)
        for (const entry of change.changes)
          if (entry.field === 'parent_uuid')
            for (const uuid of [entry.before, entry.after])
              if (typeof uuid === 'string' && droppedGroups.has(uuid)) this.add(uuid, 'changed', 'members');
      for (const record of section.added)
        if (record.parent_uuid !== null && droppedGroups.has(record.parent_uuid))
          this.add(record.parent_uuid, 'changed', 'members');
    }
  }

  /** A conflict on a base entity; `detail` is the new name (renamed) or the changed fields (changed). */
  private add(uuid: string, change: Exclude<RebaseChange, 'added'>, detail: string): void {
    const key = `${change}:${uuid}`;
    if (this.conflicts.has(key)) return;
    const described = this.describe(uuid);
    if (described === null) return;
    const { conflict, label } = described;
    const what =
      change === 'dropped'
        ? 'was dropped'
        : change === 'renamed'
          ? `was renamed to ${detail}`
          : `was changed (${detail})`;
    this.conflicts.set(key, { ...conflict, change, reason: `${label} ${what} after the patch was made` });
  }

  private addNew(
    entity: RebaseEntity,
    where: Omit<RebaseConflict, 'entity' | 'change' | 'reason'>,
    label: string,
  ): void {
    const key = `added:${entity}:${label}`;
    if (this.conflicts.has(key)) return;
    this.conflicts.set(key, {
      entity,
      ...where,
      change: 'added',
      reason: `${label} was added after the patch was made, and the patch adds one too`,
    });
  }

  /** The conflict's entity fields and a label such as `column users.name`, from the base's names. */
  private describe(
    uuid: string,
  ): { conflict: Pick<RebaseConflict, 'entity' | 'table' | 'column' | 'name'>; label: string } | null {
    const base = this.base;
    const table = base.tables.get(uuid);
    if (table) return { conflict: { entity: 'table', table: table.name }, label: `table ${table.name}` };
    const column = base.columns.get(uuid);
    if (column) {
      const { table: owner, record } = column;
      return {
        conflict: { entity: 'column', table: owner.name, column: record.name },
        label: `column ${owner.name}.${record.name}`,
      };
    }
    const index = base.indexes.get(uuid);
    if (index) {
      const { table: owner, record } = index;
      return {
        conflict: { entity: 'index', table: owner.name, name: record.name },
        label: `index ${record.name} of table ${owner.name}`,
      };
    }
    const relationship = base.relationships.get(uuid);
    if (relationship) {
      const name = linkName(relationship);
      return {
        conflict: { entity: 'relationship', table: relationship.source_table, name },
        label: `relationship ${name}`,
      };
    }
    const group = base.groups.get(uuid);
    if (group) return { conflict: { entity: 'group', name: group.name }, label: `group ${group.name}` };
    const note = base.notes.get(uuid);
    if (note)
      return { conflict: { entity: 'sticky_note', name: note.uuid }, label: `sticky note ${note.uuid}` };
    return null;
  }
}

function linkName(relationship: Relationship): string {
  return `${relationship.source_table}.${relationship.source_column} -> ${relationship.target_table}.${relationship.target_column}`;
}
