// Webhooks through a real gateway in front of the embedded system (notifications on the in-process bus):
// an owner registers an endpoint over REST, a real change of a diagram reaches the receiver on 127.0.0.1
// signed as Standard Webhooks, the delivery log and redelivery work, and non-owners, read-only tokens and
// other teams get the spec's errors. Every response is checked against the published OpenAPI description.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';
import { Webhook } from 'standardwebhooks';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

describe('Webhook routes (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let owner: string;
  let ownerReadOnly: string;
  let editor: string;
  let outsider: string;
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  let receiverUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    owner = (await people.member({ team: 'hooks', role: 'owner', write: true })).token;
    ownerReadOnly = (await people.member({ team: 'hooks', role: 'owner' })).token;
    editor = (await people.member({ team: 'hooks', role: 'editor', write: true })).token;
    outsider = (await people.member({ team: 'elsewhere', role: 'owner', write: true })).token;
  });
  afterAll(async () => {
    people?.close();
    await system?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  async function call(bearer: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.clone().text();
    const json =
      (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    return response;
  }
  const dataOf = async (response: Response) => ((await response.json()) as Json).data;
  async function expectError(response: Response, status: number, code: string) {
    expect([response.status, ((await response.json()) as Json).error.code]).toEqual([status, code]);
  }
  async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  it('should deliver a real diagram creation to an owner’s endpoint, signed, and log and redeliver it', async () => {
    const created = await call(owner, 'POST', '/webhooks', { url: receiverUrl, events: ['diagram.created'] });
    expect(created.status).toBe(201);
    const webhook = await dataOf(created);
    expect(webhook).toMatchObject({ url: receiverUrl, events: ['diagram.created'], status: 'enabled' });
    expect(webhook.secret).toMatch(/^whsec_/);
    const listed = await dataOf(await call(owner, 'GET', '/webhooks'));
    expect(listed).toEqual([{ ...webhook, secret: undefined }].map(({ secret: _s, ...rest }) => rest));

    const diagram = await dataOf(
      await call(owner, 'POST', '/diagrams', {
        name: 'Secret name',
        driver: 'pgsql',
        schema: {
          strategy: 'merge',
          tables: [{ name: 'payroll', columns: [{ name: 'id', type: 'bigint' }] }],
        },
      }),
    );
    await eventually(() => expect(received).toHaveLength(1));
    const [request] = received;
    const body = new Webhook(webhook.secret).verify(
      request.body,
      request.headers as Record<string, string>,
    ) as Json;
    expect(body).toMatchObject({ type: 'diagram.created', data: { diagram_uuid: diagram.uuid } });
    expect(request.body).not.toMatch(/Secret name|payroll/);

    // The sender logs the attempt after the receiver answered, so the log may lag the request a moment.
    let log: Json[] = [];
    await eventually(async () => {
      log = await dataOf(await call(owner, 'GET', `/webhooks/${webhook.id}/deliveries`));
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        id: request.headers['webhook-id'],
        status: 'succeeded',
        attempt_count: 1,
      });
    });
    expect(log[0].attempts[0]).toMatchObject({ status_code: 200, response_excerpt: 'ok', manual: false });
    const again = await call(owner, 'POST', `/webhooks/${webhook.id}/deliveries/${log[0].id}/redeliver`);
    expect(again.status).toBe(202);
    await eventually(() => expect(received).toHaveLength(2));
    expect(received[1].headers['webhook-id']).toBe(request.headers['webhook-id']);

    const rotated = await dataOf(await call(owner, 'POST', `/webhooks/${webhook.id}/rotate-secret`));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    expect((await call(owner, 'DELETE', `/webhooks/${webhook.id}`)).status).toBe(204);
    await expectError(await call(owner, 'GET', `/webhooks/${webhook.id}/deliveries`), 404, 'not_found');
  });

  it('should refuse private targets, unknown event types and bad bodies with 422', async () => {
    for (const url of [
      'http://10.0.0.1/hook',
      'http://169.254.169.254/',
      'http://[::1]/',
      'file:///etc/passwd',
    ])
      await expectError(
        await call(owner, 'POST', '/webhooks', { url, events: ['diagram.created'] }),
        422,
        'invalid_request',
      );
    await expectError(
      await call(owner, 'POST', '/webhooks', { url: receiverUrl, events: ['diagram.exploded'] }),
      422,
      'invalid_request',
    );
    await expectError(
      await call(owner, 'POST', '/webhooks', { url: receiverUrl, events: [] }),
      422,
      'invalid_request',
    );
    await expectError(await call(owner, 'POST', '/webhooks', { url: receiverUrl }), 422, 'invalid_request');
    await expectError(
      await call(owner, 'POST', '/webhooks', { url: 7, events: ['diagram.created'] }),
      422,
      'invalid_request',
    );
  });

  it('should answer 403 to editors and read-only tokens, and 404 to another team on every webhook path', async () => {
    await expectError(await call(editor, 'GET', '/webhooks'), 403, 'forbidden');
    await expectError(
      await call(editor, 'POST', '/webhooks', { url: receiverUrl, events: ['diagram.created'] }),
      403,
      'forbidden',
    );
    await expectError(
      await call(ownerReadOnly, 'POST', '/webhooks', { url: receiverUrl, events: ['diagram.created'] }),
      403,
      'insufficient_scope',
    );
    const webhook = await dataOf(
      await call(owner, 'POST', '/webhooks', { url: receiverUrl, events: ['diagram.updated'] }),
    );
    const id = webhook.id;
    expect(await dataOf(await call(outsider, 'GET', '/webhooks'))).toEqual([]);
    await expectError(await call(outsider, 'GET', `/webhooks/${id}/deliveries`), 404, 'not_found');
    await expectError(await call(outsider, 'DELETE', `/webhooks/${id}`), 404, 'not_found');
    await expectError(await call(outsider, 'POST', `/webhooks/${id}/rotate-secret`), 404, 'not_found');
    await expectError(await call(outsider, 'POST', `/webhooks/${id}/enable`), 404, 'not_found');
    await expectError(
      await call(outsider, 'POST', `/webhooks/${id}/deliveries/${id}/redeliver`),
      404,
      'not_found',
    );
    await expectError(await call(owner, 'DELETE', '/webhooks/not-a-uuid'), 404, 'not_found');
  });
});
