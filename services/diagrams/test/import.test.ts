// DDL creates and CompleteImport, with the test standing in for the importer: it takes the jobs from
// `importer.jobs` on the in-process bus and completes them when it chooses.
import { randomUUID } from 'node:crypto';
import type { BusMessage, BusSubscription } from '@dss/platform';
import { apply, emptyDocument, normalize, validate } from '@dss/schema';
import type { ImportJob } from '../src/create-diagram';
import {
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  shopPatch,
  startDiagramsHarness,
  type TestPrincipal,
} from './helpers';

const DDL = 'CREATE TABLE customers (id bigint PRIMARY KEY);';

function shopDocument() {
  const result = validate(normalize(shopPatch()).patch, null, 'pgsql', 'create');
  if (!result.ok) throw new Error('shopPatch is invalid');
  return apply(emptyDocument('pgsql'), result.patch).document;
}

describe('Diagrams DDL import: CreateDiagram with ddl, CompleteImport', () => {
  let harness: DiagramsHarness;
  let jobs: ImportJob[];
  let waiters: Array<() => void>;
  let consumer: BusSubscription;
  let events: BusMessage[];

  beforeAll(async () => {
    harness = await startDiagramsHarness({ DSS_REPLAY_WINDOW_SECONDS: '120' });
    jobs = [];
    waiters = [];
    events = [];
    consumer = await harness.bus.consume('importers', 'importer.jobs', async (message) => {
      jobs.push(message.data as ImportJob);
      for (const wake of waiters.splice(0)) wake();
    });
    await harness.bus.subscribe('diagrams.>', (message) => {
      events.push(message);
    });
  });
  afterAll(async () => {
    await consumer.unsubscribe();
    await harness.stop();
  });

  async function jobFor(diagramUuid: string): Promise<ImportJob> {
    for (;;) {
      const job = jobs.find((candidate) => candidate.diagram_uuid === diagramUuid);
      if (job) return job;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  const createDdl = (principal: TestPrincipal, ddl = DDL, waitMs = 0, name = 'Imported') =>
    harness.client.CreateDiagram({ principal, name, driver: 'pgsql', ddl, wait_ms: waitMs });

  const succeed = (job: ImportJob) =>
    harness.client.CompleteImport({
      diagram_uuid: job.diagram_uuid,
      job_id: job.job_id,
      document_json: JSON.stringify(shopDocument()),
    });

  it('should store an importing diagram with zero counts and enqueue its job', async () => {
    const principal = newPrincipal();
    const created = await createDdl(principal);
    expect(created.diagram!.status).toBe('importing');
    expect(created.diagram!.table_count).toBeUndefined();
    expect(created.replayed).toBe(false);
    expect(created.poll_after_seconds).toBe(2);
    expect(JSON.parse(created.counts_json)).toEqual({
      tables: 0,
      columns: 0,
      indexes: 0,
      relationships: 0,
      groups: 0,
      sticky_notes: 0,
    });
    const job = await jobFor(created.diagram!.uuid);
    expect(job).toEqual({
      job_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      diagram_uuid: created.diagram!.uuid,
      driver: 'pgsql',
      ddl: DDL,
    });
  });

  it('should answer diagram_not_ready for the schema while importing, and the document once complete', async () => {
    const principal = newPrincipal();
    const uuid = (await createDdl(principal)).diagram!.uuid;
    const notReady = await failureOf(harness.client.GetSchema({ principal, uuid, format: '', level: '' }));
    expect(notReady.code).toBe('diagram_not_ready');

    const done = await succeed(await jobFor(uuid));
    expect(done.status).toBe('ready');
    expect(done.table_count).toBe(2);
    const schema = await harness.client.GetSchema({ principal, uuid, format: '', level: '' });
    expect(schema.body).toContain('orders');
    const versions = await harness.client.ListVersions({ principal, uuid });
    expect(versions.versions.map((version) => version.source)).toEqual(['import']);
    expect(versions.versions[0]!.source_id).toBe((await jobFor(uuid)).job_id);
  });

  it('should answer the finished diagram when the import completes inside wait_ms', async () => {
    const principal = newPrincipal();
    const ddl = `${DDL} -- ${randomUUID()}`;
    const answer = createDdl(principal, ddl, 5000);
    const job = await new Promise<ImportJob>((resolve) => {
      const look = () => {
        const found = jobs.find((candidate) => candidate.ddl === ddl);
        if (found) resolve(found);
        else waiters.push(look);
      };
      look();
    });
    await succeed(job);
    const created = await answer;
    expect(created.diagram!.status).toBe('ready');
    expect(created.diagram!.table_count).toBe(2);
    expect(created.replayed).toBe(false);
    expect(JSON.parse(created.counts_json)).toMatchObject({ tables: 2, columns: 4, relationships: 1 });
  });

  it('should replay an identical create as importing during the import and as ready after it', async () => {
    const principal = newPrincipal();
    const first = await createDdl(principal);
    const during = await createDdl(principal);
    expect(during.replayed).toBe(true);
    expect(during.diagram!.uuid).toBe(first.diagram!.uuid);
    expect(during.diagram!.status).toBe('importing');
    expect(JSON.parse(during.counts_json)).toMatchObject({ tables: 0 });

    await succeed(await jobFor(first.diagram!.uuid));
    const after = await createDdl(principal);
    expect(after.replayed).toBe(true);
    expect(after.diagram!.uuid).toBe(first.diagram!.uuid);
    expect(after.diagram!.status).toBe('ready');
    expect(JSON.parse(after.counts_json)).toMatchObject({ tables: 2 });
  });

  it('should store a failed import with its error and never replay it', async () => {
    const principal = newPrincipal();
    const first = await createDdl(principal);
    const job = await jobFor(first.diagram!.uuid);
    const failed = await harness.client.CompleteImport({
      diagram_uuid: job.diagram_uuid,
      job_id: job.job_id,
      error: { code: 'ddl_syntax_error', message: 'syntax error at line 1, column 8' },
    });
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'ddl_syntax_error', message: 'syntax error at line 1, column 8' });
    const got = await harness.client.GetDiagram({ principal, uuid: first.diagram!.uuid });
    expect(got.status).toBe('failed');
    expect(got.error!.code).toBe('ddl_syntax_error');
    const schema = await failureOf(
      harness.client.GetSchema({ principal, uuid: first.diagram!.uuid, format: '', level: '' }),
    );
    expect(schema.code).toBe('diagram_not_ready');

    const again = await createDdl(principal);
    expect(again.replayed).toBe(false);
    expect(again.diagram!.uuid).not.toBe(first.diagram!.uuid);
    expect(again.diagram!.status).toBe('importing');
  });

  it('should be idempotent: a second completion of the job, or one naming another job, changes nothing', async () => {
    const principal = newPrincipal();
    const uuid = (await createDdl(principal)).diagram!.uuid;
    const job = await jobFor(uuid);
    const stale = await harness.client.CompleteImport({
      diagram_uuid: uuid,
      job_id: randomUUID(),
      error: { code: 'ddl_import_crashed', message: 'x' },
    });
    expect(stale.status).toBe('importing');
    const first = await succeed(job);
    const second = await harness.client.CompleteImport({
      diagram_uuid: uuid,
      job_id: job.job_id,
      error: { code: 'ddl_import_crashed', message: 'late' },
    });
    expect(second).toEqual(first);
    const versions = await harness.client.ListVersions({ principal, uuid });
    expect(versions.versions).toHaveLength(1);
  });

  it('should emit diagrams.import.finished and diagrams.changed when an import completes', async () => {
    const principal = newPrincipal();
    const uuid = (await createDdl(principal)).diagram!.uuid;
    const job = await jobFor(uuid);
    await succeed(job);
    const deadline = Date.now() + 5000;
    const mine = () =>
      events.filter((event) => (event.data as { diagram_uuid: string }).diagram_uuid === uuid);
    while (mine().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(mine().map((event) => event.subject)).toEqual(['diagrams.import.finished', 'diagrams.changed']);
    expect(mine()[0]!.data).toMatchObject({ diagram_uuid: uuid, job_id: job.job_id, status: 'ready' });
  });

  it('should fail an import over the plan’s tables-per-diagram cap with plan_limit', async () => {
    const principal = newPrincipal({ caps: { max_tables_per_diagram: 1 } });
    const uuid = (await createDdl(principal)).diagram!.uuid;
    const done = await succeed(await jobFor(uuid));
    expect(done.status).toBe('failed');
    expect(done.error!.code).toBe('plan_limit');
    expect(done.error!.message).toMatch(/at most 1 tables per diagram; the DDL defines 2/);
    expect(done.table_count).toBeUndefined();
    const versions = await harness.client.ListVersions({ principal, uuid });
    expect(versions.versions).toHaveLength(0);
  });

  it('should answer not_found for an unknown diagram and invalid_request without a document or error', async () => {
    expect(
      (
        await failureOf(
          harness.client.CompleteImport({
            diagram_uuid: randomUUID(),
            job_id: randomUUID(),
            error: { code: 'x', message: 'y' },
          }),
        )
      ).code,
    ).toBe('not_found');
    expect(
      (await failureOf(harness.client.CompleteImport({ diagram_uuid: randomUUID(), job_id: randomUUID() })))
        .code,
    ).toBe('invalid_request');
  });
});
