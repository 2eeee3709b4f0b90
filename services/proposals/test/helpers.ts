// A proposals service for tests: the embedded system (accounts, diagrams, gateway on free ports, fresh
// database) for the services it calls, plus a proposals service of our own with its own database, a real
// NATS bus in a random namespace and the lifetime and sweep interval the test needs.
import { randomBytes } from 'node:crypto';
import {
  type BusMessage,
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  deleteNatsNamespace,
  type EventBus,
  type Metrics,
  type ServiceClient,
  ServiceError,
} from '@dss/platform';
import { createTestDatabase, type TestDatabase, testNatsUrl } from '@dss/platform/testing';
import { startTestSystem, type TeamRole, TestPeople, type TestSystem, twoTableShopPatch } from '@dss/system';
import { readProposalsConfig } from '../src/config';
import { type ProposalsService, startProposalsService } from '../src/server';

export const APP_URL = 'https://app.example.test';

export interface ProposalsHarness {
  database: TestDatabase;
  bus: EventBus;
  service: ProposalsService;
  client: ServiceClient<'Proposals'>;
  events: BusMessage<Record<string, unknown>>[];
  metrics: Metrics;
  stop(): Promise<void>;
}

/** A proposals service against `system`'s accounts and diagrams; every proposals.changed event is kept. */
export async function startProposalsHarness(
  system: TestSystem,
  env: Record<string, string> = {},
): Promise<ProposalsHarness> {
  const database = await createTestDatabase();
  const logger = createLogger('proposals', { level: 'silent' });
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const bus = await createEventBus({ natsUrl: testNatsUrl(), logger, namespace, name: `test-${namespace}` });
  const events: BusMessage<Record<string, unknown>>[] = [];
  await bus.subscribe('proposals.changed', async (message) => {
    events.push(message as BusMessage<Record<string, unknown>>);
  });
  const config = readProposalsConfig({
    DATABASE_URL: database.url,
    DSS_PROPOSALS_GRPC_ADDR: '127.0.0.1:0',
    DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts,
    DSS_DIAGRAMS_GRPC_ADDR: system.grpc.diagrams,
    DSS_APP_URL: APP_URL,
    ...env,
  });
  const metrics = createMetrics('proposals', { processMetrics: false });
  const service = await startProposalsService({ config, logger, metrics, bus });
  const client = createServiceClient('Proposals', `127.0.0.1:${service.grpc.port}`);
  return {
    database,
    bus,
    service,
    client,
    events,
    metrics,
    async stop() {
      client.close();
      await service.stop();
      await bus.close();
      await deleteNatsNamespace(testNatsUrl(), namespace).catch(() => undefined);
      await database.drop();
    },
  };
}

export type Principal = Awaited<ReturnType<ServiceClient<'Accounts'>['Authenticate']>>;

export interface Member {
  email: string;
  userId: string;
  principal: Principal;
}

/** A member of the team with a write token, and the principal the gateway would resolve from that token. */
export async function memberWithPrincipal(people: TestPeople, team: string, role: TeamRole): Promise<Member> {
  const member = await people.member({ team, role, write: true });
  const principal = await people.accounts.Authenticate({ token: member.token });
  return { email: member.email, userId: member.userId, principal };
}

/** A diagram of the principal's team, created through diagrams; returns its uuid. */
export async function createDiagram(
  system: TestSystem,
  principal: Principal,
  patch: unknown = twoTableShopPatch(),
) {
  const diagrams = createServiceClient('Diagrams', system.grpc.diagrams);
  try {
    const created = await diagrams.CreateDiagram({
      principal,
      name: 'Shop',
      driver: 'pgsql',
      schema_json: JSON.stringify(patch),
    });
    return created.diagram!.uuid;
  } finally {
    diagrams.close();
  }
}

/** A proposal patch: one new table and a column on an existing one (names the tests look for). */
export function addPatch(table = 'invoices_secret_table') {
  return {
    strategy: 'additive',
    tables: [
      { name: table, columns: [{ name: 'hidden_column_name', type: 'bigint', is_primary_key: true }] },
      { name: 'orders', columns: [{ name: 'status_secret_col', type: 'varchar(20)' }] },
    ],
  };
}

/** Resolves to the ServiceError a call failed with (fails the test when the call succeeds). */
export async function failureOf(call: Promise<unknown>): Promise<ServiceError> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(outcome)}`);
  return outcome;
}

export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export { startTestSystem, TestPeople, type TestSystem };
