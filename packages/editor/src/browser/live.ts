// The editor's side of the live layer. /assets/live.js (services/web's client-live) holds the connection
// and speaks in DOM events on `document` (see its live-connection.ts); this module turns them into editor
// calls: another person's saved version is fetched and rebased under the person's unsaved edits, the
// presence bar (<section id="editor-presence">, server-rendered beside #editor) lists who else is here and
// which table each has selected, their tables are outlined in the drawing, this page's selection goes to
// the others, and the save queue is flushed when the connection comes back. Names are set as text only.
import type { DiagramDocument } from '@dss/schema';
import type { EditorController } from './controller';
import { showPeople } from './presence-list';

interface PresencePerson {
  tab: string;
  name: string;
  email: string;
  table: string | null;
}

interface DocumentAnswer {
  data: { version: { uuid: string } | null; document: DiagramDocument | null };
}

/** How long a selection stays before it is shared. */
const SELECT_SETTLE_MS = 250;

type ConnectionState = 'connecting' | 'open' | 'offline';

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  offline: 'Offline: reconnecting…',
};

/** The version a read-only page shows (an editing page's is its autosave's). */
let viewedVersion: string | null = null;

export function startLive(editor: EditorController, diagramUuid: string, versionUuid: string): void {
  viewedVersion = versionUuid;
  const bar = document.getElementById('editor-presence');
  const stateText = bar?.querySelector<HTMLElement>('.presence-state') ?? null;
  const list = bar?.querySelector<HTMLUListElement>('.presence-people') ?? null;
  let people: PresencePerson[] = [];
  let wasOffline = false;

  document.addEventListener('dss:live-connection', (event) => {
    const { state } = (event as CustomEvent<{ state: ConnectionState }>).detail;
    if (stateText) stateText.textContent = STATE_TEXT[state];
    if (bar) bar.dataset['state'] = state;
    if (state === 'offline') wasOffline = true;
    else if (state === 'open' && wasOffline) {
      wasOffline = false;
      // Back after a drop or a restart: what waited in this browser goes now, and anything saved
      // meanwhile by others is announced by the stream itself (it starts from this page's version).
      editor.autosave?.flush();
    }
  });

  const refresh = serialized(() => catchUp(editor, diagramUuid));
  document.addEventListener('dss:live-changed', (event) => {
    const { version_uuid } = (event as CustomEvent<{ version_uuid: string | null }>).detail;
    if (version_uuid && version_uuid === currentVersion(editor)) return; // this page's own save
    void refresh();
  });

  document.addEventListener('dss:live-deleted', () => {
    if (stateText) stateText.textContent = 'This diagram was deleted (moved to the Trash).';
    if (bar) bar.dataset['state'] = 'deleted';
  });

  document.addEventListener('dss:live-presence', (event) => {
    people = (event as CustomEvent<{ people: PresencePerson[] }>).detail.people;
    if (list) showPeople(list, people, 'is here');
    markPeople(people);
  });

  // The drawing is redrawn as the document changes: the outlines go back on each new drawing.
  const canvasHost = document.getElementById('editor');
  if (canvasHost) {
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        markPeople(people);
      });
    }).observe(canvasHost, { childList: true, subtree: true });
  }

  // Settled selections only: a new table is selected under its first name and then renamed, and two posts
  // in flight at once may arrive in either order, leaving the others with the stale one.
  let shared: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  editor.onSelectionChange((tables) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const table = tables[0] ?? null;
      if (table === shared) return;
      shared = table;
      document.dispatchEvent(new CustomEvent('dss:live-select', { detail: { table } }));
    }, SELECT_SETTLE_MS);
  });
}

function currentVersion(editor: EditorController): string | null {
  return editor.autosave ? editor.autosave.version : viewedVersion;
}

/**
 * Reads the newest version and hands it to the editor, unless it is the one the page already stands on.
 * A save of this page on its way is waited for first: its answer, not the stream, moves this page on.
 */
async function catchUp(editor: EditorController, diagramUuid: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await editor.autosave?.settled();
    const before = currentVersion(editor);
    const response = await fetch(`/diagrams/${encodeURIComponent(diagramUuid)}/document.json`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return;
    const answer = (await response.json()) as DocumentAnswer;
    const version = answer.data.version;
    if (!version || !answer.data.document) return;
    // A save of this page went out and came back meanwhile: what was read may be older than it.
    if (editor.autosave?.busy || currentVersion(editor) !== before) continue;
    if (version.uuid === before) return;
    editor.applyRemote(answer.data.document, version.uuid);
    if (!editor.autosave) viewedVersion = version.uuid;
    return;
  }
}

/** One run at a time; a call made meanwhile runs once more right after. */
function serialized(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      await run().catch(() => undefined);
    } while (again);
    running = null;
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop();
    return running;
  };
}

/** Outlines each table someone else has selected; the names are in the presence bar. */
function markPeople(people: PresencePerson[]): void {
  const canvas = document.getElementById('editor-canvas');
  if (!canvas) return;
  const wanted = new Map<string, string[]>();
  for (const person of people)
    if (person.table) wanted.set(person.table, [...(wanted.get(person.table) ?? []), person.name]);
  for (const g of Array.from(canvas.querySelectorAll<SVGGElement>('g.dss-table[data-table]'))) {
    const names = wanted.get(g.dataset['table'] ?? '');
    const peers = names?.join(', ');
    // Touch the element only when something changes, so this does not feed the observer that calls it.
    if (g.classList.contains('dss-peer-selected') !== Boolean(names)) g.classList.toggle('dss-peer-selected');
    if (peers === undefined) {
      if (g.dataset['peers'] !== undefined) delete g.dataset['peers'];
    } else if (g.dataset['peers'] !== peers) g.dataset['peers'] = peers;
  }
}
