// Applies a validated patch to a diagram document. Pure: the input document is never mutated; records the
// patch does not touch are shared between the input and the result.
//
// Order: deletions (merge only), groups, tables, renames carried into relationships, relationships, sticky
// notes, then the layout of records created without a position.
import { applyDeletions } from './apply-deletions';
import { takeApplied } from './apply-memo';
import { DocumentDraft } from './apply-draft';
import { addStickyNote, applyGroupEntry } from './apply-groups';
import { applyRelationshipEntries, followRenames } from './apply-relationships';
import { applyTableEntry } from './apply-tables';
import { type DocumentDiff, diff } from './diff';
import { layOutNewRecords } from './layout';
import type { DiagramDocument } from './model';
import type { Patch } from './patch-types';
import { randomUuid } from './uuid';

export interface ApplyOptions {
  /** Source of UUIDs for new records; random version-4 UUIDs (`randomUuid`, from `crypto`) by default. */
  newUuid?: () => string;
}

export interface ApplyResult {
  document: DiagramDocument;
  /** What changed, computed on first read (creating a diagram needs the document only). */
  readonly diff: DocumentDiff;
}

export function apply(document: DiagramDocument, patch: Patch, options: ApplyOptions = {}): ApplyResult {
  // Validation applied this patch already (to check its relationships); its result is this one.
  if (options.newUuid === undefined) {
    const validated = takeApplied<ApplyResult>(patch, document);
    if (validated !== undefined) return validated;
  }
  const draft = new DocumentDraft(document, options.newUuid ?? randomUuid);
  if (patch.strategy === 'merge') applyDeletions(draft, patch.deletions, renamedFrom(patch));
  for (const entry of patch.groups) applyGroupEntry(draft, entry, patch.strategy);
  for (const entry of patch.tables) applyTableEntry(draft, entry, patch.strategy);
  followRenames(draft);
  applyRelationshipEntries(draft, patch.relationships, patch.strategy);
  for (const entry of patch.sticky_notes) addStickyNote(draft, entry);
  placeNewRecords(draft);
  const result = draft.toDocument();
  let changes: DocumentDiff | undefined;
  return {
    document: result,
    get diff() {
      changes ??= diff(document, result);
      return changes;
    },
  };
}

/** New table name → old table name, for deletions written with the name the patch gives a table. */
function renamedFrom(patch: Patch): Map<string, string> {
  const names = new Map<string, string>();
  for (const table of patch.tables) if (table.old_name !== undefined) names.set(table.name, table.old_name);
  return names;
}

function placeNewRecords(draft: DocumentDraft): void {
  const frames = layOutNewRecords(draft.toDocument(), draft.unplaced);
  for (const [uuid, frame] of frames) {
    const record = draft.tables.has(uuid)
      ? draft.editTable(uuid)
      : draft.groups.has(uuid)
        ? draft.editGroup(uuid)
        : draft.editNote(uuid);
    Object.assign(record, frame);
  }
}
