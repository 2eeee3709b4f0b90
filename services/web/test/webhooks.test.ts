// The webhooks settings page (src/routes/webhooks.ts) over plain HTTP against the whole embedded system and a
// real receiver on 127.0.0.1: an owner registers an endpoint (the secret shown once), a diagram's creation
// reaches the receiver, the delivery log shows it and redelivers it; editors manage nothing (a forged post
// answers 403) and another team's owner gets the 404 page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestMember } from '@dss/system';
import { twoTableShopPatch } from '@dss/system';
import { Webhook } from 'standardwebhooks';
import {
  createDiagram,
  createPerson,
  startWebTestSystem,
  WebClient,
  type WebTestSystem,
} from './support/web-system';

jest.setTimeout(120_000);

describe('web app: webhooks settings', () => {
  let web: WebTestSystem;
  let owner: TestMember;
  let editor: TestMember;
  let outsider: TestMember;
  const clients = new Map<TestMember, WebClient>();
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200).end('thanks <b>bold</b>');
    });
  });
  let url: string;

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
    const csrf = await client.csrfToken('/settings/webhooks');
    return client.request(path, { form: { _csrf: csrf, ...fields } });
  };
  const until = async (check: () => boolean | Promise<boolean>) => {
    for (let tries = 0; !(await check()) && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await check()).toBe(true);
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    web = await startWebTestSystem();
    await web.people.team('wh');
    await web.people.team('wh-far');
    owner = await createPerson(web, 'wh', 'owner');
    editor = await createPerson(web, 'wh', 'editor');
    outsider = await createPerson(web, 'wh-far', 'owner');
  }, 120_000);
  afterAll(async () => {
    await web?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('should register a webhook, show its secret once, and show and redeliver its deliveries', async () => {
    const form = (await (await as(owner)).request('/settings/webhooks')).text;
    expect(form).toContain('id="create-webhook"');
    expect(form).toContain('value="proposal.changes_requested"');

    const created = await post(owner, '/settings/webhooks', { team: 'wh', url, events: 'diagram.created' });
    expect(created.response.status).toBe(200);
    expect(created.response.headers.get('cache-control')).toBe('no-store');
    const secret = /<pre class="secret" id="webhook-secret">(whsec_[^<]+)<\/pre>/.exec(created.text)?.[1];
    expect(secret).toBeDefined();
    const list = (await (await as(owner)).request('/settings/webhooks')).text;
    const id = /data-webhook="([0-9a-f-]{36})"/.exec(list)?.[1];
    expect(id).toBeDefined();
    expect(list).not.toContain(secret!);

    const diagram = await createDiagram(web, owner, twoTableShopPatch(), 'Hooked');
    await until(() => received.length === 1);
    const body = new Webhook(secret!).verify(received[0].body, received[0].headers) as {
      data: { diagram_uuid: string };
    };
    expect(body.data.diagram_uuid).toBe(diagram);

    // The sender logs the attempt (with the receiver's answer) after the answer came, a moment after the
    // request: the page is read until it shows it.
    let log = '';
    await until(async () => {
      log = (await (await as(owner)).request(`/settings/webhooks/${id}/deliveries?team=wh`)).text;
      return log.includes('thanks &lt;b&gt;');
    });
    const delivery = received[0].headers['webhook-id'];
    expect(log).toContain(`data-delivery="${delivery}"`);
    // The receiver's answer is shown as text, never as markup.
    expect(log).toContain('thanks &lt;b&gt;bold&lt;/b&gt;');
    const again = await post(owner, `/settings/webhooks/${id}/deliveries/${delivery}/redeliver`, {
      team: 'wh',
    });
    expect(again.response.status).toBe(303);
    await until(() => received.length === 2);
    expect(received[1].headers['webhook-id']).toBe(delivery);

    const rotated = await post(owner, `/settings/webhooks/${id}/rotate`, { team: 'wh' });
    expect(rotated.text).toMatch(/id="webhook-secret">whsec_/);
    expect((await post(owner, `/settings/webhooks/${id}/delete`, { team: 'wh' })).response.status).toBe(303);
    expect((await (await as(owner)).request('/settings/webhooks')).text).not.toContain(
      `data-webhook="${id}"`,
    );
  });

  it('should let editors manage nothing and show another team the 404 page', async () => {
    expect((await (await as(editor)).request('/settings/webhooks')).text).toContain('You own no team');
    const forged = await post(editor, '/settings/webhooks', { team: 'wh', url, events: 'diagram.created' });
    expect(forged.response.status).toBe(403);

    await post(owner, '/settings/webhooks', { team: 'wh', url, events: 'diagram.updated' });
    const id = /data-webhook="([0-9a-f-]{36})"/.exec(
      (await (await as(owner)).request('/settings/webhooks')).text,
    )?.[1];
    const stranger = await (await as(outsider)).request(`/settings/webhooks/${id}/deliveries?team=wh-far`);
    expect(stranger.response.status).toBe(404);
    expect(
      (await post(outsider, `/settings/webhooks/${id}/delete`, { team: 'wh-far' })).response.status,
    ).toBe(404);
    expect((await post(outsider, `/settings/webhooks/${id}/delete`, { team: 'wh' })).response.status).toBe(
      403,
    );
  });
});
