// Fault tests on a real NATS JetStream server of the test's own (OwnNats of @dss/platform/testing): an importer *process* killed
// with SIGKILL in the middle of a job, and NATS stopped during a create and started again. Diagrams (with
// its outbox relay) runs in this process; the importers run as a child process or in this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { readDiagramsConfig, startDiagramsService } from '@dss/diagrams';
import {
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  type EventBus,
  type ServiceClient,
} from '@dss/platform';
import { createTestDatabase, freePort, OwnNats, type TestDatabase, waitFor } from '@dss/platform/testing';
import { readImporterConfig } from '../src/config';
import { startImporterService } from '../src/server';

// Long enough for a conversion (a job redelivered while it converts would run twice), short enough for a test.
const ACK_WAIT_MS = 10_000;
const logger = createLogger('importer-outage', { level: 'silent' });

/** An SSMS-style script whose first conversion in a fresh process takes seconds (the T-SQL parser loads). */
const SLOW_SQLSRV = Array.from(
  { length: 60 },
  (_, i) =>
    `CREATE TABLE [dbo].[T${i}](\n\t[Id] [int] IDENTITY(1,1) NOT NULL,\n\t[Name] [nvarchar](50) NOT NULL,\n` +
    `\t[ParentId] [int] NULL,\n CONSTRAINT [PK_T${i}] PRIMARY KEY CLUSTERED ([Id] ASC)\n) ON [PRIMARY]\nGO\n` +
    (i > 0
      ? `ALTER TABLE [dbo].[T${i}] WITH CHECK ADD CONSTRAINT [FK_T${i}] FOREIGN KEY([ParentId]) REFERENCES [dbo].[T${i - 1}] ([Id])\nGO\n`
      : ''),
).join('');

