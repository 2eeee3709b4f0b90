// Nothing accepted is lost when the process dies mid-import with the in-process bus: the jobs lived only
// in memory, and the restarted service hands every unfinished import out again from its outbox row; an
// import that cannot finish becomes `failed` with a clear code instead of `importing` forever.
import {
  type BusSubscription,
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  type EventBus,
} from '@dss/platform';
import { createTestDatabase, type TestDatabase } from '@dss/platform/testing';
import { readDiagramsConfig } from '../src/config';
import type { ImportJob } from '../src/create-diagram';
import { CreateLayouts } from '../src/create-layout';
import { ImportRecovery } from '../src/import-recovery';
import { type DiagramsService, startDiagramsService } from '../src/server';
import { APP_URL, newPrincipal } from './helpers';

const DDL = 'CREATE TABLE customers (id bigint PRIMARY KEY);';

describe('import recovery with the in-process bus', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function start(): Promise<{ bus: EventBus; service: DiagramsService; stop(): Promise<void> }> {
    const logger = createLogger('diagrams', { level: 'silent' });
    const bus = await createEventBus({ logger });
    const config = readDiagramsConfig({
      DATABASE_URL: database.url,
      DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:0',
      DSS_APP_URL: APP_URL,
    });
    const service = await startDiagramsService({ config, logger, metrics: createMetrics('diagrams'), bus });
    return {
      bus,
      service,
      async stop() {
        await service.stop();
        await bus.close();
      },
    };
  }

  /** Takes every job handed out on `bus`, as an importer would (without finishing them). */
  async function collectJobs(bus: EventBus): Promise<{ jobs: ImportJob[]; consumer: BusSubscription }> {
    const jobs: ImportJob[] = [];
    const consumer = await bus.consume('importers', 'importer.jobs', async (message) => {
      jobs.push(message.data as ImportJob);
    });
    return { jobs, consumer };
  }

  async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  it('hands every unfinished import out again after a restart, and the diagrams then finish', async () => {
    const principal = newPrincipal();
    // First life: five imports accepted, no importer ever takes them, then the process "dies".
    const first = await start();
    const client = createServiceClient('Diagrams', `127.0.0.1:${first.service.grpc.port}`);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await client.CreateDiagram({
        principal,
        name: `Import ${i}`,
        driver: 'pgsql',
        ddl: DDL,
        wait_ms: 0,
      });
      created.push(answer.diagram!.uuid);
    }
    client.close();
    await first.stop();

    // Second life: a new process, a new (empty) in-process bus, the same database.
    const second = await start();
    const { jobs, consumer } = await collectJobs(second.bus);
    await until(
      () => created.every((uuid) => jobs.some((job) => job.diagram_uuid === uuid)),
      'the five jobs',
    );
    const again = createServiceClient('Diagrams', `127.0.0.1:${second.service.grpc.port}`);
    for (const job of jobs.filter((candidate) => created.includes(candidate.diagram_uuid))) {
      await again.CompleteImport({
        diagram_uuid: job.diagram_uuid,
        job_id: job.job_id,
        error: { code: 'ddl_syntax_error', message: 'stand-in importer: done' },
      });
    }
    for (const uuid of created) {
      const diagram = await again.GetDiagram({ principal, uuid });
      expect(diagram.status).toBe('failed');
      expect(diagram.error?.code).toBe('ddl_syntax_error');
    }
    again.close();
    await consumer.unsubscribe();
    await second.stop();
  });

  it('fails an import that cannot finish within the give-up age with ddl_import_interrupted', async () => {
    const principal = newPrincipal();
    const running = await start();
    const client = createServiceClient('Diagrams', `127.0.0.1:${running.service.grpc.port}`);
    const answer = await client.CreateDiagram({
      principal,
      name: 'Stuck',
      driver: 'pgsql',
      ddl: DDL,
      wait_ms: 0,
    });
    const uuid = answer.diagram!.uuid;
    const recovery = new ImportRecovery(
      running.service.pool,
      {
        pool: running.service.pool,
        appUrl: APP_URL,
        replayWindowSeconds: 120,
        importWaiters: { watch: () => ({ wait: async () => {}, close() {} }) } as never,
        layouts: new CreateLayouts({ threads: 0 }),
      },
      running.bus,
      createLogger('diagrams', { level: 'silent' }),
      { redispatchAfterMs: 60_000, giveUpAfterMs: 0, everyMs: 60_000 },
    );
    await recovery.pass(null);
    const diagram = await client.GetDiagram({ principal, uuid });
    expect(diagram.status).toBe('failed');
    expect(diagram.error?.code).toBe('ddl_import_interrupted');
    client.close();
    await running.stop();
  });
});
