// `/settings/lint` over HTTP against the whole embedded system: every member sees the team's settings and
// the rule list, an owner saves settings that the API then answers, bad settings come back with each
// problem named and nothing saved, an editor has no form and cannot post one.
import type { TestMember } from '@dss/system';
import { api, createPerson, startWebTestSystem, WebClient, type WebTestSystem } from './support/web-system';

jest.setTimeout(120_000);

describe('lint settings page (whole embedded system)', () => {
  let web: WebTestSystem;
  let owner: TestMember;
  let editor: TestMember;

  beforeAll(async () => {
    web = await startWebTestSystem();
    await web.people.team('lintpage');
    owner = await createPerson(web, 'lintpage', 'owner');
    editor = await createPerson(web, 'lintpage', 'editor');
  }, 120_000);
  afterAll(async () => {
    await web?.stop();
  });

  const signedIn = async (person: TestMember) => {
    const client = new WebClient(web.webUrl);
    await client.signIn(person.email);
    return client;
  };

  it('When an owner saves settings, then the API answers them; bad settings name each problem and save nothing', async () => {
    const client = await signedIn(owner);
    const page = await client.request('/settings/lint');
    expect(page.response.status).toBe(200);
    expect(page.text).toContain('data-rule="table-without-primary-key"');
    expect(page.text).toContain('The defaults: never saved.');
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page.text)![1]!;

    const saved = await client.request('/settings/lint/lintpage', {
      form: {
        _csrf: csrf,
        settings: JSON.stringify({ rules: { 'reserved-word': 'error' }, max_columns: 30 }),
      },
    });
    expect(saved.response.status).toBe(303);
    const fromApi = await api(web, owner.token, 'GET', '/lint-settings');
    expect(fromApi.body.data).toMatchObject({
      settings: { rules: { 'reserved-word': 'error' }, max_columns: 30 },
    });

    const refused = await client.request('/settings/lint/lintpage', {
      form: { _csrf: csrf, settings: '{"max_columns": 0, "colour": "red"}' },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.text).toContain('<code>max_columns</code>');
    expect(refused.text).toContain('<code>colour</code>');
    // What was typed stays in the box, inert.
    expect(refused.text).toContain('&quot;colour&quot;: &quot;red&quot;');
    expect((await api(web, owner.token, 'GET', '/lint-settings')).body.data).toMatchObject({
      settings: { max_columns: 30 },
    });
  });

  it('When an editor opens the page, then there is no form, and a forged post is refused', async () => {
    const client = await signedIn(editor);
    const page = await client.request('/settings/lint');
    expect(page.text).toContain('Owners of the team change these.');
    expect(page.text).not.toContain('action="/settings/lint/lintpage"');
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page.text)![1]!;
    const forged = await client.request('/settings/lint/lintpage', { form: { _csrf: csrf, settings: '{}' } });
    expect(forged.response.status).toBe(403);
    expect(
      (await client.request('/settings/lint/other-team', { form: { _csrf: csrf, settings: '{}' } })).response
        .status,
    ).toBe(403);
  });
});
