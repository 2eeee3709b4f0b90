// Group and sticky note entries. Groups are identified by name; sticky notes have no name, so every note
// entry of a patch is a new note (existing notes are deleted by UUID in `deletions`).
import type { DocumentDraft } from './apply-draft';
import type { PatchFrame, PatchGroup, PatchStickyNote, Strategy } from './patch-types';

/** Size given to a group or sticky note the patch sends no size for and that has no members to enclose. */
export const DEFAULT_GROUP_SIZE = { width: 320, height: 200 };
export const DEFAULT_NOTE_SIZE = { width: 240, height: 160 };

export function applyGroupEntry(draft: DocumentDraft, entry: PatchGroup, strategy: Strategy): void {
  const uuid = draft.groupNames.get(entry.name);
  if (uuid === undefined) {
    const group = { uuid: draft.newUuid(), name: entry.name, color: null, parent_uuid: null };
    draft.addGroup({ ...group, ...frameOf(entry, DEFAULT_GROUP_SIZE) });
    if (!isPlaced(entry)) draft.unplaced.groups.add(group.uuid);
  } else if (strategy === 'merge' && hasFrameFields(entry)) {
    const group = draft.editGroup(uuid);
    if (entry.left !== undefined) group.left = entry.left;
    if (entry.top !== undefined) group.top = entry.top;
    if (entry.width !== undefined) group.width = entry.width;
    if (entry.height !== undefined) group.height = entry.height;
  }
}

export function addStickyNote(draft: DocumentDraft, entry: PatchStickyNote): void {
  const uuid = draft.newUuid();
  const parent_uuid = draft.resolveParent(entry.parent_uuid, entry.parent_name) ?? null;
  draft.addNote({
    uuid,
    content: entry.content,
    color: null,
    parent_uuid,
    ...frameOf(entry, DEFAULT_NOTE_SIZE),
  });
  if (!isPlaced(entry)) draft.unplaced.notes.add(uuid);
}

function frameOf(entry: PatchFrame, size: { width: number; height: number }) {
  return {
    left: entry.left ?? 0,
    top: entry.top ?? 0,
    width: entry.width ?? size.width,
    height: entry.height ?? size.height,
  };
}

function isPlaced(entry: PatchFrame): boolean {
  return entry.left !== undefined && entry.top !== undefined;
}

function hasFrameFields(entry: PatchFrame): boolean {
  return (
    entry.left !== undefined ||
    entry.top !== undefined ||
    entry.width !== undefined ||
    entry.height !== undefined
  );
}
