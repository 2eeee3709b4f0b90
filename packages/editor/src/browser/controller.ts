// The editor's one imperative API for the page (tldraw's Editor): the store (document and undo history),
// what is selected, which panel is open, the last refused edit and the save state, as signals the
// components read. Every button, shortcut, drag and test goes through these methods.
import { signal } from '@preact/signals';
import { makeRoomForLines } from '@dss/diagram-svg';
import { type DiagramDocument, type DocumentTable, reLayOut } from '@dss/schema';
import { type EditPatch, isEmptyPatch, patchBetween, writtenColumn } from '../changes';
import { freeSpotFor, type Rect } from '../placement';
import type { EditorStore, EditResult } from '../store';
import type { Autosave, SaveState } from './autosave';

export type Panel =
  | { kind: 'table'; table: string }
  | { kind: 'column'; table: string; column: string | null }
  | { kind: 'relationship' }
  /**
   * `opened`: the uuid the note had when its panel opened. A note's uuid changes when the server's copy of
   * it arrives after a save, and when its text is changed (a note is replaced, not updated); the panel's
   * form stays the same form through those, so what is being written in it is kept.
   */
  | { kind: 'note'; uuid: string; opened: string }
  | { kind: 'group'; name: string }
  | null;

/** A panel to open: a note's is opened under the uuid it has now (`opened` is set from it). */
export type PanelToOpen = Exclude<Panel, { kind: 'note' }> | { kind: 'note'; uuid: string };

/** A point of the drawing (its units) and where in the canvas's view it is to stand (CSS pixels). */
export interface ViewAnchor {
  x: number;
  y: number;
  left: number;
  top: number;
}

/**
 * A change of view asked for by a button, key or wheel, carried out by the canvas after it has drawn the
 * document (so a Fit after Auto-layout fits the new drawing). `at` null: the middle of the view stays put.
 */
export type ViewRequest = { kind: 'fit' } | { kind: 'scale'; scale: number; at: ViewAnchor | null };

/** How far out and in the canvas zooms: a 300-table drawing fits a laptop's canvas at about 0.1. */
export const MIN_SCALE = 0.05;
export const MAX_SCALE = 2;
/** One zoom step of the buttons and keys. */
export const ZOOM_STEP = 1.25;

export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

export interface Refusal {
  /** Where the edit was made (a panel or the canvas), so the message is shown there. */
  place: string;
  message: string;
  problems: { path: string; message: string }[];
}

export class EditorController {
  readonly document;
  readonly selection = signal<string[]>([]);
  readonly panel = signal<Panel>(null);
  readonly refusal = signal<Refusal | null>(null);
  readonly saveState = signal<SaveState>({ kind: 'saved' });
  readonly helpOpen = signal(false);
  /** The DBML/SQL pane beside the drawing is shown. */
  readonly textOpen = signal(false);
  readonly history = signal({ canUndo: false, canRedo: false });
  /**
   * Measures the part of the diagram in view, in diagram units; the canvas sets it. Measured when asked
   * (placing a new table), not after each drawing: reading the canvas's size then would make the browser
   * lay the whole SVG out inside the edit, before the panels' changes, instead of once for the frame.
   */
  measureView: () => Rect = () => ({ left: 0, top: 0, width: 900, height: 600 });

  /** The canvas's zoom: CSS pixels per diagram unit (1 draws 12 px column text at 12 px); the canvas sets it. */
  readonly scale = signal(1);
  /** The last change of view asked for; the canvas carries it out and sets `scale`. */
  readonly viewRequest = signal<ViewRequest | null>(null);

  get view(): Rect {
    return this.measureView();
  }
  readonly #selectionListeners = new Set<(tables: string[]) => void>();

