// Saving without a Save button: after each edit (debounced) the patch from the last saved document to the
// one on screen goes to POST /diagrams/{uuid}/edits with the version it starts from. Until the server
// answers, the unsaved patch is kept in localStorage, so a closed tab or a dropped connection loses nothing:
// a page that opens with a kept patch for its diagram re-applies it and sends it. A 409 is a conflict: the
// edit stays on screen and the status names what conflicted; "Re-apply" puts it onto the newest version.
import {
  apply,
  type DiagramDocument,
  normalize,
  rebaseConflictMessage,
  rebasePatch,
  validate,
} from '@dss/schema';
import { applyBeside, type EditPatch, isEmptyPatch, patchBetween, splitPatch } from '../changes';
import type { EditorStore } from '../store';

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'saving' }
  | { kind: 'offline' }
  | { kind: 'failed'; message: string }
  | { kind: 'conflict'; message: string };

const DEBOUNCE_MS = 600;
const RETRY_MS = 3000;
/** Longest an edit waits to be kept in localStorage for the page to be idle. */
const KEEP_AT_LATEST_MS = 250;

interface Kept {
  base_version_uuid: string;
  patch: EditPatch;
}

export class Autosave {
  #saved: DiagramDocument;
  #version: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight = false;
  /** An edit's patch waits to be kept in localStorage (#keepSoon). */
  #keepPending = false;
  /** The save on its way, so the live layer can wait for it before reading the newest version. */
  #sending: Promise<void> = Promise.resolve();
  #state: SaveState = { kind: 'saved' };
  readonly #listeners = new Set<(state: SaveState) => void>();

