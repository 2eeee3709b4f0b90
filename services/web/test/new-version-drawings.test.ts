// Large diagrams' new versions drawn before their first view, against the whole embedded system: the web
// app's own drawer makes the drawing its diagram page then finds kept (the page draws nothing), byte-equal to
// the renderer's; and a drawer of the test's own, on its own bus but with the real diagrams service and
// drawing thread, shows what it skips: small diagrams, events naming another team, and content already kept.
import { renderDiagramSvg } from '@dss/diagram-svg';
import {
  createLogger,
  createServiceClient,
  MemoryEventBus,
  ServiceError,
  type ServiceClient,
} from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import { twoTableShopPatch, type TestMember } from '@dss/system';
import { createGenerated } from '../bench/bench-system';
import { drawingThread } from '../src/drawing-thread';
import { contentKey, DrawingCache, drawings, pageKey, titled } from '../src/drawings';
import { NewVersionDrawer } from '../src/new-version-drawings';
import { pageDrawings } from '../src/page-drawing';
import {
  busyChainDdl,
  createDiagram,
  createPerson,
  importDdl,
  onContainerStack,
  startWebTestSystem,
  WebClient,
  type WebTestSystem,
} from './support/web-system';

jest.setTimeout(180_000);

const describeInProcess = onContainerStack ? describe.skip : describe;