  constructor(
    readonly store: EditorStore,
    readonly autosave: Autosave | null,
    readonly editable: boolean,
  ) {
    this.document = signal<DiagramDocument>(store.document);
    store.subscribe(() => {
      this.document.value = store.document;
      this.history.value = { canUndo: store.canUndo, canRedo: store.canRedo };
      const panel = this.panel.value;
      const renamed = panel?.kind === 'note' ? store.noteRenames.get(panel.uuid) : undefined;
      if (renamed !== undefined && panel?.kind === 'note') this.panel.value = { ...panel, uuid: renamed };
    });
    autosave?.onChange((state) => {
      this.saveState.value = state;
    });
    this.selection.subscribe((tables) => {
      for (const listener of this.#selectionListeners) listener(tables);
    });
  }

  /** For the live layer: called with the selected table names whenever the selection changes. */
  onSelectionChange(listener: (tables: string[]) => void): () => void {
    this.#selectionListeners.add(listener);
    return () => this.#selectionListeners.delete(listener);
  }

  /** For the live layer: another person's saved version becomes the base; unsaved edits stay on top. */
  applyRemote(document: DiagramDocument, versionUuid: string): 'applied' | 'conflict' {
    // A read-only page has nothing unsaved: it shows the newest version as it is.
    if (!this.autosave) {
      this.store.replaceDocument(document);
      return 'applied';
    }
    const outcome = this.autosave.applyRemote(document, versionUuid);
    this.#keepSelectionValid();
    return outcome;
  }

  /** Runs one edit through the patch engine; a refusal is kept for the place it was made and nothing changes. */
  edit(label: string, patch: EditPatch, place: string): boolean {
    if (!this.editable) return false;
    return this.#after(this.store.edit(label, patch), place);
  }

  undo(): void {
    if (this.editable) this.#after(this.store.undo(), 'toolbar');
  }

  redo(): void {
    if (this.editable) this.#after(this.store.redo(), 'toolbar');
  }

  #after(result: EditResult, place: string): boolean {
    if (!result.ok) {
      this.refusal.value = { place, message: result.message, problems: result.problems };
      return false;
    }
    this.refusal.value = null;
    this.#keepSelectionValid();
    this.autosave?.changed();
    return true;
  }

  table(name: string): DocumentTable | undefined {
    return this.document.value.tables.find((table) => table.name === name);
  }

  select(names: string[]): void {
    this.selection.value = names;
    if (names.length === 1) this.openPanel({ kind: 'table', table: names[0]! });
  }

  openPanel(panel: PanelToOpen): void {
    this.refusal.value = null;
    this.panel.value = panel?.kind === 'note' ? { ...panel, opened: panel.uuid } : panel;
  }

  closePanel(): void {
    if (this.helpOpen.value) this.helpOpen.value = false;
    else this.panel.value = null;
    this.refusal.value = null;
  }

  toggleHelp(): void {
    this.helpOpen.value = !this.helpOpen.value;
  }

  addTable(): void {
    const taken = new Set(this.document.value.tables.map((table) => table.name));
    let number = this.document.value.tables.length + 1;
    while (taken.has(`table_${number}`)) number++;
    const name = `table_${number}`;
    const boxes = this.document.value.tables.map(({ left, top, width, height }) => ({
      left,
      top,
      width,
      height,
    }));
    const spot = freeSpotFor({ width: 220, height: 80 }, this.view, boxes);
    const id = idColumn(this.store.driver);
    if (
      this.edit('Add table', { strategy: 'merge', tables: [{ name, ...spot, columns: [id] }] }, 'toolbar')
    ) {
      this.selection.value = [name];
      this.openPanel({ kind: 'table', table: name });
    }
  }

