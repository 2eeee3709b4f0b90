// The editor's one imperative API over the document: every toolbar button, shortcut and form goes through
// `edit`, which runs the patch through the same normalize → validate → apply as the API, so a change the
// patch engine refuses never enters the document (its message is returned for the place it was made).
// Each accepted edit is kept with its inverse (the patch back to the document before), which is what
// undo applies; redo applies the edit's patch again. Plain data and callbacks, no DOM: the browser layer
// subscribes and redraws.
import { apply, type DiagramDocument, type Driver, normalize, validate } from '@dss/schema';
import { type EditPatch, isEmptyPatch, patchBetween } from './changes';

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

  constructor(
    document: DiagramDocument,
    readonly driver: Driver,
    options: { newUuid?: () => string } = {},
  ) {
    this.#document = document;
    this.#newUuid = options.newUuid;
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
   */
  replaceDocument(document: DiagramDocument): void {
    this.#commit(document);
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
    const normalized = normalize(patch);
    const checked = validate(normalized.patch, this.#document, this.driver, 'propose');
    if (!checked.ok) return { ok: false, message: checked.message, problems: checked.problems };
    const { document } = apply(this.#document, checked.patch, { newUuid: this.#newUuid });
    return { ok: true, document };
  }

  #commit(document: DiagramDocument): void {
    this.#document = document;
    for (const listener of this.#listeners) listener();
  }
}
