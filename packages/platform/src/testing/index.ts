// Test infrastructure shared by every workspace's integration tests. The URLs come from the environment
// that `npm test` (scripts/test.js) prepares; the defaults are the local ports of a developer machine.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export { eventually } from './eventually';
export { freePort } from './free-port';
export { grpcHealthStatus } from './grpc-health';
export { memoForRun } from './run-memo';
export { findNatsServer, OwnNats, waitFor } from './own-nats';
export { type ReceivedRequest, WebhookReceiver } from './webhook-receiver';

export function testDatabaseUrl(): string {
  return process.env.DSS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function testRedisUrl(): string {
  return process.env.DSS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

export function testNatsUrl(): string {
  return process.env.DSS_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates a fresh, empty database so each test file runs isolated from every other. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `dss_test_${randomBytes(6).toString('hex')}`;
  const adminUrl = testDatabaseUrl();
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await withAdminClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

async function withAdminClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
