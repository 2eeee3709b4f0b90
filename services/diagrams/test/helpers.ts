// Starts a real diagrams service (real PostgreSQL, real gRPC on a free port, in-process bus) for tests,
// and builds principals the way accounts would resolve them.
import { randomUUID } from 'node:crypto';
import {
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  type EventBus,
  type ServiceClient,
  ServiceError,
} from '@dss/platform';
import { createTestDatabase, type TestDatabase } from '@dss/platform/testing';
import { readDiagramsConfig } from '../src/config';
import { type DiagramsService, startDiagramsService } from '../src/server';

export const APP_URL = 'https://app.example.test';

export interface DiagramsHarness {
  database: TestDatabase;
  bus: EventBus;
  service: DiagramsService;
  client: ServiceClient<'Diagrams'>;
  stop(): Promise<void>;
}

export async function startDiagramsHarness(
  env: Record<string, string> = {},
  options: { now?: () => Date } = {},
): Promise<DiagramsHarness> {
  const database = await createTestDatabase();
  const logger = createLogger('diagrams', { level: 'silent' });
  const bus = await createEventBus({ logger });
  const config = readDiagramsConfig({
    DATABASE_URL: database.url,
    DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:0',
    DSS_APP_URL: APP_URL,
    ...env,
  });
  const service = await startDiagramsService({
    config,
    logger,
    metrics: createMetrics('diagrams'),
    bus,
    ...(options.now ? { now: options.now } : {}),
  });
  const client = createServiceClient('Diagrams', `127.0.0.1:${service.grpc.port}`);
  return {
    database,
    bus,
    service,
    client,
    async stop() {
      client.close();
      await service.stop();
      await bus.close();
      await database.drop();
    },
  };
}

export interface TestPrincipal {
  token_id: string;
  user_id: string;
  user_email: string;
  user_name: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  role: string;
  write: boolean;
  plan: string;
  caps: { max_tables_per_diagram?: number; max_private_diagrams?: number };
  expires_at: string;
}

/** A principal of a fresh team (or of `team` when given), with a fresh token and user. */
export function newPrincipal(
  options: { team?: TestPrincipal; caps?: TestPrincipal['caps']; slug?: string; role?: string } = {},
): TestPrincipal {
  const slug = options.slug ?? `team-${randomUUID().slice(0, 8)}`;
  return {
    token_id: randomUUID(),
    user_id: randomUUID(),
    user_email: 'someone@example.test',
    user_name: 'Someone',
    team_id: options.team?.team_id ?? randomUUID(),
    team_slug: options.team?.team_slug ?? slug,
    team_name: options.team?.team_name ?? `Team ${slug}`,
    role: options.role ?? 'editor',
    write: true,
    plan: 'team',
    caps: options.caps ?? options.team?.caps ?? {},
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  };
}

/** A small valid create patch: two tables and one relationship. */
export function shopPatch(extra: Record<string, unknown> = {}) {
  return {
    strategy: 'merge',
    tables: [
      {
        name: 'customers',
        comment: 'People who buy',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
          { name: 'email', type: 'varchar(255)', is_unique_key: true },
        ],
      },
      {
        name: 'orders',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'customer_id', type: 'bigint', is_nullable: false },
        ],
        indexes: [{ name: 'orders_customer', type: 'index', columns: ['customer_id'] }],
      },
    ],
    relationships: [
      {
        type: 'many-to-one',
        source_table: 'orders',
        source_column: 'customer_id',
        target_table: 'customers',
        target_column: 'id',
      },
    ],
    ...extra,
  };
}

/** A patch with `count` one-column tables. */
export function tablesPatch(count: number, prefix = 't') {
  return {
    strategy: 'merge',
    tables: Array.from({ length: count }, (_, i) => ({
      name: `${prefix}${i}`,
      columns: [{ name: 'id', type: 'int', is_primary_key: true }],
    })),
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

export async function createFromPatch(
  client: ServiceClient<'Diagrams'>,
  principal: TestPrincipal,
  patch: unknown = shopPatch(),
  options: { name?: string; driver?: string } = {},
) {
  return client.CreateDiagram({
    principal,
    name: options.name ?? '',
    driver: options.driver ?? '',
    schema_json: JSON.stringify(patch),
  });
}
