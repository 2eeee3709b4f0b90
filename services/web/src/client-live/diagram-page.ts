// The live part of the diagram page (bundled by scripts/bundle.js into dist/client/live.js, served as
// /assets/live.js): the drawing is redrawn when someone saves a new version, the page lists who else has
// the diagram open and marks the table each has selected, and a click on a table shares this page's
// selection. Page contract: <section id="live" data-diagram data-version data-csrf> with a
// <p data-live="state">, a <p data-live="note"> and a <ul data-live="people">; the drawing is
// <figure id="diagram">, the table count an element with data-live="table-count". Every text from the server is set as text, never as markup. On the editor's page
// (<div id="editor" data-diagram data-version data-csrf>) it opens the connection only, and the editor
// listens to the dss:live-* events (live-connection.ts).
import type { DiagramDocument } from '@dss/schema';
import { renderDiagramSvg } from '@dss/diagram-svg/src/render';
import { enableViewports } from '@dss/diagram-svg/src/browser/viewport';
import { showPeople } from '@dss/editor/src/browser/presence-list';
import { connectLive, type PresencePerson } from './live-connection';

interface DocumentAnswer {
  data: {
    name: string;
    version: { uuid: string; number: number; author: string | null } | null;
    document: DiagramDocument | null;
  };
}

const STATE_TEXT = { connecting: 'Connecting…', open: 'Live', offline: 'Offline: reconnecting…' } as const;

function start(): void {
  const section = document.getElementById('live');
  if (section?.dataset['diagram']) {
    startDiagramPage(section, section.dataset['diagram']);
    return;
  }
  // The editor page (<div id="editor" data-diagram data-version data-csrf>) draws by itself: it gets the
  // connection and its dss:live-* events only.
  const editor = document.getElementById('editor');
  const diagramUuid = editor?.dataset['diagram'];
  if (editor && diagramUuid)
    connectLive({
      diagramUuid,
      versionUuid: editor.dataset['version'] ?? '',
      csrfToken: editor.dataset['csrf'] ?? '',
    });
}

function startDiagramPage(section: HTMLElement, diagramUuid: string): void {
  let shown = section.dataset['version'] ?? '';
  const stateText = section.querySelector<HTMLElement>('[data-live="state"]');
  const note = section.querySelector<HTMLElement>('[data-live="note"]');
  const list = section.querySelector<HTMLUListElement>('[data-live="people"]');
  let people: PresencePerson[] = [];

  const live = connectLive({ diagramUuid, versionUuid: shown, csrfToken: section.dataset['csrf'] ?? '' });

  document.addEventListener('dss:live-connection', (event) => {
    const { state } = (event as CustomEvent<{ state: keyof typeof STATE_TEXT }>).detail;
    if (stateText) stateText.textContent = STATE_TEXT[state];
    section.dataset['state'] = state;
  });

  // One fetch at a time; a change announced meanwhile is fetched right after.
  let fetching = false;
  let again = false;
  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        const response = await fetch(`/diagrams/${encodeURIComponent(diagramUuid)}/document.json`, {
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        });
        if (response.status === 404) return showDeleted();
        if (!response.ok) continue;
        const answer = (await response.json()) as DocumentAnswer;
        const version = answer.data.version;
        if (!version || version.uuid === shown || !answer.data.document) continue;
        if (redraw(answer.data.document, answer.data.name)) {
          shown = version.uuid;
          section.dataset['version'] = shown;
          const base = document.querySelector<HTMLInputElement>('#layout-form input[name="base_version"]');
          if (base) base.value = shown;
          if (note) note.textContent = `Version ${version.number} saved by ${version.author ?? 'someone'}.`;
          const count = document.querySelector('[data-live="table-count"]');
          const tables = answer.data.document.tables.length;
          if (count) count.textContent = `${tables} ${tables === 1 ? 'table' : 'tables'}`;
        } else if (note) {
          note.textContent =
            'Someone saved a newer version while you arrange; reload to see it (saving this layout would be refused).';
        }
        markPeople(people);
      } while (again);
    } finally {
      fetching = false;
    }
  };

  const showDeleted = () => {
    if (note) note.textContent = 'This diagram was deleted.';
    live.close();
  };

  document.addEventListener('dss:live-changed', () => void refresh());
  document.addEventListener('dss:live-deleted', showDeleted);
  document.addEventListener('dss:live-presence', (event) => {
    people = (event as CustomEvent<{ people: PresencePerson[] }>).detail.people;
    if (list) showPeople(list, people, 'is viewing');
    markPeople(people);
  });

  // A click on a table selects it for the others to see; a second click, or a click beside, clears it.
  document.addEventListener('click', (event) => {
    const figure = document.getElementById('diagram');
    const target = event.target instanceof Element ? event.target : null;
    if (!figure || !target || !figure.contains(target)) return;
    if (figure.querySelector('svg.dss-arranging')) return;
    const table = target.closest<SVGGElement>('g.dss-table[data-table]')?.dataset['table'] ?? null;
    const next = table === selectedTable() ? null : table;
    for (const g of Array.from(figure.querySelectorAll('g.dss-table.dss-selected')))
      g.classList.remove('dss-selected');
    if (next) tableGroup(next)?.classList.add('dss-selected');
    live.select(next);
  });
}

function selectedTable(): string | null {
  return document.querySelector<SVGGElement>('#diagram g.dss-table.dss-selected')?.dataset['table'] ?? null;
}

function tableGroup(name: string): SVGGElement | null {
  const figure = document.getElementById('diagram');
  if (!figure) return null;
  for (const g of Array.from(figure.querySelectorAll<SVGGElement>('g.dss-table[data-table]')))
    if (g.dataset['table'] === name) return g;
  return null;
}

/** Draws the document in place of the current drawing; false while tables are being arranged by hand. */
function redraw(documentData: DiagramDocument, title: string): boolean {
  const old = document.getElementById('diagram');
  if (!old?.parentElement) return false;
  const svgElement = old.querySelector('svg.dss-diagram');
  const save = old.querySelector<HTMLButtonElement>('[data-zoom-action="save-layout"]');
  if (svgElement?.classList.contains('dss-arranging') || (save && !save.disabled)) return false;
  const selected = selectedTable();
  // As the server drew it: with copies of busy tables unless the person asked for every table once.
  const copies = old.dataset['copies'] !== 'off';
  const parsed = new DOMParser().parseFromString(
    renderDiagramSvg(documentData, { title, hubCopies: copies }),
    'image/svg+xml',
  ).documentElement;
  const figure = document.createElement('figure');
  figure.className = 'diagram';
  figure.id = 'diagram';
  if (!copies) figure.dataset['copies'] = 'off';
  figure.appendChild(document.importNode(parsed, true));
  old.replaceWith(figure);
  enableViewports(figure.parentElement ?? document);
  if (selected) tableGroup(selected)?.classList.add('dss-selected');
  return true;
}

/** Marks each table someone else has selected, named in its tooltip-free label for screen readers too. */
function markPeople(people: PresencePerson[]): void {
  const figure = document.getElementById('diagram');
  if (!figure) return;
  for (const g of Array.from(figure.querySelectorAll<SVGGElement>('g.dss-table.dss-peer-selected'))) {
    g.classList.remove('dss-peer-selected');
    delete g.dataset['peers'];
  }
  for (const person of people) {
    if (!person.table) continue;
    const g = tableGroup(person.table);
    if (!g) continue;
    g.classList.add('dss-peer-selected');
    g.dataset['peers'] = [g.dataset['peers'], person.name || person.email].filter(Boolean).join(', ');
  }
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}
