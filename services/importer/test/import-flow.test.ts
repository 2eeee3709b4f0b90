// The DDL create flow end to end in the embedded system: gateway → diagrams (outbox) → in-process bus →
// importer (worker thread) → diagrams.CompleteImport.
import { randomUUID } from 'node:crypto';
import { convertDdl } from '@dss/ddl';
import { makeRoomForLines } from '@dss/diagram-svg';
import { createServiceClient, type ServiceClient } from '@dss/platform';
import { startTestSystem, type TestSystem } from '@dss/system';

const SHOP_DDL = `CREATE TABLE customers (id bigint PRIMARY KEY, email varchar(255) UNIQUE);
CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers (id));`;

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

async function writerToken(system: TestSystem): Promise<string> {
  const accounts: ServiceClient<'Accounts'> = createServiceClient('Accounts', system.grpc.accounts);
  try {
    const team = `t${randomUUID().slice(0, 8)}`;
    const email = `${randomUUID()}@${team}.test`;
    await accounts.CreateTeam({ slug: team, name: `Team ${team}`, plan: 'team' });
    await accounts.CreateUser({ email, name: email });
    await accounts.AddMember({ team_slug: team, user_email: email, role: 'editor' });
    return (await accounts.IssueToken({ team_slug: team, user_email: email, name: 'test', write: true }))
      .token;
  } finally {
    accounts.close();
  }
}

function api(system: TestSystem, token: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  return {
    create: (name: string, ddl: string, driver = 'pgsql') => call('POST', '/diagrams', { name, driver, ddl }),
    get: (uuid: string) => call('GET', `/diagrams/${uuid}`),
    list: () => call('GET', '/diagrams?limit=100'),
    schema: (uuid: string) => call('GET', `/diagrams/${uuid}/schema`),
    schemaFull: (uuid: string) => call('GET', `/diagrams/${uuid}/schema-full`),
  };
}

/** A hub every table references, each table also the one before it and the one ten before it. */
function hubAndChainsDdl(tables: number): string {
  const out = ['CREATE TABLE hub (id bigint PRIMARY KEY, name text NOT NULL);'];
  for (let i = 1; i < tables; i++) {
    const refs = ['hub_id bigint REFERENCES hub (id)'];
    if (i > 1) refs.push(`t${i - 1}_id bigint REFERENCES t${i - 1} (id)`);
    if (i > 10) refs.push(`t${i - 10}_id bigint REFERENCES t${i - 10} (id)`);
    out.push(`CREATE TABLE t${i} (id bigint PRIMARY KEY, note text, ${refs.join(', ')});`);
  }
  return out.join('\n');
}