  addNote(): void {
    const spot = freeSpotFor({ width: 200, height: 100 }, this.view, this.#boxes());
    const before = new Set(this.document.value.sticky_notes.map((note) => note.uuid));
    const patch: EditPatch = {
      strategy: 'merge',
      sticky_notes: [{ content: 'Note', ...spot, width: 200, height: 100 }],
    };
    if (this.edit('Add note', patch, 'toolbar')) {
      const made = this.document.value.sticky_notes.find((note) => !before.has(note.uuid));
      if (made) this.openPanel({ kind: 'note', uuid: made.uuid });
    }
  }

  /** A relationship drawn by a drag from one column to another (`table.column` each), many-to-one. */
  link(from: string, to: string): void {
    const split = (text: string) => {
      const at = text.lastIndexOf('.');
      return [text.slice(0, at), text.slice(at + 1)] as const;
    };
    const [sourceTable, sourceColumn] = split(from);
    const [targetTable, targetColumn] = split(to);
    const relationship = {
      type: 'many-to-one',
      source_table: sourceTable,
      source_column: sourceColumn,
      target_table: targetTable,
      target_column: targetColumn,
    };
    this.panel.value = { kind: 'relationship' };
    this.edit('Add relationship', { strategy: 'merge', relationships: [relationship] }, 'relationship');
  }

  addGroup(): void {
    const taken = new Set(this.document.value.groups.map((group) => group.name));
    let number = this.document.value.groups.length + 1;
    while (taken.has(`group_${number}`)) number++;
    const name = `group_${number}`;
    const spot = freeSpotFor({ width: 360, height: 260 }, this.view, this.#boxes());
    if (
      this.edit(
        'Add group',
        { strategy: 'merge', groups: [{ name, ...spot, width: 360, height: 260 }] },
        'toolbar',
      )
    )
      this.openPanel({ kind: 'group', name });
  }

  /** A group is renamed as the patch format allows: the old one deleted, a new one made, members moved over. */
  renameGroup(from: string, to: string): void {
    const group = this.document.value.groups.find((candidate) => candidate.name === from);
    if (!group || from === to) return;
    const members = this.document.value.tables.filter((table) => table.parent_uuid === group.uuid);
    const patch: EditPatch = {
      strategy: 'merge',
      groups: [{ name: to, left: group.left, top: group.top, width: group.width, height: group.height }],
      tables: members.map((table) => ({ name: table.name, parent_name: to, columns: [] })),
      deletions: { groups: [{ name: from, delete_children: false }] },
      // The group is written again under its new name: its colour goes with it.
      ...(group.color ? { colors: { groups: { [to]: group.color } } } : {}),
    };
    if (this.edit('Rename group', patch, 'group')) this.panel.value = { kind: 'group', name: to };
  }

  /** Moves a column one place up (-1) or down (1) in its table: the order travels beside the patch. */
  moveColumn(tableName: string, columnName: string, step: -1 | 1): void {
    const table = this.document.value.tables.find((candidate) => candidate.name === tableName);
    const names = table?.columns.map((column) => column.name) ?? [];
    const from = names.indexOf(columnName);
    const to = from + step;
    if (from < 0 || to < 0 || to >= names.length) return;
    [names[from], names[to]] = [names[to]!, names[from]!];
    this.edit('Move column', { strategy: 'merge', column_order: { [tableName]: names } }, 'table');
  }

  /** A table's or group's colour (a hex colour, or null for the default): a canvas-only edit. */
  recolor(kind: 'table' | 'group', name: string, color: string | null): void {
    const section = kind === 'table' ? 'tables' : 'groups';
    this.edit(
      kind === 'table' ? 'Colour table' : 'Colour group',
      { strategy: 'merge', colors: { [section]: { [name]: color } } },
      kind,
    );
  }

  moveGroup(name: string, dx: number, dy: number): void {
    const group = this.document.value.groups.find((candidate) => candidate.name === name);
    if (!group) return;
    this.edit(
      'Move group',
      {
        strategy: 'merge',
        groups: [
          {
            name,
            left: Math.max(0, Math.round(group.left + dx)),
            top: Math.max(0, Math.round(group.top + dy)),
          },
        ],
      },
      'group',
    );
  }

  deleteGroup(name: string): void {
    if (
      this.edit(
        'Delete group',
        { strategy: 'merge', deletions: { groups: [{ name, delete_children: false }] } },
        'group',
      )
    )
      this.panel.value = null;
  }

  joinGroup(table: string, group: string): void {
    this.edit(
      'Join group',
      { strategy: 'merge', tables: [{ name: table, parent_name: group, columns: [] }] },
      'table',
    );
  }

  /**
   * A note has no name for a patch to address, so a changed note is deleted and written anew; the panel
   * follows it to its new record.
   */
  changeNote(uuid: string, change: { content?: string; dx?: number; dy?: number }): void {
    const note = this.document.value.sticky_notes.find((candidate) => candidate.uuid === uuid);
    if (!note) return;
    const group = this.document.value.groups.find((candidate) => candidate.uuid === note.parent_uuid);
    const next = {
      content: change.content ?? note.content,
      left: Math.max(0, Math.round(note.left + (change.dx ?? 0))),
      top: Math.max(0, Math.round(note.top + (change.dy ?? 0))),
      width: Math.round(note.width),
      height: Math.round(note.height),
      ...(group ? { parent_name: group.name } : {}),
    };
    const before = new Set(this.document.value.sticky_notes.map((candidate) => candidate.uuid));
    const label = change.content !== undefined ? 'Change note' : 'Move note';
    if (
      this.edit(
        label,
        { strategy: 'merge', sticky_notes: [next], deletions: { sticky_notes: [uuid] } },
        'note',
      )
    ) {
      const made = this.document.value.sticky_notes.find((candidate) => !before.has(candidate.uuid));
      const panel = this.panel.value;
      if (made && panel?.kind === 'note') this.panel.value = { ...panel, uuid: made.uuid };
    }
  }

  deleteNote(uuid: string): void {
    if (this.edit('Delete note', { strategy: 'merge', deletions: { sticky_notes: [uuid] } }, 'note'))
      this.panel.value = null;
  }

  #boxes(): Rect[] {
    return this.document.value.tables.map(({ left, top, width, height }) => ({ left, top, width, height }));
  }

  renameTable(from: string, to: string): void {
    if (from === to) return;
    // Taken before the edit, which drops names that no longer exist from the selection.
    const selected = this.selection.value;
    if (
      this.edit(
        'Rename table',
        { strategy: 'merge', tables: [{ name: to, old_name: from, columns: [] }] },
        'table',
      )
    ) {
      this.selection.value = selected.map((name) => (name === from ? to : name));
      this.panel.value = { kind: 'table', table: to };
    }
  }

  deleteTables(names: string[]): void {
    if (names.length === 0) return;
    if (
      this.edit(
        names.length === 1 ? 'Delete table' : 'Delete tables',
        { strategy: 'merge', deletions: { tables: names } },
        'table',
      )
    ) {
      this.selection.value = [];
      this.panel.value = null;
    }
  }

  deleteSelection(): void {
    this.deleteTables(this.selection.value);
  }

  /** Moves the selected tables by (dx, dy) diagram units, as one undo step. */
  nudge(dx: number, dy: number, _dragged: boolean): void {
    const tables = this.selection.value
      .map((name) => this.table(name))
      .filter((table) => table !== undefined);
    if (tables.length === 0) return;
    this.edit(
      tables.length === 1 ? 'Move table' : 'Move tables',
      {
        strategy: 'merge',
        tables: tables.map((table) => ({
          name: table.name,
          left: Math.max(0, Math.round(table.left + dx)),
          top: Math.max(0, Math.round(table.top + dy)),
          columns: [],
        })),
      },
      'canvas',
    );
  }

  /**
   * Lays out every table, group and note anew (the layout an import gets, room for a large schema's lines
   * included), as one undo step saved like any move, then fits the new drawing in view (the old view shows
   * an arbitrary part of it).
   */
  autoLayout(): void {
    const before = this.document.value;
    const patch = patchBetween(before, makeRoomForLines(reLayOut(before)));
    if (!isEmptyPatch(patch) && this.edit('Auto-layout', patch, 'toolbar')) this.fit();
  }

  /** Zooms by `factor`, keeping `at` (or the middle of the view) where it stands. */
  zoomBy(factor: number, at: ViewAnchor | null = null): void {
    this.viewRequest.value = { kind: 'scale', scale: clampScale(this.scale.value * factor), at };
  }

  /** The whole drawing in view, in the middle; never larger than actual size. */
  fit(): void {
    this.viewRequest.value = { kind: 'fit' };
  }

  /** Actual size (one diagram unit per CSS pixel), the middle of the view staying put. */
  actualSize(): void {
    this.viewRequest.value = { kind: 'scale', scale: 1, at: null };
  }

  /** A column written anew from the form (its old name when renamed), through the engine. */
  saveColumn(table: string, oldName: string | null, column: Record<string, unknown>): boolean {
    // A merge patch reads a column entry with an existing name as a change of that column, so a new
    // column that repeats a name is refused here, in the words the engine uses for a colliding rename.
    if (oldName === null && this.table(table)?.columns.some((existing) => existing.name === column.name)) {
      const message = `table "${table}" already has a column "${String(column.name)}"`;
      this.refusal.value = { place: 'column', message, problems: [] };
      return false;
    }
    const entry = {
      ...column,
      ...(oldName !== null && oldName !== column.name ? { old_name: oldName } : {}),
    };
    return this.edit(
      oldName === null ? 'Add column' : 'Change column',
      { strategy: 'merge', tables: [{ name: table, columns: [entry] }] },
      'column',
    );
  }

  deleteColumn(table: string, column: string): boolean {
    return this.edit(
      'Delete column',
      { strategy: 'merge', deletions: { columns: [{ table, columns: [column] }] } },
      'column',
    );
  }

  #keepSelectionValid(): void {
    const names = new Set(this.document.value.tables.map((table) => table.name));
    const kept = this.selection.value.filter((name) => names.has(name));
    if (kept.length !== this.selection.value.length) this.selection.value = kept;
    const panel = this.panel.value;
    if ((panel?.kind === 'table' || panel?.kind === 'column') && !names.has(panel.table))
      this.panel.value = null;
  }
}

/** The first column of a new table: a whole-number primary key, as each database writes it. */
function idColumn(driver: string): Record<string, unknown> {
  const base = { name: 'id', is_primary_key: true, is_nullable: false };
  if (driver === 'mysql') return { ...base, type: 'bigint', is_unsigned: true, is_auto_increment: true };
  if (driver === 'pgsql') return { ...base, type: 'bigint' };
  return { ...base, type: 'int' };
}

export { writtenColumn };
