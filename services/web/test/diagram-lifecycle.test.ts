// Rename, duplicate, delete to the Trash and restore in the web app (src/routes/diagram-lifecycle.ts) over
// plain HTTP against the whole embedded system: the forms, the roles (a forged post by a viewer answers
// 403 and changes nothing), another team's 404, and a deleted diagram's 404 everywhere.
import { type TestMember, twoTableShopPatch } from '@dss/system';
import {
  api,
  createDiagram,
  createPerson,
  propose,
  startWebTestSystem,
  WebClient,
  type WebTestSystem,
} from './support/web-system';

jest.setTimeout(120_000);

describe('web app: rename, duplicate, delete and the Trash', () => {
  let web: WebTestSystem;
  let owner: TestMember;
  let editor: TestMember;
  let viewer: TestMember;
  let outsider: TestMember;
  const clients = new Map<TestMember, WebClient>();

  const as = async (person: TestMember) => {
    let client = clients.get(person);
    if (!client) {
      client = new WebClient(web.webUrl);
      expect((await client.signIn(person.email)).response.status).toBe(303);
      clients.set(person, client);
    }
    return client;
  };
  const post = async (person: TestMember, path: string, fields: Record<string, string> = {}) => {
    const client = await as(person);
    const csrf = await client.csrfToken('/');
    return client.request(path, { form: { _csrf: csrf, ...fields } });
  };

  beforeAll(async () => {
    web = await startWebTestSystem();
    await web.people.team('lc');
    await web.people.team('lc-far');
    owner = await createPerson(web, 'lc', 'owner');
    editor = await createPerson(web, 'lc', 'editor');
    viewer = await createPerson(web, 'lc', 'viewer');
    outsider = await createPerson(web, 'lc-far', 'owner');
  }, 120_000);
  afterAll(async () => {
    await web?.stop();
  });

  it('should show Rename, Duplicate and Delete diagram to editors and none of them to viewers', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Buttons');
    const forEditor = (await (await as(editor)).request(`/diagrams/${uuid}`)).text;
    for (const label of ['>Rename</button>', '>Duplicate</button>', '>Delete diagram</button>'])
      expect(forEditor).toContain(label);
    const forViewer = (await (await as(viewer)).request(`/diagrams/${uuid}`)).text;
    for (const label of ['>Rename</button>', '>Duplicate</button>', '>Delete diagram</button>'])
      expect(forViewer).not.toContain(label);
  });

  it('should rename a diagram from its page', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Old name');
    const { response } = await post(editor, `/diagrams/${uuid}/rename`, { name: 'New <b>name</b>' });
    expect([response.status, response.headers.get('location')]).toEqual([303, `/diagrams/${uuid}`]);
    expect((await api(web, editor.token, 'GET', `/diagrams/${uuid}`)).body.data!.name).toBe(
      'New <b>name</b>',
    );
    const page = (await (await as(editor)).request(`/diagrams/${uuid}`)).text;
    expect(page).toContain('New &lt;b&gt;name&lt;/b&gt;');
  });

  it('should duplicate a diagram and open the copy', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'To copy');
    const { response } = await post(editor, `/diagrams/${uuid}/duplicate`);
    expect(response.status).toBe(303);
    const copyUuid = response.headers.get('location')!.replace('/diagrams/', '');
    expect(copyUuid).not.toBe(uuid);
    const copy = await api(web, editor.token, 'GET', `/diagrams/${copyUuid}`);
    expect(copy.body.data).toMatchObject({ name: 'To copy (copy)', table_count: 2 });
  });

  it('should ask for confirmation, then move the diagram to the Trash: 404 on the page, the embed and the API', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Doomed');
    const confirm = await (await as(editor)).request(`/diagrams/${uuid}/delete`);
    expect(confirm.response.status).toBe(200);
    expect(confirm.text).toContain(`action="/diagrams/${uuid}/delete"`);
    expect((await api(web, editor.token, 'GET', `/diagrams/${uuid}`)).status).toBe(200);
    const { response } = await post(editor, `/diagrams/${uuid}/delete`);
    expect([response.status, response.headers.get('location')]).toEqual([303, '/trash']);
    const client = await as(editor);
    expect((await client.request(`/diagrams/${uuid}`)).response.status).toBe(404);
    expect((await client.request(`/embed/${uuid}`)).response.status).toBe(404);
    expect((await api(web, editor.token, 'GET', `/diagrams/${uuid}`)).status).toBe(404);
    expect((await api(web, editor.token, 'GET', `/diagrams/${uuid}/export?format=sql`)).status).toBe(404);
    const trash = (await client.request('/trash')).text;
    expect(trash).toContain('Doomed');
    expect(trash).toContain('Owners can restore');
    expect((await client.request('/')).text).not.toContain(`/diagrams/${uuid}"`);
  });

  it('should tell the reviewer of a pending proposal that its diagram was deleted', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Proposed to');
    const proposal = await propose(web, editor, uuid, {
      title: 'Add a table',
      message: 'For the test',
      schema: { strategy: 'additive', tables: [{ name: 'extra', columns: [{ name: 'id', type: 'int' }] }] },
    });
    await post(editor, `/diagrams/${uuid}/delete`);
    const review = await (await as(editor)).request(`/review/${proposal.uuid}`);
    expect(review.response.status).toBe(404);
    expect(review.text).toContain('The diagram was deleted');
  });

  it('should let an owner restore from the Trash, and refuse an editor', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Comes back');
    await post(editor, `/diagrams/${uuid}/delete`);
    const teamId = (await web.people.accounts.GetTeam({ slug: 'lc', id: '' })).id;
    const refused = await post(editor, `/trash/${uuid}/restore`, { team_id: teamId });
    expect(refused.response.status).toBe(403);
    expect((await (await as(owner)).request('/trash')).text).toContain(`aria-label="Restore Comes back"`);
    const { response } = await post(owner, `/trash/${uuid}/restore`, { team_id: teamId });
    expect([response.status, response.headers.get('location')]).toEqual([303, `/diagrams/${uuid}`]);
    expect((await api(web, editor.token, 'GET', `/diagrams/${uuid}`)).status).toBe(200);
  });

  it('should answer a viewer’s forged posts with 403 and another team’s with 404, changing nothing', async () => {
    const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Guarded');
    for (const path of ['rename', 'duplicate', 'delete'])
      expect((await post(viewer, `/diagrams/${uuid}/${path}`, { name: 'Hacked' })).response.status).toBe(403);
    for (const path of ['rename', 'duplicate', 'delete'])
      expect((await post(outsider, `/diagrams/${uuid}/${path}`, { name: 'Hacked' })).response.status).toBe(
        404,
      );
    const after = await api(web, editor.token, 'GET', `/diagrams/${uuid}`);
    expect([after.status, after.body.data!.name]).toEqual([200, 'Guarded']);
  });
});
