// Webhooks through the client, against the embedded stack: an owner registers, reads the delivery log,
// redelivers, rotates and deletes; errors arrive as DssApiError with the spec's codes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDssClient, type DssClient, DssApiError } from '../src';
import { shopPatch, startTestStack, type TestStack } from './support/test-stack';

describe('DssClient webhooks', () => {
  let stack: TestStack;
  let owner: DssClient;
  let editor: DssClient;
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  let url: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    stack = await startTestStack();
    const member = await stack.member({ team: 'client-hooks', role: 'owner', write: true });
    owner = createDssClient({ baseUrl: stack.apiUrl, token: member.token });
    const other = await stack.member({ team: 'client-hooks', role: 'editor', write: true });
    editor = createDssClient({ baseUrl: stack.apiUrl, token: other.token });
  });
  afterAll(async () => {
    await stack.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('should register, log, redeliver, rotate and delete a webhook', async () => {
    const webhook = await owner.createWebhook({ url, events: ['diagram.created'] });
    expect(webhook.secret).toMatch(/^whsec_/);
    expect((await owner.listWebhooks()).map((listed) => listed.id)).toEqual([webhook.id]);
    await owner.createDiagram({ name: 'Shop', driver: 'pgsql', schema: shopPatch() });
    let deliveries = await owner.listWebhookDeliveries(webhook.id);
    for (let tries = 0; deliveries[0]?.status !== 'succeeded' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = await owner.listWebhookDeliveries(webhook.id);
    }
    expect(deliveries[0]).toMatchObject({ event_type: 'diagram.created', status: 'succeeded' });
    expect((await owner.redeliverWebhook(webhook.id, deliveries[0].id)).status).toBe('pending');
    const rotated = await owner.rotateWebhookSecret(webhook.id);
    expect(rotated.secret).not.toBe(webhook.secret);
    expect((await owner.enableWebhook(webhook.id)).status).toBe('enabled');
    await owner.deleteWebhook(webhook.id);
    expect(await owner.listWebhooks()).toEqual([]);
    expect(received).toBeGreaterThanOrEqual(1);
  });

  it('should raise forbidden for an editor and not_found for an unknown webhook', async () => {
    await expect(editor.listWebhooks()).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    const missing = owner.deleteWebhook('5b0c8f0e-6d1e-4a55-9a3c-0f5b1d7e2a11');
    await expect(missing).rejects.toBeInstanceOf(DssApiError);
    await expect(missing).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });
});
