// At-least-once across a crash: the notifications service is SIGKILLed while a receiver holds a delivery
// open, events arrive while it is down, and a new process delivers everything (the held one again, with the
// same webhook-id, so the receiver deduplicates).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eventually, testNatsUrl } from '@dss/platform/testing';
import { everyEvent, type Harness, ownerOf, publish, Receiver, startHarness } from './support/harness';

function startProcess(harness: Harness): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, 'support/service-process.js')], {
    env: {
      ...process.env,
      ...harness.env,
      NATS_URL: testNatsUrl(),
      TEST_NATS_NAMESPACE: harness.namespace,
      DSS_NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`service process exited with ${code}`)));
  });
}

describe('Notifications service killed mid-delivery', () => {
  let harness: Harness;
  let receiver: Receiver;
  let child: ChildProcess | null = null;

  beforeAll(async () => {
    harness = await startHarness();
    receiver = new Receiver();
    await receiver.start();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await receiver.stop();
    await harness.stop();
  });

  it('should lose nothing: every event arrives afterwards, repeats carry the same webhook-id', async () => {
    const teamId = randomUUID();
    await harness.client.CreateWebhook({
      principal: ownerOf(teamId),
      url: receiver.url,
      events: ['diagram.created', 'diagram.updated', 'proposal.created', 'proposal.applied'],
    });
    // Only the process under test sends from now on: the harness's own service stops (its consumers too).
    await harness.stopService();
    child = await startProcess(harness);
    let hold = true;
    receiver.answer = () => (hold ? 'hang' : 200);
    const events = everyEvent(teamId, randomUUID()).filter((event) =>
      ['diagram.created', 'diagram.updated', 'proposal.created', 'proposal.applied'].includes(event.type),
    );
    const [first, ...rest] = events;
    await publish(harness.bus, first.subject, first.data);
    await eventually(async () => expect(receiver.received).toHaveLength(1), 10_000);

    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    // Published while no notifications process runs: the durable consumers keep them.
    for (const event of rest) await publish(harness.bus, event.subject, event.data);
    hold = false;
    child = await startProcess(harness);

    // The held delivery comes back once its lease (15 s) runs out.
    await eventually(async () => {
      const types = new Set(receiver.events().map((body) => body.type));
      expect(types).toEqual(new Set(events.map((event) => event.type)));
    }, 40_000);
    const byId = new Map<string, string>();
    for (const request of receiver.received) {
      const id = String(request.headers['webhook-id']);
      const type = JSON.parse(request.body).type;
      expect(byId.get(id) ?? type).toBe(type);
      byId.set(id, type);
    }
    expect(byId.size).toBe(events.length);
    expect(
      receiver.received.filter((request) => JSON.parse(request.body).type === first.type).length,
    ).toBeGreaterThanOrEqual(2);
  });
});
