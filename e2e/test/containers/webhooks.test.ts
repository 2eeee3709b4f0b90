// Webhooks against the containers: the notifications service in its own container delivers to a real HTTP
// receiver on 127.0.0.1 (ci/containers-values.yaml allows it through DSS_WEBHOOK_ALLOW_HOSTS). An owner
// registers the endpoint through the gateway; proposal and diagram events from the other containers
// arrive signed as Standard Webhooks (verified with the `standardwebhooks` library); a 500 is retried with
// the same webhook-id; and the notifications container SIGKILLed while a delivery hangs loses nothing:
// after its restart every event arrives, deduplicated by webhook-id. Runs only from
// scripts/e2e-containers.sh (E2E_CONTAINERS_STACK); the notifications container is running again at the end.
import { eventually, WebhookReceiver } from '@dss/platform/testing';
import { Webhook } from 'standardwebhooks';
import {
  type ContainerStack,
  containerStack,
  docker,
  request,
  waitUntilReady,
} from '../../support/containers';
import { runId } from '../../support/diagrams';
import { dss, teamMemberToken } from '../../support/stack';

const EVENTS = ['diagram.created', 'proposal.created', 'proposal.commented', 'proposal.applied'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dataOf = (body: string) => (JSON.parse(body) as { data: Record<string, unknown> }).data;

describe('Webhooks against the containers', () => {
  let stack: ContainerStack;
  let receiver: WebhookReceiver;
  let owner: string;
  let ownerEmail: string;
  let secret: string;
  let webhookId: string;

  beforeAll(async () => {
    stack = containerStack();
    receiver = new WebhookReceiver();
    await receiver.start();
    const team = `webhooks-${runId()}`;
    ownerEmail = `webhooks-owner-${runId()}@containers.test`;
    owner = await teamMemberToken(stack, { team, email: ownerEmail, role: 'owner', write: true });
    const registered = await request(stack, 'POST', '/webhooks', owner, {
      url: receiver.url,
      events: EVENTS,
    });
    expect(registered.status).toBe(201);
    const webhook = dataOf(registered.body);
    secret = webhook.secret as string;
    webhookId = webhook.id as string;
    expect(secret).toMatch(/^whsec_/);
  }, 180_000);

  afterAll(async () => {
    await receiver?.stop();
  });

  /** A diagram and a proposal on it, commented on and applied: one event of each subscribed type. */
  async function conversation(name: string): Promise<{ diagram: string; proposal: string }> {
    const created = await request(stack, 'POST', '/diagrams', owner, {
      name,
      driver: 'pgsql',
      schema: { strategy: 'merge', tables: [{ name: 'items', columns: [{ name: 'id', type: 'bigint' }] }] },
    });
    expect(created.status).toBe(201);
    const diagram = dataOf(created.body).uuid as string;
    const proposed = await request(stack, 'POST', `/diagrams/${diagram}/proposals`, owner, {
      title: 'Add a price',
      message: 'For the webhook check.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'items', columns: [{ name: 'price', type: 'int' }] }],
      },
    });
    expect(proposed.status).toBe(201);
    const proposal = dataOf(proposed.body).uuid as string;
    const commented = await request(stack, 'POST', `/proposals/${proposal}/comments`, owner, {
      body: 'Looks right.',
    });
    expect(commented.status).toBe(201);
    const applied = await dss(stack, 'proposal', 'apply', proposal, '--email', ownerEmail);
    expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: '' });
    return { diagram, proposal };
  }

  /** The receiver's requests for one diagram, as parsed bodies with their headers. */
  const deliveriesOf = (diagram: string) =>
    receiver.received
      .map((request) => ({
        request,
        body: JSON.parse(request.body) as { type: string; data: Record<string, unknown> },
      }))
      .filter(({ body }) => body.data.diagram_uuid === diagram);

  it('should deliver every subscribed event signed so the library verifies it, retrying a 500 with the same webhook-id', async () => {
    let answered500: string | undefined;
    receiver.answer = (delivery) => {
      if (answered500) return 200;
      answered500 = String(delivery.headers['webhook-id']);
      return 500;
    };
    const { diagram } = await conversation(`Webhooks ${runId()}`);
    await eventually(async () => {
      const delivered = new Set(deliveriesOf(diagram).map(({ body }) => body.type));
      expect([...delivered].sort()).toEqual([...EVENTS].sort());
    }, 30_000);

    const received = deliveriesOf(diagram);
    const right = new Webhook(secret);
    const wrong = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    for (const { request } of received) {
      const headers = request.headers as Record<string, string>;
      expect(right.verify(request.body, headers)).toMatchObject({ data: { diagram_uuid: diagram } });
      expect(() => wrong.verify(request.body, headers)).toThrow();
    }
    // The first delivery was answered 500 and sent again with the same id; each other event came once.
    const ids = received.map(({ request }) => String(request.headers['webhook-id']));
    expect(ids.length).toBe(EVENTS.length + 1);
    expect(new Set(ids).size).toBe(EVENTS.length);
    expect(ids.filter((id) => id === answered500)).toHaveLength(2);
    // The delivery log through the gateway says so too.
    await eventually(async () => {
      await sleep(500);
      const log = await request(stack, 'GET', `/webhooks/${webhookId}/deliveries`, owner);
      expect(log.status).toBe(200);
      const retried = (
        JSON.parse(log.body) as { data: { status: string; attempts: { status_code: number }[] }[] }
      ).data.find((delivery) => delivery.attempts.length === 2);
      expect(retried).toMatchObject({
        status: 'succeeded',
        attempts: [{ status_code: 500 }, { status_code: 200 }],
      });
    }, 15_000);
  }, 240_000);

  it('should lose no event when the notifications container is SIGKILLed mid-delivery, delivering each again after its restart', async () => {
    const notifications = stack.components.notifications!;
    let hung = false;
    let killed = false;
    // The first delivery hangs until the sender dies; everything after the restart is answered 200.
    receiver.answer = () => {
      if (killed) return 200;
      hung = true;
      return 'hang';
    };
    const conversationDone = conversation(`Webhooks crash ${runId()}`);
    await eventually(async () => expect(hung).toBe(true), 30_000);
    await docker(stack, 'kill', '--signal', 'KILL', notifications.container);
    killed = true;
    const { diagram } = await conversationDone;
    await docker(stack, 'start', notifications.container);
    await waitUntilReady(notifications);

    await eventually(async () => {
      const delivered = new Set(deliveriesOf(diagram).map(({ body }) => body.type));
      expect([...delivered].sort()).toEqual([...EVENTS].sort());
    }, 60_000);
    const received = deliveriesOf(diagram);
    const right = new Webhook(secret);
    for (const { request } of received)
      expect(() => right.verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    // At least once: the hung delivery came again with the same webhook-id, so by id there is one of each.
    const byId = new Map(
      received.map(({ request, body }) => [String(request.headers['webhook-id']), body.type]),
    );
    expect([...byId.values()].sort()).toEqual([...EVENTS].sort());
    expect(received.length).toBeGreaterThan(byId.size);
  }, 300_000);
});
