// The editor page script (bundled by scripts/bundle.js into dist/browser/editor.js, served as
// /assets/editor.js). Page contract: <div id="editor" data-diagram data-driver data-version data-editable
// data-csrf> and the document as JSON in <script type="application/json" id="editor-document">.
// For the live layer it exposes `window.dssEditor`: `applyRemote(document, versionUuid)` and
// `onSelectionChange(listener)` (see the package README), and listens to /assets/live.js (live.ts).
import { Fragment, render } from 'preact';
import { useEffect } from 'preact/hooks';
import type { DiagramDocument, Driver } from '@dss/schema';
import { EditorStore } from '../store';
import { ACTIONS, actionForKey } from './actions';
import { Autosave, describeSaveState } from './autosave';
import { Canvas } from './canvas';
import type { ServedDrawing } from './drawing';
import { EditorController } from './controller';
import { GroupPanel, NotePanel } from './group-panels';
import { startLive } from './live';
import { ColumnForm, Problem, RelationshipPanel, TablePanel } from './panels';
import { DbmlText, readWithServer, TextPane } from './text-pane';

function App({
  editor,
  title,
  text,
  routes,
  served,
}: {
  editor: EditorController;
  title: string;
  text: DbmlText;
  routes: unknown;
  served: ServedDrawing | null;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = actionForKey(event, editor.editable);
      if (!action) return;
      event.preventDefault();
      action.perform(editor);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const state = editor.saveState.value;
  editor.history.value; // read so undo/redo availability redraws the toolbar
  return (
    <div
      class={`editor-shell${editor.editable ? '' : ' read-only'}${editor.textOpen.value ? ' with-text' : ''}`}
    >
      <div class="editor-toolbar" role="toolbar" aria-label="Editor">
        {ACTIONS.filter((action) => action.toolbar && (editor.editable || !action.edits)).map((action) => (
          <Fragment key={action.name}>
            <button
              type="button"
              disabled={action.enabled ? !action.enabled(editor) : false}
              aria-keyshortcuts={action.keys.join(' ')}
              aria-pressed={action.pressed ? action.pressed(editor) : undefined}
              aria-describedby={action.readout ? `editor-${action.name}-readout` : undefined}
              aria-label={action.short ? action.label : undefined}
              title={action.short ? action.label : undefined}
              onClick={() => action.perform(editor)}
            >
              {action.short ?? action.label}
            </button>
            {action.readout && (
              <span class="editor-readout" id={`editor-${action.name}-readout`}>
                {action.readout(editor)}
              </span>
            )}
          </Fragment>
        ))}
        {editor.editable && (
          <p
            class={
              state.kind === 'failed' || state.kind === 'conflict' ? 'editor-status failed' : 'editor-status'
            }
            role="status"
            id="editor-status"
          >
            {describeSaveState(state)}
          </p>
        )}
      </div>
      {state.kind === 'conflict' && (
        <div class="editor-problem editor-conflict" role="alert">
          <strong>Someone else changed this diagram, so your edit was not saved.</strong>{' '}
          {state.message.replace(/\.$/, '')}. Your edit is still here.{' '}
          <button type="button" onClick={() => void editor.autosave?.reapply()}>
            Re-apply my edit on the newest version
          </button>
        </div>
      )}
      <Problem editor={editor} place="toolbar" />
      <Problem editor={editor} place="canvas" />
      {editor.helpOpen.value && <Help />}
      <TextPane editor={editor} text={text} />
      <Canvas editor={editor} title={title} routes={routes} served={served} />
      {editor.editable || editor.panel.value ? <Side editor={editor} /> : null}
    </div>
  );
}

function Side({ editor }: { editor: EditorController }) {
  const panel = editor.panel.value;
  if (panel?.kind === 'relationship') return <RelationshipPanel editor={editor} />;
  if (panel?.kind === 'group') {
    const group = editor.document.value.groups.find((candidate) => candidate.name === panel.name);
    if (group) return <GroupPanel editor={editor} group={group} />;
  }
  if (panel?.kind === 'note') {
    const note = editor.document.value.sticky_notes.find((candidate) => candidate.uuid === panel.uuid);
    if (note) return <NotePanel editor={editor} note={note} opened={panel.opened} />;
  }
  if (panel?.kind === 'table' || panel?.kind === 'column') {
    const table = editor.table(panel.table);
    if (table && panel.kind === 'table') return <TablePanel editor={editor} table={table} />;
    if (table && panel.kind === 'column') {
      const column =
        panel.column === null ? null : (table.columns.find((c) => c.name === panel.column) ?? null);
      // Keyed by names, not uuids: the server's copy after a save gives new tables and columns their own
      // uuids, and a remount then would drop what the person is typing in the form.
      return (
        <ColumnForm
          key={`${table.name}:${panel.column ?? ''}`}
          editor={editor}
          table={table}
          column={column}
        />
      );
    }
  }
  return (
    <section class="editor-panel" aria-label="Help">
      <h2>Edit the diagram</h2>
      <p>Select a table to change it, or use “Add table”. Drag tables to move them; Shift selects several.</p>
      <ul class="items">
        {editor.document.value.tables.map((table) => (
          <li key={table.uuid}>
            <button type="button" onClick={() => editor.select([table.name])}>
              Open table {table.name}
            </button>
          </li>
        ))}
      </ul>
      <ul class="items">
        {editor.document.value.groups.map((group) => (
          <li key={group.uuid}>
            <button type="button" onClick={() => editor.openPanel({ kind: 'group', name: group.name })}>
              Open group {group.name}
            </button>
          </li>
        ))}
        {editor.document.value.sticky_notes.map((note, at) => (
          <li key={note.uuid}>
            <button type="button" onClick={() => editor.openPanel({ kind: 'note', uuid: note.uuid })}>
              Open note {at + 1}: {note.content.slice(0, 30)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Help() {
  return (
    <section class="editor-help" aria-label="Keyboard shortcuts">
      <h2>Keyboard shortcuts</h2>
      <dl>
        {ACTIONS.map((action) => (
          <>
            <dt key={`${action.name}-keys`}>
              {action.keys.map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd key={`${action.name}-label`}>{action.label}</dd>
          </>
        ))}
      </dl>
    </section>
  );
}

function start(): void {
  const importing = document.getElementById('editor-importing');
  // An import still running: look again shortly (the page says so in its status line).
  if (importing?.dataset['status'] === 'importing') setTimeout(() => window.location.reload(), 2000);
  const root = document.getElementById('editor');
  const data = document.getElementById('editor-document');
  if (!root || !data) return;
  const diagram = root.dataset['diagram'] ?? '';
  const driver = (root.dataset['driver'] ?? 'mysql') as Driver;
  const editable = root.dataset['editable'] === 'true';
  const documentValue = JSON.parse(data.textContent ?? 'null') as DiagramDocument;
  const store = new EditorStore(documentValue, driver);
  const autosave = editable
    ? new Autosave(store, diagram, root.dataset['version'] ?? '', root.dataset['csrf'] ?? '')
    : null;
  const editor = new EditorController(store, autosave, editable);
  autosave?.restoreKept();
  const title = document.querySelector('h1')?.firstChild?.textContent?.trim() ?? 'Diagram';
  (window as unknown as { dssEditor: unknown }).dssEditor = {
    applyRemote: (next: DiagramDocument, versionUuid: string) => editor.applyRemote(next, versionUuid),
    onSelectionChange: (listener: (tables: string[]) => void) => editor.onSelectionChange(listener),
    controller: editor,
  };
  const text = new DbmlText(editor, readWithServer(diagram, root.dataset['csrf'] ?? ''));
  render(
    <App
      editor={editor}
      title={title}
      text={text}
      routes={routesOf(document)}
      served={servedOf(document, documentValue)}
    />,
    root,
  );
  startLive(editor, diagram, root.dataset['version'] ?? '');
}

/**
 * The server's routing of the version on the page (a RouteSeed in <script id="editor-routes">), so the first
 * drawing keeps its lines instead of routing them all; null when the page has none or it cannot be read.
 */
function routesOf(page: Document): unknown {
  const text = page.getElementById('editor-routes')?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The server's drawing of the version on the page (an inert <template id="editor-drawing">, parsed with the
 * page as the diagram page's drawing is), for the first drawing of `first`; null when the page has none.
 */
function servedOf(page: Document, first: DiagramDocument): ServedDrawing | null {
  const template = page.getElementById('editor-drawing');
  const svg = template instanceof HTMLTemplateElement ? template.content.firstElementChild : null;
  return svg instanceof SVGSVGElement ? { svg, document: first } : null;
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