  constructor(
    private readonly store: EditorStore,
    private readonly diagramUuid: string,
    version: string,
    private readonly csrfToken: string,
  ) {
    this.#saved = store.document;
    this.#version = version;
    window.addEventListener('online', () => this.schedule(0));
    // A page being closed or hidden keeps what is unsaved at once (see #keepSoon).
    window.addEventListener('pagehide', () => this.#keepNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.#keepNow();
    });
  }

  get version(): string {
    return this.#version;
  }

  get state(): SaveState {
    return this.#state;
  }

  onChange(listener: (state: SaveState) => void): void {
    this.#listeners.add(listener);
  }

  /** Re-applies a patch kept by an earlier page of this diagram that never reached the server. */
  restoreKept(): void {
    const kept = this.#readKept();
    if (kept === null) return;
    const result = this.store.applyUnrecorded(kept.patch);
    if (!result.ok) {
      this.#setState({
        kind: 'failed',
        message: `Edits kept from before could not be re-applied: ${result.message}`,
      });
      return;
    }
    // The server may have stored it after all (the tab closed while the answer was on its way).
    if (isEmptyPatch(patchBetween(this.#saved, this.store.document))) {
      this.#clearKept();
      return;
    }
    this.#version = kept.base_version_uuid || this.#version;
    this.#setState({ kind: 'saving' });
    this.schedule(0);
  }

  /** Called after every edit (and undo, redo): keeps the unsaved patch and saves it shortly. */
  changed(): void {
    this.#keepSoon();
    if (this.#state.kind === 'conflict') return;
    // "Saving…" from the edit on, so the status never reads "Saved" while an edit waits to be sent.
    if (this.#state.kind !== 'offline') this.#setState({ kind: 'saving' });
    this.schedule(DEBOUNCE_MS);
  }

  schedule(delay: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#send(), delay);
  }

  /** After a conflict: the newest version from the server, with the person's unsaved edit put back on top. */
  async reapply(): Promise<void> {
    const patch = patchBetween(this.#saved, this.store.document);
    const response = await fetch(`/diagrams/${this.diagramUuid}/edit`, { credentials: 'same-origin' });
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const data = page.getElementById('editor-document')?.textContent;
    const version = page.getElementById('editor')?.dataset['version'];
    if (!data || !version)
      return this.#setState({ kind: 'failed', message: 'The newest version could not be read.' });
    const newest = JSON.parse(data) as DiagramDocument;
    this.#saved = newest;
    this.#version = version;
    this.store.replaceDocument(newest);
    const result = this.store.applyUnrecorded(patch);
    if (!result.ok)
      return this.#setState({
        kind: 'conflict',
        message: `Your edit no longer fits the newest version: ${result.message}`,
      });
    this.#setState({ kind: 'saving' });
    this.changed();
    this.schedule(0);
  }

  /** Settles once no save is on its way (a save may start meanwhile: check `busy` after). */
  settled(): Promise<void> {
    return this.#sending;
  }

  get busy(): boolean {
    return this.#inFlight;
  }

  /** The connection is back: send what waited at once (a conflict waits for the person instead). */
  flush(): void {
    if (this.#state.kind === 'conflict') return;
    if (!isEmptyPatch(patchBetween(this.#saved, this.store.document)) || this.#state.kind !== 'saved')
      this.schedule(0);
  }

  /**
   * Another person's saved version (pushed live) becomes the base and the person's unsaved edits are
   * rebased onto it, as the server rebases a save (@dss/schema's rebasePatch): when both touched the same
   * entity nothing changes on screen, the status names the entity, and the edit waits to be re-applied.
   * One document replace, so the drawing is redrawn once; the undo steps stay (they name records by name).
   */
  applyRemote(document: DiagramDocument, versionUuid: string): 'applied' | 'conflict' {
    const mine = patchBetween(this.#saved, this.store.document);
    let next = document;
    if (!isEmptyPatch(mine)) {
      const { schemaPatch, beside } = splitPatch(mine);
      const normalized = normalize(schemaPatch).patch;
      const onBase = validate(normalized, this.#saved, this.store.driver, 'propose');
      const rebased = onBase.ok ? rebasePatch(onBase.patch, this.#saved, document) : null;
      if (rebased && !rebased.ok) return this.#remoteConflict(rebaseConflictMessage(rebased.conflicts));
      const onRemote = validate(normalized, document, this.store.driver, 'propose');
      if (!onRemote.ok) return this.#remoteConflict(onRemote.message);
      const done = applyBeside(apply(document, onRemote.patch).document, beside);
      if (!done.ok) return this.#remoteConflict(done.message);
      next = done.document;
    }
    this.#saved = document;
    this.#version = versionUuid;
    this.store.replaceDocument(next);
    const left = patchBetween(this.#saved, this.store.document);
    this.#keep(left);
    if (this.#state.kind === 'conflict' && isEmptyPatch(left)) this.#setState({ kind: 'saved' });
    return 'applied';
  }

  #remoteConflict(reason: string): 'conflict' {
    clearTimeout(this.#timer);
    this.#setState({ kind: 'conflict', message: reason });
    return 'conflict';
  }

  #send(): Promise<void> {
    if (this.#inFlight) {
      this.schedule(DEBOUNCE_MS);
      return this.#sending;
    }
    this.#sending = this.#post();
    return this.#sending;
  }

  async #post(): Promise<void> {
    const sent = this.store.document;
    const patch = patchBetween(this.#saved, sent);
    if (isEmptyPatch(patch)) {
      this.#clearKept();
      return this.#setState({ kind: 'saved' });
    }
    this.#inFlight = true;
    this.#setState({ kind: 'saving' });
    try {
      const response = await fetch(`/diagrams/${this.diagramUuid}/edits`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': this.csrfToken },
        body: JSON.stringify(saveBody(this.#version, patch)),
      });
      const answer = (await response.json().catch(() => null)) as {
        version_uuid?: string;
        document?: DiagramDocument;
        message?: string;
        errors?: { path: string; message: string }[];
      } | null;
      if (response.ok && answer?.version_uuid && answer.document) {
        this.#version = answer.version_uuid;
        this.#saved = answer.document;
        // Edits made while the save was on its way are put back on top of the server's copy.
        const later = patchBetween(sent, this.store.document);
        this.store.replaceDocument(answer.document);
        this.store.applyUnrecorded(later);
        if (isEmptyPatch(later)) {
          this.#clearKept();
          this.#setState({ kind: 'saved' });
        } else this.changed();
      } else if (response.status >= 500) {
        // The services are restarting or a dependency is down: the edit is kept and sent again.
        this.#setState({
          kind: 'failed',
          message: `Not saved yet: the server answered ${response.status}; trying again`,
        });
        this.schedule(RETRY_MS);
      } else if (response.status === 409) {
        this.#setState({
          kind: 'conflict',
          message: answer?.message ?? 'Someone changed the diagram meanwhile.',
        });
      } else {
        const detail = answer?.errors?.map((problem) => problem.message).join('; ');
        this.#setState({
          kind: 'failed',
          message: `Not saved: ${answer?.message ?? `the server answered ${response.status}`}${detail ? ` (${detail})` : ''}`,
        });
      }
    } catch {
      // No answer at all: offline, or the services are restarting. The edit is kept; try again.
      this.#setState({ kind: 'offline' });
      this.schedule(RETRY_MS);
    } finally {
      this.#inFlight = false;
    }
  }

  #setState(state: SaveState): void {
    this.#state = state;
    for (const listener of this.#listeners) listener(state);
  }

  #key(): string {
    return `dss-editor:${this.diagramUuid}`;
  }

  /**
   * Keeps the unsaved patch in this browser when the page is next idle, after the frame that shows the
   * edit: the diff and writing it out take milliseconds that would otherwise delay the drawing on a large
   * diagram. At the latest after KEEP_AT_LATEST_MS; pagehide and hiding keep it at once.
   */
  #keepSoon(): void {
    if (this.#keepPending) return;
    this.#keepPending = true;
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => this.#keepNow(), { timeout: KEEP_AT_LATEST_MS });
    else setTimeout(() => this.#keepNow(), KEEP_AT_LATEST_MS);
  }

  #keepNow(): void {
    if (!this.#keepPending) return;
    this.#keepPending = false;
    this.#keep(patchBetween(this.#saved, this.store.document));
  }

  #keep(patch: EditPatch): void {
    try {
      if (isEmptyPatch(patch)) localStorage.removeItem(this.#key());
      else
        localStorage.setItem(
          this.#key(),
          JSON.stringify({ base_version_uuid: this.#version, patch } satisfies Kept),
        );
    } catch {
      // Storage full or disabled: saving still works, only the offline copy is missing.
    }
  }

  #readKept(): Kept | null {
    try {
      const text = localStorage.getItem(this.#key());
      return text ? (JSON.parse(text) as Kept) : null;
    } catch {
      return null;
    }
  }

  #clearKept(): void {
    try {
      localStorage.removeItem(this.#key());
    } catch {
      // Nothing kept to clear.
    }
  }
}

/** The save's body: the patch, and beside it what the patch format cannot say (colours, column order). */
function saveBody(baseVersionUuid: string, patch: EditPatch) {
  const { schemaPatch, beside } = splitPatch(patch);
  return { base_version_uuid: baseVersionUuid, patch: schemaPatch, ...beside };
}

export function describeSaveState(state: SaveState): string {
  switch (state.kind) {
    case 'saved':
      return 'Saved';
    case 'saving':
      return 'Saving…';
    case 'offline':
      return 'Offline: your edits are kept in this browser and sent when the connection returns';
    case 'conflict':
      return 'Not saved: conflict';
    case 'failed':
      return state.message;
  }
}
