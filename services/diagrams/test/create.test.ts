import { makeRoomForLines } from '@dss/diagram-svg';
import { generatedDiagram, generateSchemaPatch } from '@dss/diagram-svg/src/bench/schema-generator';
import {
  createFromPatch,
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  shopPatch,
  startDiagramsHarness,
  tablesPatch,
  APP_URL,
} from './helpers';

describe('Diagrams.CreateDiagram from a schema patch (real PostgreSQL, real gRPC)', () => {
  let harness: DiagramsHarness;

  beforeAll(async () => {
    harness = await startDiagramsHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  const query = (sql: string, params: unknown[] = []) => harness.service.pool.query(sql, params);

  describe('a valid patch', () => {
    it('should create a ready diagram with links, counts and the ignored keys as warnings', async () => {
      const principal = newPrincipal({ slug: 'acme' });
      const patch = shopPatch({ colour: 'blue' });
      (patch.tables[0] as Record<string, unknown>).owner = 'sales';
      const created = await createFromPatch(harness.client, principal, patch, {
        name: '  Shop Database  ',
        driver: 'pgsql',
      });

      const diagram = created.diagram!;
      expect(diagram).toMatchObject({
        name: 'Shop Database',
        slug: 'shop-database',
        status: 'ready',
        table_count: 2,
        driver: 'pgsql',
        team_slug: 'acme',
        team_name: 'Team acme',
        url: `${APP_URL}/diagrams/${diagram.uuid}`,
        embed_url: `${APP_URL}/embed/${diagram.uuid}`,
      });
      expect(diagram.error).toBeFalsy();
      expect(diagram.description).toBeUndefined();
      expect(Date.parse(diagram.updated_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(JSON.parse(created.counts_json)).toEqual({
        tables: 2,
        columns: 4,
        indexes: 1,
        relationships: 1,
        groups: 0,
        sticky_notes: 0,
      });
      const warnings = JSON.parse(created.warnings_json);
      expect(warnings).toEqual([
        expect.objectContaining({ code: 'unknown_key', path: 'tables[0]', key: 'owner' }),
        expect.objectContaining({ code: 'unknown_key', path: '', key: 'colour' }),
      ]);
      expect(created.replayed).toBe(false);
      expect(created.poll_after_seconds).toBe(2);
    });

    it('should default the name to Untitled and the driver to mysql', async () => {
      const created = await createFromPatch(harness.client, newPrincipal());
      expect(created.diagram).toMatchObject({ name: 'Untitled', slug: 'untitled', driver: 'mysql' });
    });

    it('should compute a layout: every table gets a position and a size', async () => {
      const created = await createFromPatch(harness.client, newPrincipal());
      const { rows } = await query('SELECT document FROM diagrams.diagram_contents WHERE diagram_uuid = $1', [
        created.diagram!.uuid,
      ]);
      const tables = JSON.parse(rows[0].document).tables as {
        left: number;
        top: number;
        width: number;
        height: number;
      }[];
      expect(tables).toHaveLength(2);
      for (const table of tables) {
        for (const field of ['left', 'top', 'width', 'height'] as const)
          expect(Number.isFinite(table[field])).toBe(true);
        expect(table.width).toBeGreaterThan(0);
      }
      const [a, b] = tables;
      expect(a!.left !== b!.left || a!.top !== b!.top).toBe(true);
    });

    it('should lay out a large schema as an import does, room for its lines included', async () => {
      const shape = { tables: 120, relationships: 280 };
      const framesOf = (tables: { name: string; left: number; top: number }[]) =>
        Object.fromEntries(tables.map((table) => [table.name, [table.left, table.top]]));
      const storedTables = async (uuid: string) => {
        const { rows } = await query(
          'SELECT document FROM diagrams.diagram_contents WHERE diagram_uuid = $1',
          [uuid],
        );
        return JSON.parse(rows[0].document).tables as { name: string; left: number; top: number }[];
      };
      const laidOut = await createFromPatch(harness.client, newPrincipal(), generateSchemaPatch(shape), {
        driver: 'pgsql',
      });
      const expected = makeRoomForLines(generatedDiagram(shape));
      expect(framesOf(await storedTables(laidOut.diagram!.uuid))).toEqual(framesOf(expected.tables));
      // The step moved tables: the layout alone puts some elsewhere.
      expect(framesOf(generatedDiagram(shape).tables)).not.toEqual(framesOf(expected.tables));
    });

    it('should write the first version with author, source create, source id and the document', async () => {
      const principal = newPrincipal();
      const created = await createFromPatch(harness.client, principal);
      const uuid = created.diagram!.uuid;
      const { rows } = await query(
        'SELECT author_user_id, source, source_id, document FROM diagrams.diagram_versions WHERE diagram_uuid = $1',
        [uuid],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        author_user_id: principal.user_id,
        source: 'create',
        source_id: principal.token_id,
      });
      expect(
        JSON.parse(rows[0].document)
          .tables.map((t: { name: string }) => t.name)
          .sort(),
      ).toEqual(['customers', 'orders']);
      const versions = await harness.client.ListVersions({ principal, uuid });
      expect(versions.versions).toHaveLength(1);
      expect(versions.versions[0]).toMatchObject({ source: 'create', author_user_id: principal.user_id });
      expect(versions.versions[0]!.created_at).toBe(created.diagram!.updated_at);
      const stored = await query(
        `SELECT v.document = c.document AS same FROM diagrams.diagram_versions v
           JOIN diagrams.diagram_contents c USING (diagram_uuid) WHERE v.diagram_uuid = $1`,
        [uuid],
      );
      expect(stored.rows).toEqual([{ same: true }]);
    });

    it('should store the document and its representations with lz4 where the server offers it', async () => {
      const offered = await query(
        `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
      );
      const { rows } = await query(
        `SELECT attrelid::regclass::text AS relation, attname, attcompression FROM pg_attribute
          WHERE attrelid IN ('diagrams.diagram_contents'::regclass, 'diagrams.diagram_versions'::regclass)
            AND attname IN ('document', 'schema_json', 'markdown_detailed', 'markdown_simple', 'full_document_json')
          ORDER BY 1, 2`,
      );
      expect(rows).toHaveLength(6);
      const expected = offered.rows[0]?.lz4 === true ? 'l' : '';
      for (const row of rows)
        expect(`${row.relation}.${row.attname} ${row.attcompression}`).toBe(
          `${row.relation}.${row.attname} ${expected}`,
        );
    });

    it('should store the diagram as private and emit diagrams.changed in the same transaction', async () => {
      const principal = newPrincipal();
      const created = await createFromPatch(harness.client, principal);
      const uuid = created.diagram!.uuid;
      const { rows } = await query('SELECT private FROM diagrams.diagrams WHERE uuid = $1', [uuid]);
      expect(rows[0].private).toBe(true);
      const events = await query(
        `SELECT subject, payload FROM diagrams.outbox WHERE payload->>'diagram_uuid' = $1`,
        [uuid],
      );
      expect(events.rows).toEqual([
        {
          subject: 'diagrams.changed',
          payload: expect.objectContaining({
            diagram_uuid: uuid,
            team_id: principal.team_id,
            source: 'create',
          }),
        },
      ]);
    });
  });

  describe('an empty diagram (the web app\'s "New diagram", empty start)', () => {
    it('should create a ready diagram with no tables and a first version, at once', async () => {
      const principal = newPrincipal();
      const created = await harness.client.CreateDiagram({
        principal,
        name: 'Blank',
        driver: 'pgsql',
        empty: true,
      });
      expect(created.diagram).toMatchObject({
        name: 'Blank',
        driver: 'pgsql',
        status: 'ready',
        table_count: 0,
      });
      const full = await harness.client.GetFullDocument({ principal, uuid: created.diagram!.uuid });
      expect(JSON.parse(full.body).data).toMatchObject({ driver: 'pgsql', tables: [], relationships: [] });
      const versions = await harness.client.ListVersions({ principal, uuid: created.diagram!.uuid });
      expect(versions.versions.map((version) => version.source)).toEqual(['create']);
    });

    it('should refuse an empty create that also sends ddl, schema or dbml', async () => {
      const principal = newPrincipal();
      const error = await failureOf(
        harness.client.CreateDiagram({ principal, name: '', driver: '', empty: true, schema_json: '{}' }),
      );
      expect(error.code).toBe('invalid_request');
    });
  });

  describe('events', () => {
    it('should publish diagrams.changed on the bus through the outbox after a create', async () => {
      const principal = newPrincipal();
      const received: { diagram_uuid: string; source: string }[] = [];
      const subscription = await harness.bus.subscribe('diagrams.changed', (message) => {
        received.push(message.data as { diagram_uuid: string; source: string });
      });
      try {
        const uuid = (await createFromPatch(harness.client, principal)).diagram!.uuid;
        const deadline = Date.now() + 5000;
        while (!received.some((event) => event.diagram_uuid === uuid) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(received.find((event) => event.diagram_uuid === uuid)).toMatchObject({ source: 'create' });
      } finally {
        await subscription.unsubscribe();
      }
    });
  });

  describe('request fields', () => {
    it('should refuse a driver that is not mysql, pgsql or sqlsrv, naming the field', async () => {
      const error = await failureOf(
        createFromPatch(harness.client, newPrincipal(), shopPatch(), { driver: 'oracle' }),
      );
      expect(error.code).toBe('invalid_request');
      expect(error.extra.errors).toEqual([{ path: 'driver', message: expect.stringContaining('mysql') }]);
    });

    it('should refuse a name longer than 255 characters, naming the field', async () => {
      const error = await failureOf(
        createFromPatch(harness.client, newPrincipal(), shopPatch(), { name: 'n'.repeat(256) }),
      );
      expect(error.code).toBe('invalid_request');
      expect(error.extra.errors?.[0]?.path).toBe('name');
      const ok = await createFromPatch(harness.client, newPrincipal(), shopPatch(), {
        name: 'é'.repeat(255),
      });
      expect(ok.diagram!.name).toBe('é'.repeat(255));
    });

    it('should refuse none or more than one of ddl, schema and dbml, naming the three fields', async () => {
      const principal = newPrincipal();
      for (const request of [
        { principal, name: '', driver: '' },
        { principal, name: '', driver: '', ddl: 'CREATE TABLE a (id int);', schema_json: '{}' },
        { principal, name: '', driver: '', ddl: 'CREATE TABLE a (id int);', dbml: 'Table a {\n id int\n}' },
      ]) {
        const error = await failureOf(harness.client.CreateDiagram(request));
        expect(error.code).toBe('invalid_request');
        expect(error.extra.errors?.map((problem) => problem.path)).toEqual(['ddl', 'schema', 'dbml']);
      }
    });

    it('should refuse a schema that is not a JSON object', async () => {
      for (const schema_json of ['[1, 2]', 'not json', '"text"']) {
        const error = await failureOf(
          harness.client.CreateDiagram({ principal: newPrincipal(), name: '', driver: '', schema_json }),
        );
        expect(error.code).toBe('invalid_request');
        expect(error.extra.errors?.[0]?.path).toBe('schema');
      }
    });

    it('should refuse DDL nested deeper than the limit (parentheses, block comments) with invalid_request naming the place', async () => {
      for (const [ddl, what, line] of [
        [`CREATE TABLE a (id int DEFAULT ${'('.repeat(5000)}1${')'.repeat(5000)});`, 'parentheses', 1],
        [`CREATE TABLE a (id int);\n${'/*'.repeat(5000)} x ${'*/'.repeat(5000)}`, 'block comments', 2],
      ] as const) {
        const error = await failureOf(
          harness.client.CreateDiagram({ principal: newPrincipal(), name: '', driver: 'mysql', ddl }),
        );
        expect(error.code).toBe('invalid_request');
        expect(error.message).toMatch(
          new RegExp(`nests ${what} deeper than 64 levels at line ${line}, column`),
        );
        expect(error.extra.errors?.map((problem) => problem.path)).toEqual(['ddl']);
      }
    });

    it('should answer payload_too_large for a schema over 500KB and a ddl over 200KB', async () => {
      const big = JSON.stringify({ ...shopPatch(), padding: 'x'.repeat(512_000) });
      const schemaError = await failureOf(
        harness.client.CreateDiagram({ principal: newPrincipal(), name: '', driver: '', schema_json: big }),
      );
      expect(schemaError.code).toBe('payload_too_large');
      const ddlError = await failureOf(
        harness.client.CreateDiagram({
          principal: newPrincipal(),
          name: '',
          driver: '',
          ddl: 'x'.repeat(204_801),
        }),
      );
      expect(ddlError.code).toBe('payload_too_large');
      const dbmlError = await failureOf(
        harness.client.CreateDiagram({
          principal: newPrincipal(),
          name: '',
          driver: '',
          dbml: 'x'.repeat(204_801),
        }),
      );
      expect(dbmlError.code).toBe('payload_too_large');
    });
  });

  describe('patch validation', () => {
    it('should answer no_tables for a patch without tables', async () => {
      const error = await failureOf(createFromPatch(harness.client, newPrincipal(), { strategy: 'merge' }));
      expect(error.code).toBe('no_tables');
      expect(error.message).toMatch(/no tables/);
    });

    it('should answer unsupported_field with the paths of every canvas position or size', async () => {
      const patch = shopPatch();
      Object.assign(patch.tables[0]!, { left: 10, top: 20 });
      Object.assign(patch.tables[1]!, { width: 300 });
      const error = await failureOf(createFromPatch(harness.client, newPrincipal(), patch));
      expect(error.code).toBe('unsupported_field');
      expect([...(error.extra.paths ?? [])].sort()).toEqual([
        'tables[0].left',
        'tables[0].top',
        'tables[1].width',
      ]);
    });

    it('should answer invalid_schema with at most 15 problems, each with path and message', async () => {
      const patch = {
        strategy: 'merge',
        tables: Array.from({ length: 20 }, (_, i) => ({
          name: `t${i}`,
          columns: [{ name: 'id', type: 'no_such_type' }],
        })),
      };
      const error = await failureOf(createFromPatch(harness.client, newPrincipal(), patch));
      expect(error.code).toBe('invalid_schema');
      expect(error.extra.errors).toHaveLength(15);
      for (const problem of error.extra.errors ?? []) {
        expect(typeof problem.path).toBe('string');
        expect(typeof problem.message).toBe('string');
      }
      expect(error.extra.errors?.[0]?.path).toMatch(/^tables\[0\]\.columns\[0\]/);
    });

    it('should store nothing for a refused patch', async () => {
      const principal = newPrincipal();
      await failureOf(createFromPatch(harness.client, principal, { strategy: 'merge' }));
      const { rows } = await query('SELECT count(*)::int AS n FROM diagrams.diagrams WHERE team_id = $1', [
        principal.team_id,
      ]);
      expect(rows[0].n).toBe(0);
    });
  });

  describe('plan caps', () => {
    it('should answer plan_limit tables with the limit and the requested count', async () => {
      const principal = newPrincipal({ caps: { max_tables_per_diagram: 3 } });
      const error = await failureOf(createFromPatch(harness.client, principal, tablesPatch(4)));
      expect(error.code).toBe('plan_limit');
      expect(error.extra).toEqual({ limit_type: 'tables', limit: 3, requested: 4 });
      const atCap = await createFromPatch(harness.client, principal, tablesPatch(3));
      expect(atCap.diagram!.table_count).toBe(3);
    });

    it('should answer plan_limit private_diagrams with the limit once the team is at its cap', async () => {
      const principal = newPrincipal({ caps: { max_private_diagrams: 2 } });
      await createFromPatch(harness.client, principal, tablesPatch(1, 'a'));
      await createFromPatch(harness.client, principal, tablesPatch(1, 'b'));
      const error = await failureOf(createFromPatch(harness.client, principal, tablesPatch(1, 'c')));
      expect(error.code).toBe('plan_limit');
      expect(error.extra).toEqual({ limit_type: 'private_diagrams', limit: 2 });
    });

    it('should count only the caller team’s diagrams against the private cap', async () => {
      const full = newPrincipal({ caps: { max_private_diagrams: 1 } });
      await createFromPatch(harness.client, full);
      const other = newPrincipal({ caps: { max_private_diagrams: 1 } });
      const created = await createFromPatch(harness.client, other);
      expect(created.diagram!.status).toBe('ready');
    });

    it('should not let concurrent creates pass the private cap together', async () => {
      const principal = newPrincipal({ caps: { max_private_diagrams: 3 } });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          createFromPatch(harness.client, principal, tablesPatch(1, `p${i}_`)),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          expect((outcome.reason as { code: string }).code).toBe('plan_limit');
    });
  });
});
