// Sustained failure: an endpoint whose every attempt fails for the whole window (1 s here, 24 h by default)
// is disabled with a notice, its deliveries wait, and enabling it sends them.
import { randomUUID } from 'node:crypto';
import { eventually } from '@dss/platform/testing';
import { everyEvent, type Harness, ownerOf, publish, Receiver, startHarness } from './support/harness';

describe('Webhook endpoint failing for the whole window', () => {
  let harness: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    harness = await startHarness({ DSS_WEBHOOK_RETRY_WINDOW_SECONDS: '1', DSS_WEBHOOK_RETRY_BASE_MS: '100' });
    receiver = new Receiver();
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await harness.stop();
  });

  it('should be disabled with a notice, and deliver again once enabled', async () => {
    const teamId = randomUUID();
    const principal = ownerOf(teamId);
    const webhook = await harness.client.CreateWebhook({
      principal,
      url: receiver.url,
      events: ['proposal.created'],
    });
    let healthy = false;
    receiver.answer = () => (healthy ? 200 : 500);
    const created = everyEvent(teamId, randomUUID()).find((event) => event.type === 'proposal.created')!;
    await publish(harness.bus, created.subject, created.data);

    await eventually(async () => {
      const [listed] = (await harness.client.ListWebhooks({ principal })).webhooks;
      expect(listed.status).toBe('disabled');
      expect(listed.status_notice).toMatch(/^disabled at .*: every delivery attempt failed since /);
    }, 15_000);
    const attemptsWhenDisabled = receiver.received.length;
    expect(attemptsWhenDisabled).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.length).toBe(attemptsWhenDisabled);

    healthy = true;
    // Given up after the window: a manual redelivery on the enabled endpoint sends it once more.
    const enabled = await harness.client.EnableWebhook({ principal, id: webhook.id });
    expect(enabled.status).toBe('enabled');
    expect(enabled.status_notice).toBeUndefined();
    const [delivery] = (await harness.client.ListDeliveries({ principal, id: webhook.id })).deliveries;
    await harness.client.Redeliver({ principal, id: webhook.id, delivery_id: delivery.id });
    await eventually(async () => {
      const [after] = (await harness.client.ListDeliveries({ principal, id: webhook.id })).deliveries;
      expect(after.status).toBe('succeeded');
    }, 10_000);
  });
});
