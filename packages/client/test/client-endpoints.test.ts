// Every endpoint of the API through the client, against the embedded stack.
import { createDssClient, type DssClient, DssApiError } from '../src';
import { shopPatch, startTestStack, type TestStack } from './support/test-stack';

describe('DssClient', () => {
  let stack: TestStack;
  let writer: DssClient;
  let diagramUuid: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const member = await stack.member({ role: 'editor', write: true });
    writer = createDssClient({ baseUrl: stack.apiUrl, token: member.token });
    const created = await writer.createDiagram({ name: 'Shop', driver: 'pgsql', schema: shopPatch() });
    diagramUuid = created.data.uuid;
  });
  afterAll(async () => {
    await stack.stop();
  });

  describe('.createDiagram()', () => {
    it('should answer 201 with a ready diagram and its counts for a patch', async () => {
      const created = await writer.createDiagram({ name: 'Fresh', schema: shopPatch('a_') });
      expect(created.httpStatus).toBe(201);
      expect(created.data.status).toBe('ready');
      expect(created.data.table_count).toBe(2);
      expect(created.counts).toMatchObject({ tables: 2, columns: 4, relationships: 1 });
      expect(created.replayed).toBe(false);
    });

    it('should answer 200 replayed with the same diagram for an identical request', async () => {
      const body = { name: 'Twice', schema: shopPatch('b_') };
      const first = await writer.createDiagram(body);
      const again = await writer.createDiagram(body);
      expect(again.httpStatus).toBe(200);
      expect(again.replayed).toBe(true);
      expect(again.data.uuid).toBe(first.data.uuid);
    });

    it('should answer 201 ready for DDL that imports inside the request', async () => {
      const created = await writer.createDiagram({
        name: 'From DDL',
        driver: 'mysql',
        ddl: 'CREATE TABLE posts (id INT PRIMARY KEY AUTO_INCREMENT, title VARCHAR(200) NOT NULL);',
      });
      expect(created.httpStatus).toBe(201);
      expect(created.data).toMatchObject({ status: 'ready', table_count: 1 });
    });
  });

  describe('.listDiagrams() and .getDiagram()', () => {
    it('should list the diagram and read it by uuid', async () => {
      const page = await writer.listDiagrams({ limit: 100 });
      expect(page.data.map((d) => d.uuid)).toContain(diagramUuid);
      const diagram = await writer.getDiagram(diagramUuid);
      expect(diagram).toMatchObject({ uuid: diagramUuid, name: 'Shop', status: 'ready', table_count: 2 });
      expect(diagram.url).toMatch(/^http/);
    });
  });

  describe('.updateDiagram() and .duplicateDiagram()', () => {
    it('should rename and describe a diagram, leaving its schema as it was', async () => {
      const created = await writer.createDiagram({ name: 'To rename', schema: shopPatch('r_') });
      const before = await writer.getSchema(created.data.uuid);
      const renamed = await writer.updateDiagram(created.data.uuid, { name: 'Renamed', description: 'Why' });
      expect(renamed).toMatchObject({ uuid: created.data.uuid, name: 'Renamed', description: 'Why' });
      expect(await writer.getSchema(created.data.uuid)).toEqual(before);
    });

    it('should duplicate a diagram into a new one with the same schema', async () => {
      const copy = await writer.duplicateDiagram(diagramUuid, { name: 'Copy of shop' });
      expect(copy.data).toMatchObject({ name: 'Copy of shop', status: 'ready', table_count: 2 });
      expect(copy.counts.tables).toBe(2);
      expect(await writer.getSchema(copy.data.uuid)).toEqual(await writer.getSchema(diagramUuid));
      expect((await writer.duplicateDiagram(diagramUuid)).data.name).toMatch(/\(copy\)$/);
    });

    it('should throw invalid_request (422) naming a field the endpoint does not change', async () => {
      const error = await writer
        // biome-ignore lint/suspicious/noExplicitAny: a body the types forbid, as a careless caller sends it
        .updateDiagram(diagramUuid, { schema: shopPatch() } as any)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DssApiError);
      expect(error).toMatchObject({ status: 422, code: 'invalid_request' });
      expect((error as DssApiError).errors?.map((entry) => entry.path)).toEqual(['schema']);
    });
  });

  describe('.getSchema(), .getSchemaMarkdown() and .getDiagramDocument()', () => {
    it('should read the schema as JSON with tables sorted by name', async () => {
      const schema = await writer.getSchema(diagramUuid);
      expect(schema.driver).toBe('pgsql');
      expect(schema.tables.map((t) => t.name)).toEqual(['customers', 'orders']);
      expect(schema.relationships).toHaveLength(1);
    });

    it('should read one version’s schema as the current one is read, and refuse a version that does not exist', async () => {
      expect(await writer.getVersionSchema(diagramUuid, 1)).toEqual(await writer.getSchema(diagramUuid));
      await expect(writer.getVersionSchema(diagramUuid, 999)).rejects.toMatchObject({
        status: 404,
        code: 'not_found',
      });
    });

    it('should read the Markdown rendering, with types at the detailed level and without at the simple one', async () => {
      const detailed = await writer.getSchemaMarkdown(diagramUuid);
      const simple = await writer.getSchemaMarkdown(diagramUuid, { level: 'simple' });
      expect(detailed).toContain('customers');
      expect(detailed).toMatch(/bigint/i);
      expect(simple).toContain('customer_id');
      expect(simple).not.toMatch(/bigint/i);
    });

    it('should read the full document with canvas frames', async () => {
      const document = await writer.getDiagramDocument(diagramUuid);
      expect(document.tables).toHaveLength(2);
      expect(typeof document.tables[0]?.left).toBe('number');
      expect(document.groups).toEqual([]);
    });
  });

  describe('.listDataTypes() and .getSchemaPatchContract()', () => {
    it('should read one driver of the catalog, or all three', async () => {
      const pgsql = await writer.listDataTypes('pgsql');
      expect(Object.keys(pgsql)).toEqual(['pgsql']);
      expect(pgsql.pgsql?.map((entry) => entry.name)).toContain('bigint');
      expect(Object.keys(await writer.listDataTypes()).sort()).toEqual(['mysql', 'pgsql', 'sqlsrv']);
    });

    it('should read the patch contract document', async () => {
      const contract = await writer.getSchemaPatchContract();
      expect(contract.type).toBe('object');
      expect(Object.keys(contract.properties)).toEqual(expect.arrayContaining(['strategy', 'tables']));
    });
  });

  describe('.proposeChanges(), .getProposal() and .getProposalIfChanged()', () => {
    it('should store a pending proposal with counts and read its state, then 304 on its ETag', async () => {
      const proposal = await writer.proposeChanges(diagramUuid, {
        title: 'Add status',
        message: 'Support filters orders by status',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'orders', columns: [{ name: 'status', type: 'varchar(20)' }] }],
        },
      });
      expect(proposal.status).toBe('pending');
      expect(proposal.counts).toMatchObject({ tables: 1, columns: 1, deletions: 0 });
      expect(proposal.review_url).toMatch(/^http/);

      const status = await writer.getProposal(proposal.uuid);
      expect(status).toMatchObject({ uuid: proposal.uuid, state: 'pending', applied_at: null });

      const first = await writer.getProposalIfChanged(proposal.uuid);
      expect(first.notModified).toBe(false);
      const second = await writer.getProposalIfChanged(proposal.uuid, first.etag);
      expect(second).toEqual({ notModified: true, etag: first.etag });
    });
  });

  describe('.waitForProposal()', () => {
    it('should poll with If-None-Match through 304s until the proposal is applied', async () => {
      const statuses: number[] = [];
      const sleeps: number[] = [];
      const member = await stack.member({ role: 'editor', write: true });
      const client = createDssClient({
        baseUrl: stack.apiUrl,
        token: member.token,
        fetch: async (request) => {
          const response = await fetch(request);
          if (request.url.includes('/proposals/')) statuses.push(response.status);
          return response;
        },
      });
      const { data } = await client.createDiagram({ name: 'Reviewed', schema: shopPatch() });
      const proposal = await client.proposeChanges(data.uuid, {
        title: 'Drop orders',
        message: 'Orders move to another service',
        schema: { strategy: 'merge', deletions: { tables: ['orders'] } },
      });

      const final = await client.waitForProposal(proposal.uuid, {
        intervalSeconds: 7,
        sleep: async (milliseconds) => {
          sleeps.push(milliseconds);
          // The reviewer applies it during the second wait, so the poll before it sees no change (304).
          if (sleeps.length === 2) await stack.review(proposal.uuid, member.email, 'apply');
        },
      });

      expect(final.state).toBe('applied');
      expect(final.applied_version_uuid).toEqual(expect.any(String));
      expect(sleeps).toEqual([7000, 7000]);
      expect(statuses).toEqual([200, 304, 200]);
    });
  });

  describe('errors', () => {
    const rejection = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error('expected the call to be rejected');
        },
        (error: unknown) => error as DssApiError,
      );

    it('should throw not_found (404) for an unknown diagram', async () => {
      const error = await rejection(writer.getDiagram('00000000-0000-4000-8000-000000000000'));
      expect(error).toBeInstanceOf(DssApiError);
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
    });

    it('should throw invalid_schema (422) with the problems of a bad patch', async () => {
      const error = await rejection(
        writer.createDiagram({
          schema: {
            strategy: 'merge',
            tables: [{ name: 'things', columns: [{ name: 'x', type: 'no_such_type' }] }],
          },
        }),
      );
      expect(error).toMatchObject({ status: 422, code: 'invalid_schema' });
      expect(error.errors?.[0]).toEqual({
        path: expect.stringContaining('tables[0].columns[0]'),
        message: expect.any(String),
      });
    });

    it('should throw unsupported_field with the paths of canvas positions on create', async () => {
      const schema = {
        strategy: 'merge' as const,
        tables: [{ name: 't', left: 10, columns: [{ name: 'id', type: 'int' }] }],
      };
      const error = await rejection(writer.createDiagram({ schema }));
      expect(error).toMatchObject({ status: 422, code: 'unsupported_field', paths: ['tables[0].left'] });
    });

    it('should throw invalid_request (422) for a bad query parameter', async () => {
      const error = await rejection(writer.listDiagrams({ limit: 0 }));
      expect(error).toMatchObject({ status: 422, code: 'invalid_request' });
    });

    it('should throw insufficient_scope (403) when a read-only token creates', async () => {
      const reader = await stack.member({ role: 'editor', write: false });
      const client = createDssClient({ baseUrl: stack.apiUrl, token: reader.token });
      const error = await rejection(client.createDiagram({ schema: shopPatch() }));
      expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' });
    });

    it('should throw editor_required (403) when a viewer proposes', async () => {
      const editor = await stack.member({ role: 'editor', write: true });
      const viewer = await stack.member({ role: 'viewer', write: true, team: editor.team });
      const editorClient = createDssClient({ baseUrl: stack.apiUrl, token: editor.token });
      const { data } = await editorClient.createDiagram({ name: 'Team diagram', schema: shopPatch() });
      const viewerClient = createDssClient({ baseUrl: stack.apiUrl, token: viewer.token });
      expect((await viewerClient.getDiagram(data.uuid)).uuid).toBe(data.uuid);
      const error = await rejection(
        viewerClient.proposeChanges(data.uuid, {
          title: 't',
          message: 'm',
          schema: { strategy: 'additive', tables: [{ name: 'x', columns: [{ name: 'id', type: 'int' }] }] },
        }),
      );
      expect(error).toMatchObject({ status: 403, code: 'editor_required' });
    });

    it('should throw plan_required (403) for a team on the free plan', async () => {
      const free = await stack.member({ plan: 'free' });
      const client = createDssClient({ baseUrl: stack.apiUrl, token: free.token });
      expect(await rejection(client.listDiagrams())).toMatchObject({ status: 403, code: 'plan_required' });
    });

    it('should throw unauthenticated (401) for a token that is not one', async () => {
      const client = createDssClient({ baseUrl: stack.apiUrl, token: 'not-a-token' });
      expect(await rejection(client.listDataTypes())).toMatchObject({ status: 401, code: 'unauthenticated' });
    });

    it('should refuse to build a client without a token', () => {
      expect(() => createDssClient({ baseUrl: stack.apiUrl, token: '' })).toThrow(/token/);
    });
  });
});
