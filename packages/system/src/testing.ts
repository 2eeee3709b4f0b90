// Starts the whole embedded system on free ports with a fresh test database (or the one `extraEnv`'s
// DATABASE_URL names, which the caller owns), for tests of the CLI, the system itself and the e2e suite.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@dss/platform';
import { createTestDatabase } from '@dss/platform/testing';
import { startSystem } from './system';

export async function startTestSystem(
  extraEnv: Record<string, string> = {},
  options: { withoutImporter?: boolean } = {},
) {
  const database = extraEnv.DATABASE_URL ? null : await createTestDatabase();
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: database?.url,
    DSS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dss-data-')),
    DSS_HTTP_HOST: '127.0.0.1',
    DSS_HTTP_PORT: '0',
    DSS_WEB_HOST: '127.0.0.1',
    DSS_WEB_PORT: '0',
    DSS_ADMIN_PORT: '0',
    DSS_ACCOUNTS_GRPC_ADDR: '127.0.0.1:0',
    DSS_CATALOG_GRPC_ADDR: '127.0.0.1:0',
    DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:0',
    DSS_PROPOSALS_GRPC_ADDR: '127.0.0.1:0',
    DSS_IMPORTER_GRPC_ADDR: '127.0.0.1:0',
    DSS_NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:0',
    // Webhook receivers of tests listen on loopback, and retries come quickly.
    DSS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    DSS_WEBHOOK_RETRY_BASE_MS: '100',
    DSS_WEBHOOK_POLL_INTERVAL_MS: '100',
    DSS_RATE_LIMIT_IP_PER_MIN: '100000',
    DSS_RATE_LIMIT_READ_PER_MIN: '100000',
    DSS_RATE_LIMIT_SCHEMA_PER_MIN: '100000',
    DSS_RATE_LIMIT_WRITE_PER_MIN: '100000',
    // Tests convert small scripts: no conversion worker is started (and no parser loaded) until one is needed.
    DSS_IMPORT_WARM_UP: 'false',
    // Nor is the web app's drawing thread started and warmed (one to two seconds of a core) in every test system.
    DSS_WEB_DRAWING_WARM_UP: 'false',
    // The first import of a file loads its dialect's parser; on a loaded 2-core CI machine that alone can
    // approach the product's 30 s limit, which is not what these tests are about.
    DSS_IMPORT_TIMEOUT_MS: '120000',
    ...extraEnv,
  };
  // Silent unless DSS_TEST_LOG_LEVEL asks for the services' logs (to see why a test saw a 5xx).
  const system = await startSystem({
    env,
    logger: createLogger('dss', { level: (process.env.DSS_TEST_LOG_LEVEL as 'warn') ?? 'silent' }),
    withoutImporter: options.withoutImporter,
  });
  return {
    ...system,
    env,
    async stop() {
      await system.stop();
      await database?.drop();
    },
  };
}

export type TestSystem = Awaited<ReturnType<typeof startTestSystem>>;
