// Starts a real accounts service (real PostgreSQL, real gRPC on a free port, in-process bus) for tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  type EventBus,
} from '@dss/platform';
import { createTestDatabase, type TestDatabase } from '@dss/platform/testing';
import { readAccountsConfig } from '../src/config';
import { type AccountsService, startAccountsService } from '../src/server';

export interface AccountsHarness {
  database: TestDatabase;
  bus: EventBus;
  service: AccountsService;
  client: ReturnType<typeof createServiceClient<'Accounts'>>;
  address: string;
  keyFile: string;
  stop(): Promise<void>;
}

export async function startAccountsHarness(
  options: { bus?: EventBus; env?: Record<string, string> } = {},
): Promise<AccountsHarness> {
  const database = await createTestDatabase();
  const logger = createLogger('accounts', { level: 'silent' });
  const bus = options.bus ?? (await createEventBus({ logger }));
  const keyFile = path.join(mkdtempSync(path.join(tmpdir(), 'dss-keys-')), 'signing.pem');
  const config = readAccountsConfig({
    DATABASE_URL: database.url,
    DSS_ACCOUNTS_GRPC_ADDR: '127.0.0.1:0',
    DSS_TOKEN_SIGNING_KEY_FILE: keyFile,
    ...options.env,
  });
  const service = await startAccountsService({ config, logger, metrics: createMetrics('accounts'), bus });
  const address = `127.0.0.1:${service.grpc.port}`;
  const client = createServiceClient('Accounts', address);
  return {
    database,
    bus,
    service,
    client,
    address,
    keyFile,
    async stop() {
      client.close();
      await service.stop();
      if (!options.bus) await bus.close();
      await database.drop();
    },
  };
}

/** A team on the given plan with one member of the given role, and that member's token. */
export async function seedMember(
  client: AccountsHarness['client'],
  options: { team: string; email: string; role?: string; plan?: string; write?: boolean; expiresAt?: string },
) {
  await client
    .CreateTeam({ slug: options.team, name: options.team, plan: options.plan ?? 'team' })
    .catch(ignoreConflict);
  await client.CreateUser({ email: options.email, name: options.email }).catch(ignoreConflict);
  await client.AddMember({
    team_slug: options.team,
    user_email: options.email,
    role: options.role ?? 'editor',
  });
  return client.IssueToken({
    team_slug: options.team,
    user_email: options.email,
    name: 'test',
    write: options.write ?? false,
    expires_in: '',
    expires_at: options.expiresAt ?? '',
  });
}

function ignoreConflict(error: { code?: string }) {
  if (error.code !== 'conflict') throw error;
}

/** The audit log's newest entries of one action (and target, when given), as ListAuditEvents answers them. */
export async function auditEvents(
  client: AccountsHarness['client'],
  filter: { action: string; target?: string; limit?: number },
) {
  const page = await client.ListAuditEvents({
    team_id: '',
    actor: '',
    action: filter.action,
    target: filter.target ?? '',
    since: '',
    until: '',
    cursor: '',
    limit: filter.limit ?? 100,
  });
  return page.events;
}