function principal() {
  return {
    token_id: randomUUID(),
    user_id: randomUUID(),
    user_email: 'someone@example.test',
    user_name: 'Someone',
    team_id: randomUUID(),
    team_slug: 'outage',
    team_name: 'Outage',
    role: 'editor',
    write: true,
    plan: 'team',
    caps: {},
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

describe('importer fault tests on a NATS server of their own', () => {
  let nats: OwnNats;
  let database: TestDatabase;
  const stops: Array<() => Promise<void>> = [];
  let diagramsAddress: string;
  let client: ServiceClient<'Diagrams'>;

  const bus = async (name: string): Promise<EventBus> => {
    const created = await createEventBus({ natsUrl: nats.url, logger, name });
    stops.push(() => created.close());
    return created;
  };
  const importerConfig = (warmUp: boolean) =>
    readImporterConfig({
      DSS_IMPORTER_GRPC_ADDR: '127.0.0.1:0',
      DSS_DIAGRAMS_GRPC_ADDR: diagramsAddress,
      DSS_IMPORT_ACK_WAIT_MS: String(ACK_WAIT_MS),
      DSS_IMPORT_WARM_UP: String(warmUp),
    });
  const statusOf = async (who: ReturnType<typeof principal>, uuid: string) =>
    (await client.GetDiagram({ principal: who, uuid })).status;
  const waitForStatus = async (who: ReturnType<typeof principal>, uuid: string, timeoutMs: number) => {
    await waitFor('the import finishes', async () => (await statusOf(who, uuid)) !== 'importing', timeoutMs);
    return statusOf(who, uuid);
  };

  beforeAll(async () => {
    nats = await OwnNats.start();
    database = await createTestDatabase();
    const diagrams = await startDiagramsService({
      config: readDiagramsConfig({ DATABASE_URL: database.url, DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:0' }),
      logger,
      metrics: createMetrics('diagrams'),
      bus: await bus('outage-diagrams'),
    });
    stops.push(() => diagrams.stop());
    diagramsAddress = `127.0.0.1:${diagrams.grpc.port}`;
    client = createServiceClient('Diagrams', diagramsAddress);
    stops.push(async () => client.close());
  });

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database?.drop();
    await nats?.destroy();
  });

  describe('an importer process killed with SIGKILL in the middle of a job', () => {
    let child: ChildProcess | undefined;
    afterAll(() => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });

    it('should leave the job to another importer, which imports it into the diagram exactly once', async () => {
      const adminPort = await freePort();
      child = spawn(process.execPath, [path.resolve(__dirname, '..', 'dist', 'main.js')], {
        env: {
          ...process.env,
          NATS_URL: nats.url,
          DSS_DIAGRAMS_GRPC_ADDR: diagramsAddress,
          DSS_IMPORTER_GRPC_ADDR: '127.0.0.1:0',
          DSS_ADMIN_PORT: String(adminPort),
          DSS_IMPORT_ACK_WAIT_MS: String(ACK_WAIT_MS),
          DSS_IMPORT_WARM_UP: 'false',
          DSS_LOG_LEVEL: 'silent',
        },
        stdio: 'ignore',
      });
      const inFlight = async () => {
        const text = await fetch(`http://127.0.0.1:${adminPort}/metrics`)
          .then((response) => response.text())
          .catch(() => '');
        return Number(/^dss_importer_jobs_in_flight\{[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
      };
      await waitFor(
        'the importer process serves its metrics',
        async () => (await fetch(`http://127.0.0.1:${adminPort}/metrics`).catch(() => null))?.ok === true,
        30_000,
      );

      const who = principal();
      const created = await client.CreateDiagram({
        principal: who,
        name: 'Killed mid-job',
        driver: 'sqlsrv',
        ddl: SLOW_SQLSRV,
        wait_ms: 0,
      });
      const uuid = created.diagram!.uuid;
      await waitFor('the importer process converts the job', async () => (await inFlight()) === 1, 30_000);
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      // Killed before it could answer: nothing was imported.
      expect(await statusOf(who, uuid)).toBe('importing');

      // It warms its worker while the job's ack wait runs out, so its conversion is quick.
      const rescuer = await startImporterService({
        config: importerConfig(true),
        logger,
        metrics: createMetrics('importer'),
        bus: await bus('outage-rescuer'),
      });
      stops.push(() => rescuer.stop());

      await waitForStatus(who, uuid, 60_000);
      const imported = await client.GetDiagram({ principal: who, uuid });
      expect({ status: imported.status, error: imported.error ?? null }).toEqual({
        status: 'ready',
        error: null,
      });
      expect(imported.table_count).toBe(60);
      const versions = await client.ListVersions({ principal: who, uuid });
      expect(versions.versions.map((version) => version.source)).toEqual(['import']);
    }, 120_000);
  });

  describe('NATS stopped during a create and started again', () => {
    it('should keep the diagram importing while NATS is down and import it once NATS is back', async () => {
      const importer = await startImporterService({
        config: importerConfig(false),
        logger,
        metrics: createMetrics('importer'),
        bus: await bus('outage-importer'),
      });
      stops.push(() => importer.stop());

      await nats.stop();
      const who = principal();
      const created = await client.CreateDiagram({
        principal: who,
        name: 'Created during an outage',
        driver: 'pgsql',
        ddl: 'CREATE TABLE a (id int PRIMARY KEY);\nCREATE TABLE b (id int PRIMARY KEY, a_id int REFERENCES a (id));',
        wait_ms: 0,
      });
      const uuid = created.diagram!.uuid;
      expect(created.diagram!.status).toBe('importing');
      // The job waits in the outbox: nothing can reach an importer.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await statusOf(who, uuid)).toBe('importing');

      await nats.resume();
      expect(await waitForStatus(who, uuid, 60_000)).toBe('ready');
      expect((await client.GetDiagram({ principal: who, uuid })).table_count).toBe(2);
      const versions = await client.ListVersions({ principal: who, uuid });
      expect(versions.versions.map((version) => version.source)).toEqual(['import']);
    }, 120_000);
  });
});
