// A notifications service for tests: its own database, a real NATS bus in a random namespace (the events
// are published on it as the outboxes publish them), a gRPC client, and a webhook receiver on 127.0.0.1
// whose answers each test decides.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  deleteNatsNamespace,
  type EventBus,
  type ServiceClient,
} from '@dss/platform';
import { createTestDatabase, type TestDatabase, testNatsUrl } from '@dss/platform/testing';
import { readNotificationsConfig } from '../../src/config';
import { type NotificationsService, startNotificationsService } from '../../src/server';

export const APP_URL = 'https://app.example.test';

export { type ReceivedRequest as Received, WebhookReceiver as Receiver } from '@dss/platform/testing';

export interface Harness {
  database: TestDatabase;
  bus: EventBus;
  namespace: string;
  env: Record<string, string>;
  service: NotificationsService | null;
  /** The Prometheus text of the running service's metrics. */
  metricsText(): Promise<string>;
  client: ServiceClient<'Notifications'>;
  start(): Promise<void>;
  stopService(): Promise<void>;
  stop(): Promise<void>;
}

export function ownerOf(teamId: string, role = 'owner') {
  return { team_id: teamId, role, token_id: randomUUID(), user_id: randomUUID(), write: true };
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const logger = createLogger('notifications', { level: 'silent' });
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const bus = await createEventBus({ natsUrl: testNatsUrl(), logger, namespace, name: `test-${namespace}` });
  const keysDir = mkdtempSync(path.join(os.tmpdir(), 'dss-notifications-keys-'));
  const fullEnv: Record<string, string> = {
    DATABASE_URL: database.url,
    DSS_NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:0',
    DSS_APP_URL: APP_URL,
    DSS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    DSS_WEBHOOK_RETRY_BASE_MS: '50',
    DSS_WEBHOOK_POLL_INTERVAL_MS: '50',
    // Generated on the first start, as in embedded mode.
    DSS_WEBHOOK_SECRET_KEYS_FILE: path.join(keysDir, 'webhook-secret-keys'),
    ...env,
  };
  let client: ServiceClient<'Notifications'> | null = null;
  let metrics = createMetrics('notifications', { processMetrics: false });
  const harness: Harness = {
    database,
    bus,
    namespace,
    env: fullEnv,
    service: null,
    metricsText: () => metrics.registry.metrics(),
    get client() {
      if (!client) throw new Error('service not started');
      return client;
    },
    async start() {
      const config = readNotificationsConfig(fullEnv);
      metrics = createMetrics('notifications', { processMetrics: false });
      harness.service = await startNotificationsService({ config, logger, metrics, bus });
      client?.close();
      client = createServiceClient('Notifications', `127.0.0.1:${harness.service.grpc.port}`);
    },
    async stopService() {
      await harness.service?.stop();
      harness.service = null;
    },
    async stop() {
      client?.close();
      await harness.stopService();
      await bus.close();
      await deleteNatsNamespace(testNatsUrl(), namespace).catch(() => undefined);
      await database.drop();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
  await harness.start();
  return harness;
}

let sequence = 0;

/** Publishes an event the way an outbox relay does: with a unique message id. */
export async function publish(bus: EventBus, subject: string, data: Record<string, unknown>): Promise<void> {
  sequence += 1;
  await bus.publish(subject, data, { messageId: `${subject}-${Date.now()}-${sequence}` });
}

/** One bus event for each webhook event type, for `teamId` and `diagramUuid`. */
export function everyEvent(teamId: string, diagramUuid: string) {
  const proposal = randomUUID();
  const at = new Date().toISOString();
  const proposalEvent = (transition: string, extra: Record<string, unknown> = {}) => ({
    subject: 'proposals.changed',
    data: {
      proposal_uuid: proposal,
      diagram_uuid: diagramUuid,
      team_id: teamId,
      transition,
      state: 'pending',
      at,
      ...extra,
    },
  });
  const base = { diagram_uuid: diagramUuid, team_id: teamId, updated_at: at };
  return [
    {
      type: 'diagram.created',
      subject: 'diagrams.changed',
      data: { ...base, version_uuid: randomUUID(), source: 'create' },
    },
    { type: 'proposal.created', ...proposalEvent('created') },
    { type: 'proposal.commented', ...proposalEvent('commented', { comment_id: randomUUID() }) },
    {
      type: 'proposal.changes_requested',
      ...proposalEvent('changes_requested', { comment_id: randomUUID() }),
    },
    { type: 'proposal.revised', ...proposalEvent('revised', { revision: 2 }) },
    { type: 'proposal.applied', ...proposalEvent('applied') },
    {
      type: 'diagram.updated',
      subject: 'diagrams.changed',
      data: { ...base, version_uuid: randomUUID(), source: 'apply', version_number: 2 },
    },
    { type: 'proposal.declined', ...proposalEvent('declined') },
    { type: 'proposal.expired', ...proposalEvent('expired') },
    {
      type: 'import.finished',
      subject: 'diagrams.import.finished',
      data: { ...base, job_id: randomUUID(), status: 'ready' },
    },
    {
      type: 'import.failed',
      subject: 'diagrams.import.finished',
      data: { ...base, job_id: randomUUID(), status: 'failed' },
    },
    {
      type: 'diagram.deleted',
      subject: 'diagrams.deleted',
      data: { diagram_uuid: diagramUuid, team_id: teamId, user_id: randomUUID(), deleted_at: at },
    },
  ];
}