describe('DDL create through the importer (embedded system, in-process bus)', () => {
  let system: TestSystem;
  let client: ReturnType<typeof api>;

  beforeAll(async () => {
    system = await startTestSystem({ DSS_IMPORT_WAIT_MS: '10000' });
    client = api(system, await writerToken(system));
  });
  afterAll(async () => {
    await system.stop();
  });

  it('should answer 201 ready with table count and counts when the import finishes inside the wait, then 200 replayed', async () => {
    const created = await client.create('Shop', SHOP_DDL);
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe('ready');
    expect(created.body.data.table_count).toBe(2);
    expect(created.body.counts).toMatchObject({ tables: 2, columns: 4, relationships: 1 });
    expect(created.body.replayed).toBe(false);
    const schema = await client.schema(created.body.data.uuid);
    expect(schema.status).toBe(200);

    const again = await client.create('Shop', SHOP_DDL);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.data.uuid).toBe(created.body.data.uuid);
  });

  it("should store a large schema's layout with room made for its lines (the conversion workers' last step)", async () => {
    const ddl = hubAndChainsDdl(110);
    const created = await client.create('Hub and chains', ddl);
    expect(created.status).toBe(201);
    const stored = (await client.schemaFull(created.body.data.uuid)).body.data.tables as Json[];
    const converted = await convertDdl('pgsql', ddl);
    if (!converted.ok) throw new Error(converted.message);
    const framesOf = (tables: Json[]) =>
      Object.fromEntries(tables.map((table) => [table.name, [table.left, table.top]]));
    const roomy = framesOf(makeRoomForLines(converted.document).tables);
    expect(framesOf(stored)).toEqual(roomy);
    // The step moved tables: the layout alone puts them elsewhere.
    expect(framesOf(converted.document.tables)).not.toEqual(roomy);
  });

  it('should import what it can read and list the rest as the diagram’s warnings (create, GET and list)', async () => {
    const ddl = [
      'SET client_encoding = 1;',
      'CREATE TABLE places (id int PRIMARY KEY, name text NOPE NOT NULL, spot geometry(Point, 4326));',
      'CREATE TABLE (broken;',
      'CREATE TABLE visits (id int PRIMARY KEY, place_id int REFERENCES places (id));',
    ].join('\n');
    const created = await client.create('Tolerant', ddl);
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe('ready');
    expect(created.body.data.table_count).toBe(2);
    const expected = {
      total: 3,
      items: [
        {
          line: 2,
          column: 52,
          code: 'clause_dropped',
          message: 'table places: column name: "NOPE" could not be read; dropped',
          statement:
            'CREATE TABLE places (id int PRIMARY KEY, name text NOPE NOT NULL, spot geometry(Point, 4326))',
        },
        {
          line: 2,
          column: 67,
          code: 'type_substituted',
          message:
            'places.spot: type "geometry(point,4326)" is not in the pgsql data-type catalog; imported as point',
          statement:
            'CREATE TABLE places (id int PRIMARY KEY, name text NOPE NOT NULL, spot geometry(Point, 4326))',
        },
        {
          line: 3,
          column: 14,
          code: 'statement_skipped',
          message: 'statement skipped: syntax error at or near "("',
          statement: 'CREATE TABLE (broken',
        },
      ],
    };
    expect(created.body.data.warnings).toEqual(expected);
    const read = await client.get(created.body.data.uuid);
    expect(read.body.data.warnings).toEqual(expected);
    const list = await client.list();
    expect(list.body.data.find((d: Json) => d.uuid === created.body.data.uuid).warnings).toEqual(expected);
    // The name column is kept, NOT NULL after the dropped attribute included.
    const schema = await client.schema(created.body.data.uuid);
    const places = schema.body.data.tables.find((table: Json) => table.name === 'places');
    expect(places.columns.map((c: Json) => [c.name, c.driver_data_type_name, c.is_nullable])).toEqual([
      ['id', 'integer', false],
      ['name', 'text', false],
      ['spot', 'point', true],
    ]);
    const plain = await client.create('Clean', SHOP_DDL);
    expect(plain.body.data.warnings).toEqual({ total: 0, items: [] });
  });

  it('should expose the job metrics: started, in flight, queued, finished by outcome and the duration histogram', async () => {
    await client.create('Measured', 'CREATE TABLE measured (id int PRIMARY KEY);');
    const response = await fetch(`http://127.0.0.1:${system.adminPort}/metrics`);
    const text = await response.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
    expect(value(/^dss_importer_jobs_started_total\{[^}]*\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(
      value(/^dss_importer_jobs_finished_total\{[^}]*outcome="ready"[^}]*\} (\d+)/m),
    ).toBeGreaterThanOrEqual(1);
    expect(value(/^dss_importer_jobs_in_flight\{[^}]*\} (\d+)/m)).toBe(0);
    expect(value(/^dss_importer_jobs_queued\{[^}]*\} (\d+)/m)).toBe(0);
    expect(
      value(/^dss_importer_job_duration_seconds_count\{[^}]*outcome="ready"[^}]*\} (\d+)/m),
    ).toBeGreaterThanOrEqual(1);
  });

  it('should answer 201 failed with ddl_syntax_error naming line and column, and never replay it', async () => {
    const ddl = 'SET x = 1;\nCREATE TABLE (id int);';
    const created = await client.create('Broken', ddl);
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe('failed');
    expect(created.body.data.error.code).toBe('ddl_syntax_error');
    expect(created.body.data.error.message).toMatch(/line 2, column \d+/);
    expect(created.body.data.table_count).toBeNull();
    expect((await client.schema(created.body.data.uuid)).body.error.code).toBe('diagram_not_ready');

    const again = await client.create('Broken', ddl);
    expect(again.status).toBe(201);
    expect(again.body.replayed).toBe(false);
    expect(again.body.data.uuid).not.toBe(created.body.data.uuid);
  });

  describe('Importer.ParseDdl (gRPC, the same conversion workers)', () => {
    let importer: ServiceClient<'Importer'>;
    beforeAll(() => {
      importer = createServiceClient('Importer', system.grpc.importer!);
    });
    afterAll(() => importer.close());

    it('should answer the document as JSON and the skipped statements', async () => {
      const parsed = await importer.ParseDdl({
        driver: 'pgsql',
        ddl: `SET client_encoding = 'UTF8';\n${SHOP_DDL}`,
      });
      expect(parsed.error_code ?? null).toBeNull();
      const document = JSON.parse(parsed.document_json!);
      expect(document.tables.map((table: { name: string }) => table.name).sort()).toEqual([
        'customers',
        'orders',
      ]);
      expect(document.relationships).toHaveLength(1);
      expect(parsed.skipped_statements).toBe(1);
    });

    it('should answer the converter’s error code and position for unusable SQL, and refuse an unknown driver', async () => {
      const parsed = await importer.ParseDdl({ driver: 'mysql', ddl: 'CREATE TABLE (id int);' });
      expect(parsed.document_json ?? null).toBeNull();
      expect(parsed.error_code).toBe('ddl_syntax_error');
      expect(parsed.error_message).toMatch(/line 1, column \d+/);
      await expect(
        importer.ParseDdl({ driver: 'oracle', ddl: 'CREATE TABLE a (id int);' }),
      ).rejects.toMatchObject({
        code: 'invalid_request',
      });
    });

    it('should read DBML (format dbml) with its warnings, and answer a DBML error at its DBML line and column', async () => {
      const dbml =
        'Table customers {\n  id bigint [pk]\n}\n\nTable orders {\n  id bigint [pk]\n  customer_id bigint [ref: > customers.id]\n}\n';
      const parsed = await importer.ParseDdl({ driver: 'pgsql', ddl: dbml, format: 'dbml' });
      expect(parsed.error_code ?? null).toBeNull();
      const document = JSON.parse(parsed.document_json!);
      expect(document.tables.map((table: { name: string }) => table.name)).toEqual(['customers', 'orders']);
      expect(document.relationships).toHaveLength(1);
      expect(parsed.warnings).toMatchObject({ total: 0, items: [] });
      const broken = await importer.ParseDdl({
        driver: 'pgsql',
        ddl: 'Table customers {\n  id bigint [pk]\n  name varchar(100) [notnul]\n}\n',
        format: 'dbml',
      });
      expect(broken.document_json ?? null).toBeNull();
      expect(broken).toMatchObject({ error_code: 'ddl_syntax_error', error_line: 3, error_column: 22 });
      await expect(importer.ParseDdl({ driver: 'pgsql', ddl: 'x', format: 'yaml' })).rejects.toMatchObject({
        code: 'invalid_request',
      });
    });
  });
});

