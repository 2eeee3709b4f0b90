// `dss webhook create|list|deliveries|redeliver|rotate-secret|delete` end to end: the operator CLI
// in-process against the running embedded system, acting as an owner of the team; a real receiver on
// 127.0.0.1 gets the diagram's creation.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestSystem, type TestSystem } from '@dss/system';
import { runCli } from '../src';

// biome-ignore lint/suspicious/noExplicitAny: output under test is read field by field
type Json = Record<string, any>;

describe('operator CLI: webhooks', () => {
  let system: TestSystem;
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end();
    });
  });
  let url: string;

  async function dss(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: {
        DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts,
        DSS_NOTIFICATIONS_GRPC_ADDR: system.grpc.notifications,
      },
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) as Json };
  }
  const asOwner = ['--team', 'hooks', '--email', 'own@hooks.test'];

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    system = await startTestSystem();
    for (const argv of [
      ['team', 'create', '--slug', 'hooks', '--name', 'Hooks', '--plan', 'team'],
      ['user', 'create', '--email', 'own@hooks.test', '--name', 'Own'],
      ['user', 'create', '--email', 'ed@hooks.test', '--name', 'Ed'],
      ['member', 'add', '--team', 'hooks', '--email', 'own@hooks.test', '--role', 'owner'],
      ['member', 'add', '--team', 'hooks', '--email', 'ed@hooks.test', '--role', 'editor'],
    ])
      expect((await dss(...argv)).code).toBe(0);
  });
  afterAll(async () => {
    await system?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('should create, list, log, redeliver, rotate and delete a webhook as an owner', async () => {
    const created = await dss(
      'webhook',
      'create',
      ...asOwner,
      '--url',
      url,
      '--events',
      'diagram.created',
      '--json',
    );
    expect(created.code).toBe(0);
    const webhook = created.json();
    expect(webhook.secret).toMatch(/^whsec_/);
    const listed = await dss('webhook', 'list', ...asOwner);
    expect(listed.stdout).toContain(`${webhook.id}  enabled  ${url}  diagram.created`);
    expect(listed.stdout).not.toContain('whsec_');

    const token = (
      await dss('token', 'create', '--team', 'hooks', '--email', 'own@hooks.test', '--write', '--json')
    ).json().token;
    const diagram = await fetch(`${system.apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Shop',
        schema: { strategy: 'merge', tables: [{ name: 'a', columns: [{ name: 'id', type: 'int' }] }] },
      }),
    });
    expect(diagram.status).toBe(201);
    let deliveries: Json[] = [];
    for (let tries = 0; deliveries[0]?.status !== 'succeeded' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = (await dss('webhook', 'deliveries', webhook.id, ...asOwner, '--json')).json().deliveries;
    }
    expect(deliveries[0]).toMatchObject({ event_type: 'diagram.created', status: 'succeeded' });
    const log = await dss('webhook', 'deliveries', webhook.id, ...asOwner);
    expect(log.stdout).toMatch(
      new RegExp(`^${deliveries[0].id}  diagram.created  succeeded  1 attempt\\(s\\)  200  \\d+ ms$`, 'm'),
    );
    expect((await dss('webhook', 'redeliver', webhook.id, deliveries[0].id, ...asOwner)).stdout).toBe(
      `delivery ${deliveries[0].id} queued again\n`,
    );
    for (let tries = 0; received < 2 && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toBe(2);
    expect((await dss('webhook', 'rotate-secret', webhook.id, ...asOwner)).stdout).toMatch(/^secret whsec_/);
    expect((await dss('webhook', 'delete', webhook.id, ...asOwner)).stdout).toBe(
      `deleted webhook ${webhook.id}\n`,
    );
    expect((await dss('webhook', 'list', ...asOwner)).stdout).toBe('no webhooks\n');
  });

  it('should refuse an editor, a private URL and an empty event list', async () => {
    const editor = await dss('webhook', 'list', '--team', 'hooks', '--email', 'ed@hooks.test');
    expect([editor.code, editor.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: forbidden: only an owner/),
    ]);
    const privateUrl = await dss(
      'webhook',
      'create',
      ...asOwner,
      '--url',
      'http://10.0.0.1/',
      '--events',
      'diagram.created',
    );
    expect([privateUrl.code, privateUrl.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: invalid_request: url resolves to 10\.0\.0\.1/),
    ]);
    const noEvents = await dss('webhook', 'create', ...asOwner, '--url', url, '--events', ',');
    expect(noEvents.code).toBe(2);
  });
});
