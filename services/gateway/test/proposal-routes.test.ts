// The proposal routes through a real gateway in front of real services (the embedded system on free
// ports, a fresh PostgreSQL database, real gRPC between them). Every response is also checked against the
// published OpenAPI description.
import { randomUUID } from 'node:crypto';
import {
  createPool,
  createServiceClient,
  type ServiceClient,
  type ServiceError,
  strongEtag,
} from '@dss/platform';
import { eventually } from '@dss/platform/testing';
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

const APP_URL = 'https://app.example.test';
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const STATUS_KEYS = [
  'uuid',
  'state',
  'opened_at',
  'applied_at',
  'applied_version_uuid',
  'declined_at',
  'decline_reason',
  'expires_at',
  'base_version_uuid',
  'comment_count',
  'open_thread_count',
  'latest_revision',
  'review',
  'lint',
];
/** Names and values in the proposed patches that must never come back in a proposal response. */
const SECRET_WORDS = ['secret_invoices', 'secret_column', 'secret_default'];

const basePatch = () => ({
  strategy: 'merge',
  tables: [
    {
      name: 'customers',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'email', type: 'varchar(255)' },
      ],
    },
  ],
});

const proposalPatch = (extra: Record<string, unknown> = {}) => ({
  strategy: 'merge',
  tables: [
    {
      name: 'secret_invoices',
      left: 40,
      top: 80,
      columns: [{ name: 'secret_column', type: 'varchar(20)', default: 'secret_default' }],
    },
  ],
  deletions: { columns: [{ table: 'customers', columns: ['email'] }] },
  ...extra,
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

describe('Proposal routes (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let proposals: ServiceClient<'Proposals'>;
  const token: Record<'writer' | 'reader' | 'viewer' | 'outsider' | 'starter', string> = {
    writer: '',
    reader: '',
    viewer: '',
    outsider: '',
    starter: '',
  };
  let writerId: string;
  let diagramUuid: string;
  let outsiderDiagram: string;
  let starterDiagram: string;

  async function newDiagram(bearer: string, name = 'Shop'): Promise<string> {
    const response = await call(bearer, 'POST', '/diagrams', {
      name,
      driver: 'pgsql',
      schema: basePatch(),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as Json).data.uuid;
  }

  beforeAll(async () => {
    system = await startTestSystem({ DSS_APP_URL: APP_URL });
    people = new TestPeople(system.grpc.accounts);
    proposals = createServiceClient('Proposals', system.grpc.proposals);
    const writer = await people.member({ team: 'prop', role: 'editor', write: true });
    token.writer = writer.token;
    writerId = writer.userId;
    token.reader = (await people.member({ team: 'prop', role: 'editor' })).token;
    token.viewer = (await people.member({ team: 'prop', role: 'viewer', write: true })).token;
    token.outsider = (await people.member({ team: 'elsewhere', role: 'owner', write: true })).token;
    token.starter = (
      await people.member({ team: 'small', plan: 'starter', role: 'owner', write: true })
    ).token;
    diagramUuid = await newDiagram(token.writer);
    outsiderDiagram = await newDiagram(token.outsider);
    starterDiagram = await newDiagram(token.starter);
  });
  afterAll(async () => {
    people?.close();
    proposals?.close();
    await system?.stop();
  });

  async function callAt(
    apiUrl: string,
    bearer: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.clone().text();
    const json =
      (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    for (const word of SECRET_WORDS) expect(text).not.toContain(word);
    return response;
  }
  const call = (
    bearer: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => callAt(system.apiUrl, bearer, method, path, body, headers);
  const propose = (body: unknown, bearer = token.writer, uuid = diagramUuid) =>
    call(bearer, 'POST', `/diagrams/${uuid}/proposals`, body);
  const status = (uuid: string, bearer = token.reader, headers: Record<string, string> = {}) =>
    call(bearer, 'GET', `/proposals/${uuid}`, undefined, headers);
  const valid = (extra: Record<string, unknown> = {}) => ({
    schema: proposalPatch(),
    title: 'Invoices',
    message: 'Billing needs them',
    ...extra,
  });

  async function sql(text: string, values: unknown[]) {
    const db = createPool(system.env.DATABASE_URL!, { max: 1 });
    try {
      await db.query(text, values);
    } finally {
      await db.end();
    }
  }

  async function expectError(response: Response, httpStatus: number, code: string, extra: Json = {}) {
    expect(response.status).toBe(httpStatus);
    const body = (await response.json()) as Json;
    expect(body).toEqual({ error: { code, message: expect.any(String), ...extra } });
    return body;
  }

  describe('POST /diagrams/{uuid}/proposals', () => {
    it('should answer 201 with uuid, status pending, review_url, expires_at and counts only', async () => {
      const before = Date.now();
      const response = await propose(valid());
      expect(response.status).toBe(201);
      expect(response.headers.get('x-ratelimit-limit')).toEqual(expect.any(String));
      const body = (await response.json()) as Json;
      expect(Object.keys(body)).toEqual(['data']);
      expect(Object.keys(body.data).sort()).toEqual(['counts', 'expires_at', 'review_url', 'status', 'uuid']);
      expect(body.data).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'pending',
        review_url: `${APP_URL}/review/${body.data.uuid}`,
        expires_at: expect.stringMatching(ISO_WITH_OFFSET),
        counts: { tables: 1, columns: 1, relationships: 0, groups: 0, sticky_notes: 0, deletions: 1 },
      });
      const days = (Date.parse(body.data.expires_at) - before) / 86_400_000;
      expect(days).toBeCloseTo(30, 2);
    });

    it('should accept the patch as a JSON string, and create a new proposal for every request', async () => {
      const first = (await (
        await propose(valid({ schema: JSON.stringify(proposalPatch()) }))
      ).json()) as Json;
      const second = (await (
        await propose(valid({ schema: JSON.stringify(proposalPatch()) }))
      ).json()) as Json;
      expect(first.data.status).toBe('pending');
      expect(second.data.uuid).not.toBe(first.data.uuid);
    });

    it('should answer 400 invalid_request when the body is not a JSON object', async () => {
      for (const body of ['[1,2]', '"text"', '42', 'null', '{"broken":'])
        await expectError(await propose(body), 400, 'invalid_request');
    });

    it('should answer 401 without a token or with a bad one', async () => {
      await expectError(await propose(valid(), null as unknown as string), 401, 'unauthenticated');
      expect((await propose(valid(), 'not-a-token')).status).toBe(401);
    });

    it('should answer 403 insufficient_scope for a read-only token and editor_required for a viewer', async () => {
      await expectError(await propose(valid(), token.reader), 403, 'insufficient_scope');
      await expectError(await propose(valid(), token.viewer), 403, 'editor_required');
    });

    it('should answer the same 404 for an unknown, malformed and other-team diagram', async () => {
      const bodies = [];
      for (const uuid of [randomUUID(), 'nope', outsiderDiagram])
        bodies.push(await expectError(await propose(valid(), token.writer, uuid), 404, 'not_found'));
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    });

    it('should answer 409 diagram_not_ready while the diagram is importing', async () => {
      const importing = await newDiagram(token.writer, 'Importing');
      // No DDL import exists yet, so the state is set directly (test only; the API never writes it).
      const db = createPool(system.env.DATABASE_URL!, { max: 1 });
      try {
        await db.query("UPDATE diagrams.diagrams SET status = 'importing' WHERE uuid = $1", [importing]);
      } finally {
        await db.end();
      }
      await expectError(await propose(valid(), token.writer, importing), 409, 'diagram_not_ready');
    });

    it('should answer 413 over 512,000 bytes of schema, as an object or a string, counting UTF-8 bytes', async () => {
      await expectError(
        await propose(valid({ schema: proposalPatch({ padding: 'x'.repeat(512_000) }) })),
        413,
        'payload_too_large',
      );
      await expectError(await propose(valid({ schema: 'x'.repeat(512_001) })), 413, 'payload_too_large');
      await expectError(await propose(valid({ schema: 'é'.repeat(256_001) })), 413, 'payload_too_large');
      // Exactly 512,000 bytes is within the bound: judged as a patch (not JSON), not as too large.
      await expectError(await propose(valid({ schema: 'x'.repeat(512_000) })), 422, 'invalid_schema', {
        errors: expect.any(Array),
      });
    });

    it('should answer 422 invalid_request naming each missing, mistyped or too long field', async () => {
      const cases: [Json, string][] = [
        [{ title: 't', message: 'm' }, 'schema'],
        [valid({ schema: 42 }), 'schema'],
        [valid({ schema: [proposalPatch()] }), 'schema'],
        [{ schema: proposalPatch(), message: 'm' }, 'title'],
        [valid({ title: 7 }), 'title'],
        [valid({ title: 't'.repeat(101) }), 'title'],
        [{ schema: proposalPatch(), title: 't' }, 'message'],
        [valid({ message: false }), 'message'],
        [valid({ message: 'm'.repeat(501) }), 'message'],
      ];
      for (const [body, path] of cases) {
        const error = await expectError(await propose(body), 422, 'invalid_request', {
          errors: [{ path, message: expect.any(String) }],
        });
        expect(error.error.message).toContain(path);
      }
      // The bounds themselves are accepted (characters, not bytes).
      expect((await propose(valid({ title: 'é'.repeat(100), message: 'é'.repeat(500) }))).status).toBe(201);
    });

    it('should answer 422 invalid_schema with up to 15 errors', async () => {
      const broken = {
        strategy: 'merge',
        tables: Array.from({ length: 20 }, (_, i) => ({
          name: `t${i}`,
          columns: [{ name: 'c', type: 'nope' }],
        })),
      };
      const body = await expectError(await propose(valid({ schema: broken })), 422, 'invalid_schema', {
        errors: expect.any(Array),
      });
      expect(body.error.errors.length).toBeGreaterThan(0);
      expect(body.error.errors.length).toBeLessThanOrEqual(15);
    });

    it('should answer 422 plan_limit when the patch would take the diagram past the plan’s tables cap', async () => {
      const tables = Array.from({ length: 50 }, (_, i) => ({
        name: `n${i}`,
        columns: [{ name: 'id', type: 'int' }],
      }));
      await expectError(
        await propose(valid({ schema: { strategy: 'additive', tables } }), token.starter, starterDiagram),
        422,
        'plan_limit',
        { limit_type: 'tables', limit: 50, requested: 51 },
      );
      const fits = { strategy: 'additive', tables: tables.slice(0, 49) };
      expect((await propose(valid({ schema: fits }), token.starter, starterDiagram)).status).toBe(201);
    });
  });

  describe('GET /proposals/{uuid}', () => {
    it('should answer every status field, an ETag, 304 until a change, and a new ETag after it', async () => {
      const created = ((await (await propose(valid())).json()) as Json).data;
      const first = await status(created.uuid);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const body = (await first.json()) as Json;
      expect(Object.keys(body)).toEqual(['data']);
      expect(Object.keys(body.data)).toEqual(STATUS_KEYS);
      expect(body.data).toEqual({
        uuid: created.uuid,
        state: 'pending',
        opened_at: null,
        applied_at: null,
        applied_version_uuid: null,
        declined_at: null,
        decline_reason: null,
        expires_at: created.expires_at,
        base_version_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        comment_count: 0,
        open_thread_count: 0,
        latest_revision: 1,
        review: null,
        // secret_invoices has no primary key (an error); dropping customers.email is destructive (a warning).
        lint: { errors: 1, warnings: 1 },
      });

      const notModified = await status(created.uuid, token.reader, { 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');

      await proposals.DeclineProposal({
        uuid: created.uuid,
        user_id: writerId,
        team_id: '',
        reason: 'Not now',
      });
      const changed = await status(created.uuid, token.reader, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(((await changed.json()) as Json).data).toMatchObject({
        state: 'declined',
        declined_at: expect.stringMatching(ISO_WITH_OFFSET),
        decline_reason: 'Not now',
      });
    });

    it('should serve the proposals service’s ETag, the hash of the exact bytes, and a new one once expired', async () => {
      const created = ((await (await propose(valid())).json()) as Json).data;
      // A short lifetime: the stored expiry moved to a moment from now (test only).
      await sql("UPDATE proposals.proposals SET expires_at = now() + interval '1 second' WHERE uuid = $1", [
        created.uuid,
      ]);
      const pending = await status(created.uuid);
      const pendingEtag = pending.headers.get('etag')!;
      const pendingBody = await pending.text();
      expect(JSON.parse(pendingBody).data.state).toBe('pending');
      expect(pendingEtag).toBe(strongEtag(pendingBody));
      const expiresAt = Date.parse(JSON.parse(pendingBody).data.expires_at);
      while (Date.now() <= expiresAt + 10) await new Promise((resolve) => setTimeout(resolve, 50));

      const expired = await status(created.uuid, token.reader, { 'if-none-match': pendingEtag });
      expect(expired.status).toBe(200);
      const expiredEtag = expired.headers.get('etag')!;
      const expiredBody = await expired.text();
      expect(JSON.parse(expiredBody).data.state).toBe('expired');
      expect(expiredEtag).not.toBe(pendingEtag);
      expect(expiredEtag).toBe(strongEtag(expiredBody));
      const notModified = await status(created.uuid, token.reader, { 'if-none-match': expiredEtag });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('etag')).toBe(expiredEtag);
    });

    it('should show applied_at and applied_version_uuid once applied', async () => {
      const created = (
        (await (
          await propose(
            valid({
              schema: {
                strategy: 'additive',
                tables: [{ name: 'x1', columns: [{ name: 'id', type: 'int' }] }],
              },
            }),
          )
        ).json()) as Json
      ).data;
      await proposals.ApplyProposal({ uuid: created.uuid, user_id: writerId, team_id: '', reason: '' });
      const body = (await (await status(created.uuid)).json()) as Json;
      expect(body.data).toMatchObject({
        state: 'applied',
        applied_at: expect.stringMatching(ISO_WITH_OFFSET),
        applied_version_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        declined_at: null,
      });
    });

    it('should answer the same 404 for an unknown, malformed and other-team proposal', async () => {
      const created = ((await (await propose(valid())).json()) as Json).data;
      const bodies = [];
      for (const [uuid, bearer] of [
        [randomUUID(), token.reader],
        ['nope', token.reader],
        [created.uuid, token.outsider],
      ] as const)
        bodies.push(await expectError(await status(uuid, bearer), 404, 'not_found'));
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect((await status(created.uuid, token.viewer)).status).toBe(200);
    });

    it('should answer 401 without a token', async () => {
      await expectError(await status(randomUUID(), null as unknown as string), 401, 'unauthenticated');
    });
  });

  describe('POST /diagrams/{uuid}/proposals and GET /proposals/{uuid} for a team or member that lapsed', () => {
    it('should answer 403 plan_required on both once the team is on the free plan', async () => {
      const member = await people.member({ team: 'lapsing', role: 'editor', write: true });
      const diagram = await newDiagram(member.token);
      const created = ((await (await propose(valid(), member.token, diagram)).json()) as Json).data;
      expect((await status(created.uuid, member.token)).status).toBe(200);
      await people.accounts.SetPlan({ team_slug: 'lapsing', plan: 'free' });
      await eventually(async () => {
        await expectError(await propose(valid(), member.token, diagram), 403, 'plan_required');
      });
      await expectError(await status(created.uuid, member.token), 403, 'plan_required');
    });

    it('should answer 401 invalid_token on both once the token’s user is no longer a member', async () => {
      const member = await people.member({ team: 'leaving', role: 'editor', write: true });
      const diagram = await newDiagram(member.token);
      const created = ((await (await propose(valid(), member.token, diagram)).json()) as Json).data;
      expect((await status(created.uuid, member.token)).status).toBe(200);
      await people.accounts.RemoveMember({ team_slug: 'leaving', user_email: member.email });
      await eventually(async () => {
        await expectError(await propose(valid(), member.token, diagram), 401, 'invalid_token');
      });
      await expectError(await status(created.uuid, member.token), 401, 'invalid_token');
    });
  });

  describe('GET /proposals/{uuid}/migration of a proposal whose base version moved', () => {
    const retypeEmail = {
      strategy: 'merge',
      tables: [{ name: 'customers', columns: [{ name: 'email', type: 'varchar(320)' }] }],
    };
    const proposeOn = async (diagram: string, schema: unknown) =>
      (
        (await (
          await propose({ schema, title: 'Change', message: 'Needed' }, token.writer, diagram)
        ).json()) as Json
      ).data.uuid as string;
    const applyProposal = (uuid: string) =>
      proposals.ApplyProposal({ uuid, user_id: writerId, team_id: '', reason: '' });

    it('When B changes customers.email and A renames it and A is applied, then B answers 409 conflict naming the column and applying B is refused alike', async () => {
      const diagram = await newDiagram(token.writer, 'Stale base');
      const proposalB = await proposeOn(diagram, retypeEmail);
      const proposalA = await proposeOn(diagram, {
        strategy: 'merge',
        tables: [
          { name: 'customers', columns: [{ name: 'contact', old_name: 'email', type: 'varchar(255)' }] },
        ],
      });
      await applyProposal(proposalA);

      const conflict = {
        entity: 'column',
        table: 'customers',
        column: 'email',
        change: 'renamed',
        reason: 'column customers.email was renamed to contact after the patch was made',
      };
      const body = await expectError(
        await call(token.reader, 'GET', `/proposals/${proposalB}/migration?format=json`),
        409,
        'conflict',
        {
          conflicts: [conflict],
          errors: [{ path: 'tables.customers.columns.email', message: conflict.reason }],
        },
      );
      expect(body.error.message).toContain(conflict.reason);
      await expectError(
        await call(token.reader, 'GET', `/proposals/${proposalB}/migration`),
        409,
        'conflict',
        { conflicts: [conflict], errors: expect.any(Array) },
      );
      const refused = await applyProposal(proposalB).then(
        () => null,
        (error: ServiceError) => error,
      );
      expect(refused).toMatchObject({ code: 'conflict', extra: { conflicts: [conflict] } });
      expect(refused!.message).toContain(body.error.message);
      expect(((await (await status(proposalB)).json()) as Json).data.state).toBe('pending');
    });

    it('When an unrelated change is applied in between, then B’s migration changes only its column', async () => {
      const diagram = await newDiagram(token.writer, 'Moved base');
      const proposalB = await proposeOn(diagram, retypeEmail);
      await applyProposal(
        await proposeOn(diagram, {
          strategy: 'merge',
          tables: [{ name: 'audit', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
        }),
      );
      const response = await call(token.reader, 'GET', `/proposals/${proposalB}/migration?format=json`);
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as Json;
      // Only B's own change: the table added in between is already in the database it runs on.
      const changes = (data.statements as string[]).filter(
        (statement) => !/^(BEGIN|COMMIT)$/.test(statement),
      );
      expect(changes).toEqual([
        expect.stringMatching(/^ALTER TABLE "customers" ALTER COLUMN "email" TYPE .*\(320\)/),
      ]);
      expect((await applyProposal(proposalB)).state).toBe('applied');
    });
  });

  describe('the write rate limit (DSS_RATE_LIMIT_WRITE_PER_MIN=2)', () => {
    let limited: TestSystem;
    let limitedPeople: TestPeople;
    beforeAll(async () => {
      limited = await startTestSystem({ DSS_APP_URL: APP_URL, DSS_RATE_LIMIT_WRITE_PER_MIN: '2' });
      limitedPeople = new TestPeople(limited.grpc.accounts);
    });
    afterAll(async () => {
      limitedPeople?.close();
      await limited?.stop();
    });

    it('should count create and propose together and answer the next propose 429 rate_limited with Retry-After', async () => {
      const { token: bearer } = await limitedPeople.member({ team: 'busy', role: 'editor', write: true });
      const createdDiagram = await callAt(limited.apiUrl, bearer, 'POST', '/diagrams', {
        name: 'Busy',
        driver: 'pgsql',
        schema: basePatch(),
      });
      expect(createdDiagram.status).toBe(201);
      expect(createdDiagram.headers.get('x-ratelimit-limit')).toBe('2');
      const uuid = ((await createdDiagram.json()) as Json).data.uuid;
      const path = `/diagrams/${uuid}/proposals`;
      const first = await callAt(limited.apiUrl, bearer, 'POST', path, valid());
      expect(first.status).toBe(201);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('0');

      const refused = await callAt(limited.apiUrl, bearer, 'POST', path, valid());
      await expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    });
  });
});
