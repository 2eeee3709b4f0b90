// A page's live connection to its diagram: the event stream (/diagrams/{uuid}/events), reconnected with
// growing, jittered delays after a network drop or a restart of the services (the browser's own retry gives
// up on an error answer such as a 502 or 503 during a restart), and the page's selection for the others.
//
// The interface for every page script (this bundle's diagram page and the editor's alike) is DOM events on
// `document`, so two bundles need not share code:
//   dss:live-connection  detail { state: 'connecting' | 'open' | 'offline', since?: number }
//                        `open` after `offline` means the connection is back: send what waited.
//   dss:live-changed     detail { version_uuid, source }: a version was saved (by anyone, this page too);
//                        GET /diagrams/{uuid}/document.json for the document.
//   dss:live-deleted     detail {}: the diagram was deleted (moved to the Trash); the connection closes.
//   dss:live-presence    detail { people: [{ tab, name, email, table }] } (this page's own tab left out).
//   dss:live-select      dispatched BY a page script, detail { table: string | null }: tell the others.

/** Delays before reconnecting: from 0.5 s doubling to 15 s, each with up to a third more at random. */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;

export type ConnectionState = 'connecting' | 'open' | 'offline';

export interface PresencePerson {
  tab: string;
  name: string;
  email: string;
  table: string | null;
}

export interface LiveOptions {
  diagramUuid: string;
  /** The version the page shows; a newer one saved meanwhile is announced right after connecting. */
  versionUuid: string;
  /** The page's CSRF token, for the presence posts. */
  csrfToken: string;
}

export interface LiveConnection {
  readonly tab: string;
  readonly state: ConnectionState;
  select(table: string | null): void;
  close(): void;
}

export function connectLive(options: LiveOptions): LiveConnection {
  const tab = randomTab();
  let source: EventSource | null = null;
  let state: ConnectionState = 'connecting';
  let failures = 0;
  let timer: number | undefined;
  let closed = false;
  let lastVersion = options.versionUuid;
  let selected: string | null = null;
  const base = `/diagrams/${encodeURIComponent(options.diagramUuid)}`;

  const emit = (name: string, detail: object) => document.dispatchEvent(new CustomEvent(name, { detail }));
  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    emit('dss:live-connection', { state });
  };

  const connect = () => {
    if (closed) return;
    timer = undefined;
    // `since` is what the page shows: on a new stream the server names any newer version at once.
    const url = `${base}/events?tab=${tab}&since=${encodeURIComponent(lastVersion)}`;
    const stream = new EventSource(url);
    source = stream;
    stream.addEventListener('open', () => {
      failures = 0;
      setState('open');
      // The replica that now holds the stream learns the selection again.
      if (selected !== null) postSelection();
    });
    stream.addEventListener('changed', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { version_uuid: string | null };
      if (data.version_uuid) lastVersion = data.version_uuid;
      emit('dss:live-changed', data);
    });
    stream.addEventListener('deleted', () => {
      // Nothing more will come: the diagram is a 404 from now on.
      connection.close();
      emit('dss:live-deleted', {});
    });
    stream.addEventListener('presence', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { people: PresencePerson[] };
      emit('dss:live-presence', { people: data.people.filter((person) => person.tab !== tab) });
    });
    stream.addEventListener('error', () => {
      // CONNECTING: the browser retries by itself (the server's `retry`); CLOSED: it gave up, we retry.
      setState('offline');
      if (stream.readyState === EventSource.CLOSED) scheduleReconnect();
    });
  };

  const scheduleReconnect = () => {
    source?.close();
    source = null;
    if (closed || timer !== undefined) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failures);
    failures += 1;
    timer = window.setTimeout(connect, delay + Math.random() * (delay / 3));
  };

  const postSelection = () => {
    const body = new URLSearchParams({ _csrf: options.csrfToken, tab, table: selected ?? '' });
    // A lost selection is repeated at the next change or reconnection; nothing to retry here.
    fetch(`${base}/presence`, { method: 'POST', body, credentials: 'same-origin' }).catch(() => undefined);
  };

  // Back online: try now rather than at the end of the current delay.
  const online = () => {
    if (state === 'open' || closed) return;
    window.clearTimeout(timer);
    timer = undefined;
    source?.close();
    connect();
  };
  window.addEventListener('online', online);
  const onSelect = (event: Event) => {
    const table = (event as CustomEvent<{ table?: unknown }>).detail?.table;
    connection.select(typeof table === 'string' && table !== '' ? table : null);
  };
  document.addEventListener('dss:live-select', onSelect);

  const connection: LiveConnection = {
    tab,
    get state() {
      return state;
    },
    select(table) {
      if (table === selected) return;
      selected = table;
      postSelection();
    },
    close() {
      closed = true;
      window.clearTimeout(timer);
      window.removeEventListener('online', online);
      document.removeEventListener('dss:live-select', onSelect);
      source?.close();
    },
  };
  connect();
  return connection;
}

function randomTab(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
