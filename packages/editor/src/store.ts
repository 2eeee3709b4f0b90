// The editor's one imperative API over the document: every toolbar button, shortcut and form goes through
// `edit`, which runs the patch through the same normalize → validate → apply as the API, so a change the
// patch engine refuses never enters the document (its message is returned for the place it was made).
// Each accepted edit is kept with its inverse (the patch back to the document before), which is what
// undo applies; redo applies the edit's patch again. Plain data and callbacks, no DOM: the browser layer
// subscribes and redraws.
import { apply, type DiagramDocument, type Driver, normalize, validate } from '@dss/schema';
import { applyBeside, type EditPatch, isEmptyPatch, patchBetween, splitPatch } from './changes';
import { shareUnchanged } from './share-records';

/** How many edits undo reaches back; the issue asks for at least 100. */
export const UNDO_LIMIT = 200;

export interface EditProblem {
  path: string;
  message: string;
}

export type EditResult = { ok: true } | { ok: false; message: string; problems: EditProblem[] };

interface HistoryEntry {
  label: string;
  forward: EditPatch;
  inverse: EditPatch;
}

export class EditorStore {
  #document: DiagramDocument;
  readonly #undo: HistoryEntry[] = [];
  readonly #redo: HistoryEntry[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #newUuid: (() => string) | undefined;
  #noteRenames: ReadonlyMap<string, string> = new Map();
  /** Every note seen in this session and still referred to: uuid → text and place. */
  readonly #noteKeys = new Map<string, string>();

  constructor(
    document: DiagramDocument,
    readonly driver: Driver,
    options: { newUuid?: () => string } = {},
  ) {
    this.#document = document;
    this.#newUuid = options.newUuid;
    for (const note of document.sticky_notes) this.#noteKeys.set(note.uuid, noteKey(note));
  }

  get document(): DiagramDocument {
    return this.#document;
  }

  get canUndo(): boolean {
    return this.#undo.length > 0;
  }

  get canRedo(): boolean {
    return this.#redo.length > 0;
  }

  get undoDepth(): number {
    return this.#undo.length;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Checks and applies one edit; on success it is the newest undo step and the redo steps are gone. */
  edit(label: string, patch: EditPatch): EditResult {
    const result = this.#run(patch);
    if (!result.ok) return result;
    const inverse = patchBetween(result.document, this.#document);
    this.#undo.push({ label, forward: patch, inverse });
    if (this.#undo.length > UNDO_LIMIT) this.#undo.shift();
    this.#redo.length = 0;
    this.#commit(result.document);
    return { ok: true };
  }

  undo(): EditResult {
    const entry = this.#undo.pop();
    if (!entry) return { ok: true };
    const result = this.#run(entry.inverse);
    if (!result.ok) {
      this.#undo.push(entry);
      return result;
    }
    this.#redo.push(entry);
    this.#commit(result.document);
    return { ok: true };
  }

  redo(): EditResult {
    const entry = this.#redo.pop();
    if (!entry) return { ok: true };
    const result = this.#run(entry.forward);
    if (!result.ok) {
      this.#redo.push(entry);
      return result;
    }
    // The inverse is recomputed: the document the redo starts from may differ in uuids from the first time.
    this.#undo.push({ ...entry, inverse: patchBetween(result.document, this.#document) });
    this.#commit(result.document);
    return { ok: true };
  }

  /**
   * Replaces the document without an undo step: the server's copy after a save or another person's
   * change. The undo steps stay, because they name records by name and apply to the new copy too.
   * Records whose content did not change stay the objects they were (shareUnchanged).
   */
  replaceDocument(document: DiagramDocument): void {
    // Records equal to the ones held stay the same objects: the drawing keeps their markup.
    this.#commit(shareUnchanged(this.#document, document));
  }

  /** Applies a patch without recording it (re-applying unsaved edits onto the server's copy). */
  applyUnrecorded(patch: EditPatch): EditResult {
    if (isEmptyPatch(patch)) return { ok: true };
    const result = this.#run(patch);
    if (!result.ok) return result;
    this.#commit(result.document);
    return { ok: true };
  }

  #run(patch: EditPatch): { ok: true; document: DiagramDocument } | Extract<EditResult, { ok: false }> {
    const { schemaPatch, beside } = splitPatch(patch);
    const normalized = normalize(schemaPatch);
    const checked = validate(normalized.patch, this.#document, this.driver, 'propose');
    if (!checked.ok) return { ok: false, message: checked.message, problems: checked.problems };
    const { document } = apply(this.#document, checked.patch, { newUuid: this.#newUuid });
    const done = applyBeside(document, beside);
    if (!done.ok)
      return { ok: false, message: done.message, problems: [{ path: done.path, message: done.message }] };
    return { ok: true, document: done.document };
  }

  /** Notes of the last replaced document that live on under another uuid (old → new), for the panels. */
  get noteRenames(): ReadonlyMap<string, string> {
    return this.#noteRenames;
  }

  #commit(document: DiagramDocument): void {
    const renamed = this.#noteUuidChanges(document);
    this.#noteRenames = renamed;
    if (renamed.size > 0)
      for (const stack of [this.#undo, this.#redo])
        for (const [at, entry] of stack.entries())
          stack[at] = {
            ...entry,
            forward: renameNotes(entry.forward, renamed),
            inverse: renameNotes(entry.inverse, renamed),
          };
    this.#document = document;
    for (const listener of this.#listeners) listener();
  }

  /**
   * Notes are deleted by uuid, but a note comes back under a new uuid: written again by undo, or as the
   * server's copy after a save. A note gone from view whose text and place reappear under another uuid
   * is the same note, and the history is rewritten to name it so (old uuid → new uuid).
   */
  #noteUuidChanges(next: DiagramDocument): Map<string, string> {
    const changes = new Map<string, string>();
    const present = new Set(next.sticky_notes.map((note) => note.uuid));
    const byKey = new Map(next.sticky_notes.map((note) => [noteKey(note), note.uuid]));
    for (const [uuid, key] of this.#noteKeys) {
      if (present.has(uuid)) continue;
      const now = byKey.get(key);
      if (now === undefined || now === uuid) continue;
      changes.set(uuid, now);
      this.#noteKeys.delete(uuid);
    }
    for (const note of next.sticky_notes) this.#noteKeys.set(note.uuid, noteKey(note));
    return changes;
  }
}

function noteKey(note: DiagramDocument['sticky_notes'][number]): string {
  return `${note.content}\u0000${Math.round(note.left)}\u0000${Math.round(note.top)}`;
}

function renameNotes(patch: EditPatch, renamed: Map<string, string>): EditPatch {
  const notes = patch.deletions?.sticky_notes;
  if (!notes?.some((uuid) => renamed.has(uuid))) return patch;
  return {
    ...patch,
    deletions: { ...patch.deletions, sticky_notes: notes.map((uuid) => renamed.get(uuid) ?? uuid) },
  };
}
