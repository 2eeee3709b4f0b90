// Every action a person can take is one record here (excalidraw's action registry): its name, the label
// of its button, the keys that run it and what it does. The toolbar, the keyboard handler and the `?`
// list are all drawn from this one list, so a new action is one entry.
import { type EditorController, MAX_SCALE, MIN_SCALE, ZOOM_STEP } from './controller';

export interface Action {
  name: string;
  label: string;
  /** Shorter text for the toolbar button (the label is then its accessible name and tooltip). */
  short?: string;
  /** The keys as the `?` list shows them. */
  keys: string[];
  /** Whether a key event runs this action. */
  matches?: (event: KeyboardEvent) => boolean;
  /** Shown as a toolbar button. */
  toolbar: boolean;
  /** Needs edit rights (a viewer's page leaves it out). */
  edits: boolean;
  enabled?: (editor: EditorController) => boolean;
  /** A value shown after the button (the zoom, between Zoom out and Zoom in). */
  readout?: (editor: EditorController) => string;
  /** A toggle's state (the button's aria-pressed). */
  pressed?: (editor: EditorController) => boolean;
  perform: (editor: EditorController) => void;
}

const mod = (event: KeyboardEvent) => event.ctrlKey || event.metaKey;
const arrow = (key: string, glyph: string, dx: number, dy: number): Action => ({
  name: `nudge-${key}`,
  label: `Move the selected tables ${key.replace('Arrow', '').toLowerCase()}`,
  keys: [glyph],
  matches: (event) => event.key === key && !mod(event),
  toolbar: false,
  edits: true,
  perform: (editor) => editor.nudge(dx, dy, false),
});

export const ACTIONS: Action[] = [
  {
    name: 'add-table',
    label: 'Add table',
    keys: ['T'],
    matches: (e) => e.key === 't' && !mod(e),
    toolbar: true,
    edits: true,
    perform: (editor) => editor.addTable(),
  },
  {
    name: 'add-relationship',
    label: 'Add relationship',
    keys: ['R'],
    matches: (e) => e.key === 'r' && !mod(e),
    toolbar: true,
    edits: true,
    perform: (editor) => editor.openPanel({ kind: 'relationship' }),
  },
  {
    name: 'add-group',
    label: 'Add group',
    keys: ['G'],
    matches: (e) => e.key === 'g' && !mod(e),
    toolbar: true,
    edits: true,
    perform: (editor) => editor.addGroup(),
  },
  {
    name: 'add-note',
    label: 'Add note',
    keys: ['N'],
    matches: (e) => e.key === 'n' && !mod(e),
    toolbar: true,
    edits: true,
    perform: (editor) => editor.addNote(),
  },
  {
    name: 'auto-layout',
    label: 'Auto-layout',
    keys: ['L'],
    matches: (e) => e.key === 'l' && !mod(e),
    toolbar: true,
    edits: true,
    perform: (editor) => editor.autoLayout(),
  },
  {
    name: 'undo',
    label: 'Undo',
    keys: ['Ctrl+Z', '⌘Z'],
    matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
    toolbar: true,
    edits: true,
    enabled: (editor) => editor.store.canUndo,
    perform: (editor) => editor.undo(),
  },
  {
    name: 'redo',
    label: 'Redo',
    keys: ['Ctrl+Shift+Z', '⌘⇧Z', 'Ctrl+Y'],
    matches: (e) =>
      mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || (!e.shiftKey && e.key.toLowerCase() === 'y')),
    toolbar: true,
    edits: true,
    enabled: (editor) => editor.store.canRedo,
    perform: (editor) => editor.redo(),
  },
  {
    name: 'delete-selection',
    label: 'Delete the selected tables',
    keys: ['Delete', 'Backspace'],
    matches: (e) => (e.key === 'Delete' || e.key === 'Backspace') && !mod(e),
    toolbar: false,
    edits: true,
    perform: (editor) => editor.deleteSelection(),
  },
  {
    name: 'close-panel',
    label: 'Close the panel',
    keys: ['Escape'],
    matches: (e) => e.key === 'Escape',
    toolbar: false,
    edits: false,
    perform: (editor) => editor.closePanel(),
  },
  arrow('ArrowLeft', '←', -10, 0),
  arrow('ArrowRight', '→', 10, 0),
  arrow('ArrowUp', '↑', 0, -10),
  arrow('ArrowDown', '↓', 0, 10),
  {
    name: 'zoom-out',
    label: 'Zoom out',
    short: '−',
    keys: ['-'],
    matches: (e) => e.key === '-' && !mod(e),
    toolbar: true,
    edits: false,
    enabled: (editor) => editor.scale.value > MIN_SCALE,
    readout: (editor) => `${Math.round(editor.scale.value * 100)}%`,
    perform: (editor) => editor.zoomBy(1 / ZOOM_STEP),
  },
  {
    name: 'zoom-in',
    label: 'Zoom in',
    short: '+',
    keys: ['+'],
    matches: (e) => (e.key === '+' || e.key === '=') && !mod(e),
    toolbar: true,
    edits: false,
    enabled: (editor) => editor.scale.value < MAX_SCALE,
    perform: (editor) => editor.zoomBy(ZOOM_STEP),
  },
  {
    name: 'fit',
    label: 'Fit the diagram',
    short: 'Fit',
    keys: ['0'],
    matches: (e) => e.key === '0' && !mod(e),
    toolbar: true,
    edits: false,
    perform: (editor) => editor.fit(),
  },
  {
    name: 'actual-size',
    label: '100%, actual size',
    short: '100%',
    keys: ['1'],
    matches: (e) => e.key === '1' && !mod(e),
    toolbar: true,
    edits: false,
    perform: (editor) => editor.actualSize(),
  },
  {
    name: 'shortcuts',
    label: 'Keyboard shortcuts',
    keys: ['?'],
    matches: (e) => e.key === '?',
    toolbar: true,
    edits: false,
    perform: (editor) => editor.toggleHelp(),
  },
  {
    name: 'toggle-text',
    label: 'DBML pane',
    keys: ['D'],
    matches: (e) => e.key === 'd' && !mod(e) && !e.altKey,
    toolbar: true,
    edits: false,
    pressed: (editor) => editor.textOpen.value,
    perform: (editor) => {
      editor.textOpen.value = !editor.textOpen.value;
    },
  },
];

/** The action a key press runs, or undefined. Keys typed into a field belong to the field, except Escape and undo/redo. */
export function actionForKey(event: KeyboardEvent, editable: boolean): Action | undefined {
  // The element the key went to, also inside a shadow root (the DBML pane's code editor), where
  // `event.target` is only the shadow's host.
  const target = (event.composedPath()[0] ?? event.target) as HTMLElement | null;
  const typing =
    target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  return ACTIONS.find((action) => {
    if (action.edits && !editable) return false;
    if (typing && action.name !== 'close-panel') return false;
    return action.matches?.(event) ?? false;
  });
}
