// Fault test on real NATS JetStream: an importer takes a job and stalls mid-job (its CompleteImport goes to
// a server that never answers), then stops consuming without acking; the job's ack wait runs out and
// another importer of the `importers` queue finishes it.
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { readDiagramsConfig, startDiagramsService } from '@dss/diagrams';
import {
  createEventBus,
  createLogger,
  createMetrics,
  createServiceClient,
  type EventBus,
} from '@dss/platform';
import { createTestDatabase, type TestDatabase, testNatsUrl } from '@dss/platform/testing';
import { readImporterConfig } from '../src/config';
import { startImporterService } from '../src/server';

const ACK_WAIT_MS = 1500;

describe('importer on NATS: a job whose importer stalls and stops goes to another importer', () => {
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const logger = createLogger('importer-fault', { level: 'silent' });
  const buses: EventBus[] = [];
  const stops: Array<() => Promise<void>> = [];
  let database: TestDatabase;
  let blackHole: net.Server;
  const held: net.Socket[] = [];

  const bus = async () => {
    const created = await createEventBus({
      natsUrl: testNatsUrl(),
      logger,
      namespace,
      name: `fault-${namespace}`,
    });
    buses.push(created);
    return created;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    blackHole = net.createServer((socket) => {
      held.push(socket);
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    for (const socket of held) socket.destroy();
    blackHole.close();
    await Promise.all(buses.map((b) => b.close().catch(() => undefined)));
    await database.drop();
  });

  it('should finish the job on the second importer after the first stopped without acking', async () => {
    const diagrams = await startDiagramsService({
      config: readDiagramsConfig({ DATABASE_URL: database.url, DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:0' }),
      logger,
      metrics: createMetrics('diagrams'),
      bus: await bus(),
    });
    stops.push(() => diagrams.stop());
    const diagramsAddress = `127.0.0.1:${diagrams.grpc.port}`;
    const importerEnv = (diagramsAddr: string) =>
      readImporterConfig({
        DSS_IMPORTER_GRPC_ADDR: '127.0.0.1:0',
        DSS_DIAGRAMS_GRPC_ADDR: diagramsAddr,
        DSS_IMPORT_ACK_WAIT_MS: String(ACK_WAIT_MS),
        DSS_IMPORT_TIMEOUT_MS: '1000',
        // A cold worker per importer: the warm-up would outlast this test's short ack wait.
        DSS_IMPORT_WARM_UP: 'false',
      });

    // The first importer's CompleteImport goes to a server that accepts and never answers.
    const stalledMetrics = createMetrics('importer');
    const stalled = await startImporterService({
      config: importerEnv(`127.0.0.1:${(blackHole.address() as net.AddressInfo).port}`),
      logger,
      metrics: stalledMetrics,
      bus: await bus(),
    });

    const client = createServiceClient('Diagrams', diagramsAddress);
    stops.push(async () => client.close());
    const principal = {
      token_id: randomUUID(),
      user_id: randomUUID(),
      user_email: 'someone@example.test',
      user_name: 'Someone',
      team_id: randomUUID(),
      team_slug: 'fault',
      team_name: 'Fault',
      role: 'editor',
      write: true,
      plan: 'team',
      caps: {},
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const created = await client.CreateDiagram({
      principal,
      name: 'Fault',
      driver: 'pgsql',
      ddl: 'CREATE TABLE a (id int PRIMARY KEY);',
      wait_ms: 0,
    });
    const uuid = created.diagram!.uuid;

    // Wait until the first importer holds the job (its completion call reached the black hole).
    const deadline = Date.now() + 15_000;
    while (held.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(held.length).toBeGreaterThan(0);
    // It stops taking messages; its stuck handler never acks (not awaited: it waits for that handler).
    const stopping = stalled.stop().catch(() => undefined);
    stops.push(() => stopping);

    const rescuer = await startImporterService({
      config: importerEnv(diagramsAddress),
      logger,
      metrics: createMetrics('importer'),
      bus: await bus(),
    });
    stops.push(() => rescuer.stop());

    let status = created.diagram!.status;
    const readyBy = Date.now() + 20_000;
    while (status === 'importing' && Date.now() < readyBy) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await client.GetDiagram({ principal, uuid })).status;
    }
    expect(status).toBe('ready');
    const versions = await client.ListVersions({ principal, uuid });
    expect(versions.versions.map((version) => version.source)).toEqual(['import']);
  });
});