describe('DDL create with a zero wait and a held importer', () => {
  let system: TestSystem;
  let client: ReturnType<typeof api>;

  beforeAll(async () => {
    system = await startTestSystem({ DSS_IMPORT_WAIT_MS: '0' }, { withoutImporter: true });
    client = api(system, await writerToken(system));
  });
  afterAll(async () => {
    await system.stop();
  });

  it('should answer 202 importing, replay it as 202, answer 409 for the schema, then become ready on polling', async () => {
    const created = await client.create('Later', SHOP_DDL);
    expect(created.status).toBe(202);
    expect(created.body.data.status).toBe('importing');
    expect(created.body.data.table_count).toBeNull();
    expect(created.body.counts).toMatchObject({ tables: 0 });
    expect(created.body.poll_after_seconds).toBe(2);
    const uuid = created.body.data.uuid as string;

    const during = await client.create('Later', SHOP_DDL);
    expect(during.status).toBe(202);
    expect(during.body.replayed).toBe(true);
    expect(during.body.data.uuid).toBe(uuid);

    const notReady = await client.schema(uuid);
    expect(notReady.status).toBe(409);
    expect(notReady.body.error.code).toBe('diagram_not_ready');

    await system.startImporter();
    const deadline = Date.now() + 15_000;
    let current = await client.get(uuid);
    while (current.body.data.status === 'importing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      current = await client.get(uuid);
    }
    expect(current.body.data.status).toBe('ready');
    expect(current.body.data.table_count).toBe(2);
    expect((await client.schema(uuid)).status).toBe(200);

    const after = await client.create('Later', SHOP_DDL);
    expect(after.status).toBe(200);
    expect(after.body.replayed).toBe(true);
    expect(after.body.data.status).toBe('ready');
  });
});

describe('DDL create whose conversion keeps crashing (worker heap capped at 4 MB)', () => {
  let system: TestSystem;
  let client: ReturnType<typeof api>;

  beforeAll(async () => {
    system = await startTestSystem({ DSS_IMPORT_WAIT_MS: '0', DSS_IMPORT_MAX_HEAP_MB: '4' });
    client = api(system, await writerToken(system));
  });
  afterAll(async () => {
    await system.stop();
  });

  it('should fail the diagram with ddl_import_crashed after the last delivery', async () => {
    const created = await client.create('Crashing', SHOP_DDL);
    expect(created.status).toBe(202);
    const uuid = created.body.data.uuid as string;
    const deadline = Date.now() + 20_000;
    let current = await client.get(uuid);
    while (current.body.data.status === 'importing' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      current = await client.get(uuid);
    }
    expect(current.body.data.status).toBe('failed');
    expect(current.body.data.error.code).toBe('ddl_import_crashed');
  });
});
