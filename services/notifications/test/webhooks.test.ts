import { randomUUID } from 'node:crypto';
import { ServiceError } from '@dss/platform';
import { eventually } from '@dss/platform/testing';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '../src/events';
import { everyEvent, type Harness, ownerOf, publish, Receiver, startHarness } from './support/harness';

describe('Webhooks', () => {
  let harness: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  async function register(teamId: string, events: readonly string[] = WEBHOOK_EVENT_TYPES) {
    return harness.client.CreateWebhook({
      principal: ownerOf(teamId),
      url: receiver.url,
      events: [...events],
    });
  }

  async function codeOf(call: Promise<unknown>): Promise<string> {
    try {
      await call;
      return 'ok';
    } catch (error) {
      return error instanceof ServiceError ? error.code : String(error);
    }
  }

  it('should deliver every event type once, signed so the library verifies it and a wrong secret fails', async () => {
    const teamId = randomUUID();
    const diagram = randomUUID();
    const webhook = await register(teamId);
    expect(webhook.secret).toMatch(/^whsec_/);
    const events = everyEvent(teamId, diagram);
    for (const event of events) await publish(harness.bus, event.subject, event.data);
    // Another team's events reach no endpoint of this team.
    for (const event of everyEvent(randomUUID(), diagram))
      await publish(harness.bus, event.subject, event.data);

    await eventually(async () => expect(receiver.received).toHaveLength(events.length), 15_000);
    // In order of occurrence within each source (the diagrams' events, the proposals' events).
    const types = receiver.events().map((body) => body.type);
    for (const prefix of ['proposal.', 'diagram.'])
      expect(types.filter((type) => type.startsWith(prefix))).toEqual(
        events.map((event) => event.type).filter((type) => type.startsWith(prefix)),
      );
    expect([...types].sort()).toEqual(events.map((event) => event.type).sort());
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    const right = new Webhook(webhook.secret!);
    const wrong = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    for (const request of receiver.received) {
      const headers = request.headers as Record<string, string>;
      expect(right.verify(request.body, headers)).toMatchObject({ id: headers['webhook-id'] });
      expect(() => wrong.verify(request.body, headers)).toThrow();
    }
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(
      events.length,
    );
    // Ids and links, never names: the payload of a proposal event.
    const proposal = receiver.events().find((body) => body.type === 'proposal.revised')!;
    expect(proposal.data).toEqual({
      team_id: teamId,
      diagram_uuid: diagram,
      proposal_uuid: expect.any(String),
      state: 'pending',
      revision: 2,
      links: {
        diagram: `https://app.example.test/diagrams/${diagram}`,
        review: `https://app.example.test/review/${proposal.data.proposal_uuid}`,
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(events.length);
  });

  it('should send only the event types an endpoint subscribed to', async () => {
    const teamId = randomUUID();
    await register(teamId, ['proposal.applied']);
    for (const event of everyEvent(teamId, randomUUID()))
      await publish(harness.bus, event.subject, event.data);
    await eventually(async () => expect(receiver.received).toHaveLength(1), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.events().map((body) => body.type)).toEqual(['proposal.applied']);
  });

  it('should retry a delivery the receiver answered 500, with the same webhook-id, and log both attempts', async () => {
    const teamId = randomUUID();
    const webhook = await register(teamId);
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? 500 : 200);
    const [event] = everyEvent(teamId, randomUUID());
    await publish(harness.bus, event.subject, event.data);
    await eventually(async () => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.received[0].headers['webhook-id']).toBe(receiver.received[1].headers['webhook-id']);
    const principal = ownerOf(teamId);
    await eventually(async () => {
      const { deliveries } = await harness.client.ListDeliveries({ principal, id: webhook.id });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 2 });
      expect(deliveries[0].attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);
      expect(deliveries[0].attempts[0].response_excerpt).toBe('answered 500');
    });
    const text = await harness.metricsText();
    const count = (outcome: string) =>
      Number(
        new RegExp(`dss_webhook_deliveries_total\\{[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`).exec(text)?.[1],
      );
    expect(count('failed')).toBeGreaterThanOrEqual(1);
    expect(count('succeeded')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^dss_webhook_delivery_lag_seconds\{[^}]*\} \d/m);
    expect(text).toMatch(/^dss_webhook_delivery_duration_seconds_count\{[^}]*\} [1-9]/m);
  });

  it('should deliver everything in order of occurrence per diagram after the receiver was down a while', async () => {
    const teamId = randomUUID();
    await register(teamId);
    let down = true;
    receiver.answer = () => (down ? 503 : 200);
    const diagrams = [randomUUID(), randomUUID()];
    const sent: string[] = [];
    for (let round = 0; round < 5; round++)
      for (const diagram of diagrams) {
        const data = {
          diagram_uuid: diagram,
          team_id: teamId,
          version_uuid: randomUUID(),
          source: 'apply',
          version_number: round,
        };
        sent.push(`${diagram}:${round}`);
        await publish(harness.bus, 'diagrams.changed', data);
      }
    await new Promise((resolve) => setTimeout(resolve, 800));
    down = false;
    await eventually(async () => {
      const delivered = new Set(
        receiver.events().map((body) => `${body.data.diagram_uuid}:${body.data.version_number}`),
      );
      expect(delivered).toEqual(new Set(sent));
    }, 30_000);
    // Per diagram, each event reached the receiver only after every earlier one (retries repeat the head).
    for (const diagram of diagrams) {
      const rounds = receiver
        .events()
        .filter((body) => body.data.diagram_uuid === diagram)
        .map((body) => body.data.version_number as number);
      expect(rounds).toEqual([...rounds].sort((a, b) => a - b));
      expect(new Set(rounds)).toEqual(new Set([0, 1, 2, 3, 4]));
    }
  });

  it('should refuse private targets at registration and at delivery', async () => {
    const teamId = randomUUID();
    const principal = ownerOf(teamId);
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hook',
      'http://[fd00::1]/hook',
      'http://192.168.1.10/hook',
      'ftp://example.com/hook',
      'not a url',
    ])
      expect(
        await codeOf(harness.client.CreateWebhook({ principal, url, events: ['diagram.created'] })),
      ).toBe('invalid_request');
    const webhook = await register(teamId);
    // The endpoint's host now points into a private range (what a DNS change would do).
    const pool = new Pool({ connectionString: harness.database.url });
    await pool.query('UPDATE notifications.endpoints SET url = $1 WHERE id = $2', [
      'http://10.0.0.7/hook',
      webhook.id,
    ]);
    await pool.end();
    const [event] = everyEvent(teamId, randomUUID());
    await publish(harness.bus, event.subject, event.data);
    await eventually(async () => {
      const { deliveries } = await harness.client.ListDeliveries({ principal, id: webhook.id });
      expect(deliveries[0]?.attempts[0]?.error).toMatch(/^target refused: resolves to 10\.0\.0\.7/);
    }, 10_000);
    expect(receiver.received).toHaveLength(0);
  });

  it('should answer not_found for every call on another team’s webhook, and forbidden to a non-owner', async () => {
    const webhook = await register(randomUUID());
    const stranger = ownerOf(randomUUID());
    const id = webhook.id;
    expect(await codeOf(harness.client.ListDeliveries({ principal: stranger, id }))).toBe('not_found');
    expect(await codeOf(harness.client.DeleteWebhook({ principal: stranger, id }))).toBe('not_found');
    expect(await codeOf(harness.client.RotateWebhookSecret({ principal: stranger, id }))).toBe('not_found');
    expect(await codeOf(harness.client.EnableWebhook({ principal: stranger, id }))).toBe('not_found');
    expect(
      await codeOf(harness.client.Redeliver({ principal: stranger, id, delivery_id: randomUUID() })),
    ).toBe('not_found');
    expect((await harness.client.ListWebhooks({ principal: stranger })).webhooks).toEqual([]);
    expect(await codeOf(harness.client.ListWebhooks({ principal: ownerOf(randomUUID(), 'editor') }))).toBe(
      'forbidden',
    );
  });

  it('should sign with both secrets during a rotation’s overlap, and redeliver on request', async () => {
    const teamId = randomUUID();
    const principal = ownerOf(teamId);
    const webhook = await register(teamId);
    const rotated = await harness.client.RotateWebhookSecret({ principal, id: webhook.id });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    expect(rotated.previous_secret_expires_at).toBeDefined();
    const [event] = everyEvent(teamId, randomUUID());
    await publish(harness.bus, event.subject, event.data);
    await eventually(async () => expect(receiver.received).toHaveLength(1), 10_000);
    const [request] = receiver.received;
    const headers = request.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(webhook.secret!).verify(request.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret!).verify(request.body, headers)).not.toThrow();

    const delivery = headers['webhook-id'];
    const redelivered = await harness.client.Redeliver({ principal, id: webhook.id, delivery_id: delivery });
    expect(redelivered.status).toBe('pending');
    await eventually(async () => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.received[1].headers['webhook-id']).toBe(delivery);
    await eventually(async () => {
      const { deliveries } = await harness.client.ListDeliveries({ principal, id: webhook.id });
      expect(deliveries[0].attempts.map((attempt) => attempt.manual)).toEqual([false, true]);
    });
  });

  it('should keep a redelivery asked for while the attempt it repeats is still in flight', async () => {
    const teamId = randomUUID();
    const principal = ownerOf(teamId);
    const webhook = await register(teamId);
    // The first request is answered only after the redelivery was asked for, so the attempt ends after it.
    let release: (status: number) => void = () => {};
    const held = new Promise<number>((resolve) => {
      release = resolve;
    });
    receiver.answer = () => (receiver.received.length === 1 ? held : 200);
    const [event] = everyEvent(teamId, randomUUID());
    await publish(harness.bus, event.subject, event.data);
    await eventually(async () => expect(receiver.received).toHaveLength(1), 10_000);
    const delivery = receiver.received[0].headers['webhook-id'] as string;
    const redelivered = await harness.client.Redeliver({ principal, id: webhook.id, delivery_id: delivery });
    expect(redelivered.status).toBe('pending');
    release(200);

    await eventually(async () => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.received[1].headers['webhook-id']).toBe(delivery);
    await eventually(async () => {
      const { deliveries } = await harness.client.ListDeliveries({ principal, id: webhook.id });
      expect(deliveries[0].status).toBe('succeeded');
      expect(deliveries[0].attempts.map((attempt) => attempt.manual)).toEqual([false, true]);
    });
  });
});