/** Waits (polling, without a time assertion) until `done` holds; fails after `limitMs`. */
async function until(done: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeInProcess('NewVersionDrawer (whole embedded system)', () => {
  let web: WebTestSystem;
  let ann: TestMember;
  let other: TestMember;
  let annClient: WebClient;
  let diagrams: ServiceClient<'Diagrams'>;
  let annTeamId: string;
  let otherTeamId: string;
  // Warm, as the product's (the test system's own web app runs without): its drawings are the renderer's.
  const thread = drawingThread(true);

  beforeAll(async () => {
    web = await startWebTestSystem();
    ann = await createPerson(web, 'draw-ahead', 'editor');
    other = await createPerson(web, 'draw-ahead-other', 'editor');
    annClient = new WebClient(web.webUrl);
    await annClient.signIn(ann.email);
    diagrams = createServiceClient('Diagrams', web.system!.grpc.diagrams);
    annTeamId = (await web.people.accounts.GetTeam({ slug: ann.team, id: '' })).id;
    otherTeamId = (await web.people.accounts.GetTeam({ slug: other.team, id: '' })).id;
  });

  afterAll(async () => {
    thread.close();
    diagrams?.close();
    await web?.stop();
  });

  /** A drawer of the test's own, on its own bus and cache, drawing in the test's thread, started. */
  async function startDrawer() {
    const bus = new MemoryEventBus({ logger: createLogger('bus', { level: 'silent' }) });
    const cache = new DrawingCache();
    const drawer = new NewVersionDrawer({
      bus,
      clients: { diagrams },
      cache,
      draw: (body) => thread.ask(body),
      logger: createLogger('test', { level: 'silent' }),
      cooldownMs: 0,
    });
    await drawer.start();
    return { bus, cache, drawer };
  }

  /** The full document of a diagram as its page reads it (diagrams.GetFullDocument as a member of the team). */
  async function pageDocument(uuid: string, teamId: string, person: TestMember): Promise<DiagramDocument> {
    const full = await diagrams.GetFullDocument({
      principal: { user_id: person.userId, team_id: teamId, role: 'editor', token_id: '' },
      uuid,
      known_etag: '',
    });
    return (JSON.parse(full.body) as { data: DiagramDocument }).data;
  }

  it('serves the first view of a large diagram’s new version from the drawing made before it', async () => {
    const kept = drawings.size.drawings;
    const { uuid } = await createGenerated(web.system!, ann, 'Ahead 120', 120);
    // The web app's drawer heard `diagrams.changed` and drew the version in its thread.
    await until(() => drawings.size.drawings > kept, 'the new version to be drawn');
    const before = { ...drawings.counts };

    const page = await annClient.request(`/diagrams/${uuid}`);

    expect(page.response.status).toBe(200);
    expect(drawings.counts.drawn).toBe(before.drawn);
    expect(drawings.counts.hits).toBe(before.hits + 1);
    const svg = renderDiagramSvg(await pageDocument(uuid, annTeamId, ann), { title: 'Ahead 120' });
    expect(page.text).toContain(`<figure class="diagram" id="diagram">${svg}</figure>`);
  });

  it('answers a later view of an unchanged version from the remembered ETag, without its document', async () => {
    const uuid = await createDiagram(web, ann, twoTableShopPatch(), 'Remembered');
    const first = await annClient.request(`/diagrams/${uuid}`);
    const before = pageDrawings.unchangedViews;

    const second = await annClient.request(`/diagrams/${uuid}`);
    const embed = await annClient.request(`/embed/${uuid}`);

    expect(pageDrawings.unchangedViews).toBe(before + 2);
    const figure = (page: string) =>
      /<figure class="diagram" id="diagram">[\s\S]*?<\/figure>/.exec(page)?.[0];
    expect(figure(first.text)).toBeDefined();
    expect(figure(second.text)).toBe(figure(first.text));
    expect(figure(embed.text)).toBe(figure(first.text));
    expect(figure(first.text)).toBe(
      `<figure class="diagram" id="diagram">${renderDiagramSvg(await pageDocument(uuid, annTeamId, ann), { title: 'Remembered' })}</figure>`,
    );
  });

  it('sends the editor page the drawing of the version, and hashes an unchanged version’s document only once', async () => {
    const uuid = await createDiagram(web, ann, twoTableShopPatch(), 'Edited shop');
    const drawingIn = (page: string) =>
      /<template id="editor-drawing">([\s\S]*?)<\/template>/.exec(page)?.[1];

    const first = await annClient.request(`/diagrams/${uuid}/edit`);
    const before = pageDrawings.keysRemembered;
    const second = await annClient.request(`/diagrams/${uuid}/edit`);

    expect(pageDrawings.keysRemembered).toBe(before + 1);
    const svg = renderDiagramSvg(await pageDocument(uuid, annTeamId, ann), { title: 'Edited shop' });
    expect(drawingIn(first.text)).toBe(svg);
    expect(drawingIn(second.text)).toBe(svg);
  });

  it('draws a large diagram of the event’s team, and nothing for the same diagram named under another team', async () => {
    const { bus, cache, drawer } = await startDrawer();
    const { uuid } = await createGenerated(web.system!, ann, 'Ahead 100', 100);

    await bus.publish('diagrams.changed', { diagram_uuid: uuid, team_id: otherTeamId, source: 'create' });
    await drawer.idle();
    expect(drawer.counts).toMatchObject({ drawn: 0, unreadable: 1 });
    expect(cache.size.drawings).toBe(0);

    await bus.publish('diagrams.changed', { diagram_uuid: uuid, team_id: annTeamId, source: 'create' });
    await drawer.idle();
    expect(drawer.counts).toMatchObject({ drawn: 1, unreadable: 1 });
    const document = await pageDocument(uuid, annTeamId, ann);
    expect(cache.has(contentKey(document))).toBe(true);
    const svg = cache.svg(await pageDocument(uuid, annTeamId, ann), { title: 'Ahead 100' });
    expect(cache.counts).toMatchObject({ hits: 1, drawn: 0 });
    expect(svg).toBe(renderDiagramSvg(document, { title: 'Ahead 100' }));

    // The same version announced again: already kept, not drawn twice.
    await bus.publish('diagrams.changed', { diagram_uuid: uuid, team_id: annTeamId, source: 'create' });
    await drawer.idle();
    expect(drawer.counts).toMatchObject({ drawn: 1, kept: 1 });
    await drawer.close();
  });

  it('draws a busy diagram ahead as its read-only views show it (with copies) and as its editor does (every table once)', async () => {
    const { bus, cache, drawer } = await startDrawer();
    // accounts is busy: referenced by 110 of 111 tables.
    const uuid = await importDdl(web, ann, 'Busy ahead', busyChainDdl(110));

    await bus.publish('diagrams.changed', { diagram_uuid: uuid, team_id: annTeamId, source: 'create' });
    await drawer.idle();
    expect(drawer.counts).toMatchObject({ drawn: 1 });
    const document = await pageDocument(uuid, annTeamId, ann);
    expect(cache.has(pageKey(contentKey(document), document))).toBe(true);
    const svg = cache.svg(document, { title: 'Busy ahead', copies: true });
    expect(cache.counts).toMatchObject({ hits: 1, drawn: 0 });
    expect(svg).toBe(renderDiagramSvg(document, { title: 'Busy ahead', hubCopies: true }));
    expect(svg).toContain('data-table-copy="accounts"');

    // The editor's drawing of the same version, drawn ahead too: every table once, with the routing it
    // seeds from.
    const editorDrawing = await cache.drawingSoon(document);
    expect(cache.counts).toMatchObject({ hits: 2, drawn: 0 });
    expect(editorDrawing.routes).toBeDefined();
    expect(titled(editorDrawing, 'Busy ahead')).toBe(renderDiagramSvg(document, { title: 'Busy ahead' }));
    await drawer.close();
  });

  it('leaves diagrams under 100 tables to their pages', async () => {
    const { bus, cache, drawer } = await startDrawer();
    const small = await createDiagram(web, ann, twoTableShopPatch());
    const { uuid: justUnder } = await createGenerated(web.system!, ann, 'Ahead 99', 99);

    await bus.publish('diagrams.changed', { diagram_uuid: small, team_id: annTeamId, source: 'create' });
    await bus.publish('diagrams.changed', { diagram_uuid: justUnder, team_id: annTeamId, source: 'create' });
    await drawer.idle();

    expect(drawer.counts).toMatchObject({ drawn: 0, small: 2 });
    expect(cache.size.drawings).toBe(0);
    await drawer.close();
  });
});

describe('NewVersionDrawer queue', () => {
  it('keeps one waiting job per diagram and at most its queue limit, dropping the longest-waiting', async () => {
    const asked: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A diagrams service that knows no diagram: the first request holds the drawer busy until released.
    const diagrams = {
      async GetDiagram(request: { uuid: string }) {
        asked.push(request.uuid);
        if (asked.length === 1) await held;
        throw new ServiceError('not_found', 'no such diagram');
      },
    } as unknown as ServiceClient<'Diagrams'>;
    const drawer = new NewVersionDrawer({
      bus: new MemoryEventBus({ logger: createLogger('bus', { level: 'silent' }) }),
      clients: { diagrams },
      cache: new DrawingCache(),
      draw: () => Promise.reject(new Error('nothing is drawn here')),
      logger: createLogger('test', { level: 'silent' }),
      queueLimit: 2,
      cooldownMs: 0,
    });
    const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    const team = '00000000-0000-4000-8000-0000000000aa';
    drawer.offer({ diagram_uuid: uuid(1), team_id: team });
    drawer.offer({ diagram_uuid: uuid(2), team_id: team });
    drawer.offer({ diagram_uuid: uuid(3), team_id: team });
    drawer.offer({ diagram_uuid: uuid(2), team_id: team }); // replaces its waiting job, now the newest
    drawer.offer({ diagram_uuid: uuid(4), team_id: team }); // over the limit: 3 waited longest
    release();
    await drawer.idle();

    expect(asked).toEqual([uuid(1), uuid(2), uuid(4)]);
    expect(drawer.counts.dropped).toBe(1);
  });
});
