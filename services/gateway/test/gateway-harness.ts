// A real gateway in front of a real accounts service (real PostgreSQL, real gRPC), for tests of the
// gateway's own behaviour. The routes under test are passed in by each test file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readAccountsConfig, startAccountsService } from '@dss/accounts';
import { createEventBus, createLogger, createMetrics, createServiceClient } from '@dss/platform';
import { createTestDatabase } from '@dss/platform/testing';
import type { RouteSpec } from '../src/app';
import { readGatewayConfig } from '../src/config';
import { startGateway } from '../src/server';

export async function startGatewayHarness(options: { routes: RouteSpec[]; env?: Record<string, string> }) {
  const database = await createTestDatabase();
  const logger = createLogger('test', { level: 'silent' });
  const bus = await createEventBus({ logger });
  const keyDir = mkdtempSync(path.join(tmpdir(), 'dss-keys-'));
  const accounts = await startAccountsService({
    config: readAccountsConfig({
      DATABASE_URL: database.url,
      DSS_ACCOUNTS_GRPC_ADDR: '127.0.0.1:0',
      DSS_TOKEN_SIGNING_KEY_FILE: path.join(keyDir, 'signing.pem'),
    }),
    logger,
    metrics: createMetrics('accounts'),
    bus,
  });
  const accountsAddress = `127.0.0.1:${accounts.grpc.port}`;
  const gateway = await startGateway({
    config: readGatewayConfig({
      DSS_HTTP_PORT: '0',
      DSS_HTTP_HOST: '127.0.0.1',
      DSS_ACCOUNTS_GRPC_ADDR: accountsAddress,
      ...options.env,
    }),
    logger,
    metrics: createMetrics('gateway'),
    bus,
    routes: options.routes,
  });
  const admin = createServiceClient('Accounts', accountsAddress);
  return {
    baseUrl: `http://127.0.0.1:${gateway.port}`,
    admin,
    gateway,
    async token(options: { team: string; email: string; role?: string; plan?: string; write?: boolean }) {
      await admin
        .CreateTeam({ slug: options.team, name: options.team, plan: options.plan ?? 'team' })
        .catch(conflictOk);
      await admin.CreateUser({ email: options.email, name: options.email }).catch(conflictOk);
      await admin.AddMember({
        team_slug: options.team,
        user_email: options.email,
        role: options.role ?? 'editor',
      });
      const issued = await admin.IssueToken({
        team_slug: options.team,
        user_email: options.email,
        write: options.write ?? false,
      });
      return { token: issued.token, id: issued.record!.id };
    },
    async stop() {
      admin.close();
      await gateway.stop();
      await accounts.stop();
      await bus.close();
      await database.drop();
    },
  };
}

function conflictOk(error: { code?: string }) {
  if (error.code !== 'conflict') throw error;
}

/** Two routes that exercise the chain: a read and a write, each echoing the principal's team. */
export const echoRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/echo',
    operation: 'read',
    write: false,
    handler: async (_req, res, principal) => {
      res.json({ data: { team: principal.team_slug } });
    },
  },
  {
    method: 'post',
    path: '/echo',
    operation: 'write',
    write: true,
    handler: async (req, res, principal) => {
      // `{"reject": true}` stands for a write the service refuses (a patch that fails validation).
      if ((req.body as { reject?: boolean } | null)?.reject) {
        res.status(422).json({ error: { code: 'invalid_schema', message: 'rejected on request' } });
        return;
      }
      res.status(201).json({ data: { team: principal.team_slug, body: req.body } });
    },
  },
];
