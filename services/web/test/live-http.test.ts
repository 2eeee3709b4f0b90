// The live routes over plain HTTP against the whole embedded system: the event stream of a diagram (its
// format, the catch-up after a reconnection, a save announced as it happens, the cap per session, the end
// at shutdown), the document as JSON, presence checks, and presence between two replicas sharing a bus.
import { createLogger, createMetrics, MemoryEventBus } from '@dss/platform';
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { readWebConfig } from '../src/config';
import { MAX_STREAMS_PER_SESSION, RETRY_MS } from '../src/live/live-hub';
import { startWebApp, type WebApp } from '../src/server';
import { type EventStreamReader, openEventStream } from './support/event-stream';
import {
  createDiagram,
  createPerson,
  startWebTestSystem,
  WebClient,
  type WebTestSystem,
} from './support/web-system';

jest.setTimeout(120_000);

describe('live routes over HTTP (whole embedded system)', () => {
  let web: WebTestSystem;
  let ann: TestMember;
  let ben: TestMember;
  let annClient: WebClient;
  let benClient: WebClient;
  let diagramUuid: string;
  const open: EventStreamReader[] = [];

  beforeAll(async () => {
    web = await startWebTestSystem();
    await web.people.team('live-http');
    ann = await createPerson(web, 'live-http', 'editor', 'Ann Http');
    ben = await createPerson(web, 'live-http', 'viewer', 'Ben Http');
    diagramUuid = await createDiagram(web, ann, twoTableShopPatch());
    annClient = new WebClient(web.webUrl);
    await annClient.signIn(ann.email);
    benClient = new WebClient(web.webUrl);
    await benClient.signIn(ben.email);
  });

  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });

  afterAll(async () => {
    await web?.stop();
  });

  const stream = async (
    client: WebClient,
    query = '',
    headers: Record<string, string> = {},
    base = web.webUrl,
  ) => {
    const reader = await openEventStream(`${base}/diagrams/${diagramUuid}/events${query}`, {
      cookie: client.cookieHeader(),
      ...headers,
    });
    open.push(reader);
    return reader;
  };

  const currentVersion = async (client: WebClient) => {
    const { text } = await client.request(`/diagrams/${diagramUuid}/document.json`);
    return (JSON.parse(text) as { data: { version: { uuid: string; number: number } } }).data.version;
  };

  const save = async (table: string) => {
    const csrf = await annClient.csrfToken(`/diagrams/${diagramUuid}`);
    const patch = { strategy: 'merge', tables: [{ name: table, columns: [{ name: 'id', type: 'bigint' }] }] };
    const { response } = await annClient.request(`/diagrams/${diagramUuid}/paste/apply`, {
      form: { _csrf: csrf, patch: JSON.stringify(patch), base_version: '' },
    });
    expect(response.status).toBe(303);
  };

  it('should answer an event stream that says when to retry and who else is there', async () => {
    const reader = await stream(benClient, '?tab=ben-tab-0001');
    const annReader = await stream(annClient, '?tab=ann-tab-0001');
    expect(reader.response.status).toBe(200);
    expect(reader.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reader.response.headers.get('cache-control')).toBe('no-store');
    const first = await reader.next('presence');
    expect(reader.text.startsWith(`retry: ${RETRY_MS}\n\n`)).toBe(true);
    expect(first.data).toEqual({ people: expect.any(Array) });
    // Each sees the other, never themselves.
    const people = (data: unknown) => (data as { people: { tab: string; name: string }[] }).people;
    const annSees = await annReader.next('presence', (data) =>
      people(data).some((person) => person.tab === 'ben-tab-0001' && person.name === 'Ben Http'),
    );
    expect(people(annSees.data).some((person) => person.name === 'Ann Http')).toBe(false);
    const benSees = await reader.next('presence', (data) =>
      people(data).some((person) => person.tab === 'ann-tab-0001'),
    );
    expect(people(benSees.data).some((person) => person.name === 'Ben Http')).toBe(false);
  });

  it('should announce a save as it happens, naming the new version', async () => {
    const before = await currentVersion(benClient);
    const reader = await stream(benClient, `?since=${before.uuid}`);
    await reader.next('presence');
    await save('live_one');
    const after = await currentVersion(benClient);
    expect(after.number).toBe(before.number + 1);
    const changed = await reader.next('changed');
    expect(changed).toEqual({
      event: 'changed',
      id: after.uuid,
      data: { version_uuid: after.uuid, source: 'apply' },
    });
  });

  it('should announce at once the version saved while a page was away (since, or Last-Event-ID)', async () => {
    const before = await currentVersion(benClient);
    await save('live_two');
    const after = await currentVersion(benClient);
    for (const reader of [
      await stream(benClient, `?since=${before.uuid}`),
      await stream(benClient, '', { 'last-event-id': before.uuid }),
    ]) {
      const changed = await reader.next('changed');
      expect(changed.id).toBe(after.uuid);
    }
  });

  it('should give the document as JSON with its version, number and author', async () => {
    const { response, text } = await benClient.request(`/diagrams/${diagramUuid}/document.json`);
    expect(response.status).toBe(200);
    const { data } = JSON.parse(text) as {
      data: {
        version: { number: number; author: string; source: string };
        document: { tables: { name: string }[] };
      };
    };
    expect(data.version).toMatchObject({ author: 'Ann Http', source: 'paste' });
    expect(data.document.tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(['customers', 'orders', 'live_one', 'live_two']),
    );
  });

  it('should refuse more streams than a session may hold, with rate_limited and Retry-After', async () => {
    const client = new WebClient(web.webUrl);
    await client.signIn(ben.email);
    const readers = [];
    for (let index = 0; index < MAX_STREAMS_PER_SESSION; index += 1) readers.push(await stream(client));
    for (const reader of readers) expect(reader.response.status).toBe(200);
    const refused = await fetch(`${web.webUrl}/diagrams/${diagramUuid}/events`, {
      headers: { cookie: client.cookieHeader() },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    // Another session is not affected.
    expect((await stream(annClient)).response.status).toBe(200);
  });

  it('should refuse a presence post without the CSRF token, or with a bad tab, and a stream with a bad tab', async () => {
    const csrf = await benClient.csrfToken(`/diagrams/${diagramUuid}`);
    const forged = await benClient.request(`/diagrams/${diagramUuid}/presence`, {
      form: { tab: 'ben-tab-0001' },
    });
    expect(forged.response.status).toBe(403);
    const badTab = await benClient.request(`/diagrams/${diagramUuid}/presence`, {
      form: { _csrf: csrf, tab: '<script>', table: 'orders' },
    });
    expect(badTab.response.status).toBe(422);
    expect(JSON.parse(badTab.text)).toEqual({
      error: { code: 'invalid_request', message: expect.any(String) },
    });
    const badStream = await benClient.request(`/diagrams/${diagramUuid}/events?tab=x`);
    expect(badStream.response.status).toBe(422);
    const ok = await benClient.request(`/diagrams/${diagramUuid}/presence`, {
      form: { _csrf: csrf, tab: 'ben-tab-0001', table: 'orders' },
    });
    expect(ok.response.status).toBe(204);
  });

  it('should keep a tab that reconnected before its old stream closed', async () => {
    const has = (tab: string) => (data: unknown) =>
      (data as { people: { tab: string }[] }).people.some((person) => person.tab === tab);
    const observer = await stream(annClient, '?tab=ann-observer-1');
    const old = await stream(benClient, '?tab=ben-returning');
    await observer.next('presence', has('ben-returning'));
    await stream(benClient, '?tab=ben-returning');
    old.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Anything announced after the old stream closed shows the board as it is then.
    const csrf = await benClient.csrfToken(`/diagrams/${diagramUuid}`);
    await benClient.request(`/diagrams/${diagramUuid}/presence`, {
      form: { _csrf: csrf, tab: 'ben-second-tab', table: 'customers' },
    });
    const after = await observer.next('presence', (data) =>
      (data as { people: { tab: string; table: string | null }[] }).people.some(
        (person) => person.tab === 'ben-second-tab' && person.table === 'customers',
      ),
    );
    expect(has('ben-returning')(after.data)).toBe(true);
  });

  it('should tell the pages of a diagram moved to the Trash, and end their streams', async () => {
    const doomed = await createDiagram(web, ann, twoTableShopPatch(), 'Doomed');
    const reader = await openEventStream(`${web.webUrl}/diagrams/${doomed}/events`, {
      cookie: benClient.cookieHeader(),
    });
    open.push(reader);
    await reader.next('presence');
    const csrf = await annClient.csrfToken(`/diagrams/${doomed}/delete`);
    const deleted = await annClient.request(`/diagrams/${doomed}/delete`, { form: { _csrf: csrf } });
    expect(deleted.response.status).toBe(303);
    await reader.next('deleted');
    await reader.ended;
    expect((await benClient.request(`/diagrams/${doomed}/document.json`)).response.status).toBe(404);
  });

  describe('two web replicas sharing one bus', () => {
    let replicas: WebApp[];
    const urlOf = (replica: WebApp) => `http://127.0.0.1:${replica.port}`;

    beforeAll(async () => {
      const bus = new MemoryEventBus({ logger: createLogger('bus', { level: 'silent' }) });
      const start = () =>
        startWebApp({
          config: readWebConfig({
            ...web.system!.env,
            DSS_WEB_PORT: '0',
            DSS_WEB_HOST: '127.0.0.1',
            DSS_APP_URL: web.webUrl,
            DSS_ACCOUNTS_GRPC_ADDR: web.system!.grpc.accounts,
            DSS_DIAGRAMS_GRPC_ADDR: web.system!.grpc.diagrams,
            DSS_PROPOSALS_GRPC_ADDR: web.system!.grpc.proposals,
            DSS_NOTIFICATIONS_GRPC_ADDR: web.system!.grpc.notifications,
            DSS_IMPORTER_GRPC_ADDR: web.system!.grpc.importer!,
          }),
          logger: createLogger('web', { level: 'silent' }),
          metrics: createMetrics('web', { processMetrics: false }),
          bus,
        });
      replicas = [await start(), await start()];
    });

    afterAll(async () => {
      for (const replica of replicas) await replica.stop();
    });

    it('should show on one replica the selection posted to the other, and the leaving', async () => {
      const [first, second] = replicas as [WebApp, WebApp];
      const annStream = await stream(annClient, '?tab=ann-tab-0001', {}, urlOf(first));
      const benStream = await stream(benClient, '?tab=ben-tab-0002', {}, urlOf(second));
      await annStream.next('presence', (data) =>
        (data as { people: { tab: string }[] }).people.some((person) => person.tab === 'ben-tab-0002'),
      );
      const csrf = await benClient.csrfToken(`/diagrams/${diagramUuid}`);
      const posted = await fetch(`${urlOf(second)}/diagrams/${diagramUuid}/presence`, {
        method: 'POST',
        headers: {
          cookie: benClient.cookieHeader(),
          origin: web.webUrl,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ _csrf: csrf, tab: 'ben-tab-0002', table: 'orders' }),
      });
      expect(posted.status).toBe(204);
      await annStream.next('presence', (data) =>
        (data as { people: { tab: string; table: string | null }[] }).people.some(
          (person) => person.tab === 'ben-tab-0002' && person.table === 'orders',
        ),
      );
      benStream.close();
      await annStream.next(
        'presence',
        (data) =>
          !(data as { people: { tab: string }[] }).people.some((person) => person.tab === 'ben-tab-0002'),
      );
    });

    it('should end its streams when it drains, and refuse new ones with 503', async () => {
      const [, second] = replicas as [WebApp, WebApp];
      const reader = await stream(annClient, '', {}, urlOf(second));
      await reader.next('presence');
      second.drain();
      await reader.ended;
      const refused = await fetch(`${urlOf(second)}/diagrams/${diagramUuid}/events`, {
        headers: { cookie: annClient.cookieHeader() },
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
    });
  });
});
