// The proposal state machine over real gRPC, real PostgreSQL and real NATS: every transition of the
// spec's table and every refused one, expiry computed on read, the sweeper, and the proposals.changed
// events of each transition.
import { randomUUID } from 'node:crypto';
import { createServiceClient, type ServiceClient } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import { twoTableShopPatch } from '@dss/system';
import { Client } from 'pg';
import { sweepExpired } from '../src/sweeper';
import {
  APP_URL,
  addPatch,
  createDiagram,
  failureOf,
  type Member,
  memberWithPrincipal,
  type ProposalsHarness,
  startProposalsHarness,
  startTestSystem,
  TestPeople,
  type TestSystem,
  waitUntil,
} from './helpers';

const DAY_MS = 86_400_000;

describe('proposals lifecycle (real services, PostgreSQL and NATS)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let normal: ProposalsHarness;
  let short: ProposalsHarness;
  let diagrams: ServiceClient<'Diagrams'>;
  let editor: Member;
  let owner: Member;
  let viewer: Member;
  let outsider: Member;
  let diagramUuid: string;

  beforeAll(async () => {
    system = await startTestSystem({ DSS_APP_URL: APP_URL });
    people = new TestPeople(system.grpc.accounts);
    await people.team('lc');
    await people.team('other');
    editor = await memberWithPrincipal(people, 'lc', 'editor');
    owner = await memberWithPrincipal(people, 'lc', 'owner');
    viewer = await memberWithPrincipal(people, 'lc', 'viewer');
    outsider = await memberWithPrincipal(people, 'other', 'owner');
    diagramUuid = await createDiagram(system, editor.principal);
    diagrams = createServiceClient('Diagrams', system.grpc.diagrams);
    normal = await startProposalsHarness(system, { DSS_PROPOSAL_SWEEP_INTERVAL_MS: '100' });
    // Lifetime 2 s and no sweeps during the test (the sweeper is called by hand).
    short = await startProposalsHarness(system, {
      DSS_PROPOSAL_LIFETIME_SECONDS: '2',
      DSS_PROPOSAL_SWEEP_INTERVAL_MS: '3600000',
    });
  });

  afterAll(async () => {
    diagrams?.close();
    people?.close();
    await short?.stop();
    await normal?.stop();
    await system?.stop();
  });

  const propose = (harness: ProposalsHarness, patch: unknown = addPatch(), by: Member = editor) =>
    harness.client.CreateProposal({
      principal: by.principal,
      diagram_uuid: diagramUuid,
      schema_json: JSON.stringify(patch),
      title: 'Add invoices',
      message: 'Billing needs them',
    });
  const get = (harness: ProposalsHarness, uuid: string, by: Member = editor) =>
    harness.client.GetProposal({ principal: by.principal, uuid });
  const review = (by: Member, reason = '') => ({ user_id: by.userId, team_id: '', reason });
  const transitionsOf = (harness: ProposalsHarness, uuid: string) =>
    harness.events.filter((e) => e.data.proposal_uuid === uuid).map((e) => e.data.transition);
  const waitForEvents = (harness: ProposalsHarness, uuid: string, expected: string[]) =>
    waitUntil(`events ${expected.join(', ')}`, () => transitionsOf(harness, uuid).length >= expected.length);

  async function storedRow(harness: ProposalsHarness, uuid: string) {
    const client = new Client({ connectionString: harness.database.url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT * FROM proposals.proposals WHERE uuid = $1', [uuid]);
      return rows[0];
    } finally {
      await client.end();
    }
  }
  const storedState = async (harness: ProposalsHarness, uuid: string): Promise<string> =>
    (await storedRow(harness, uuid)).state;

  async function fullDocument(uuid: string): Promise<DiagramDocument> {
    const full = await diagrams.GetFullDocument({ principal: editor.principal, uuid });
    return (JSON.parse(full.body) as { data: DiagramDocument }).data;
  }

  it('should create a pending proposal with review link, counts and a 30-day expiry, and announce it', async () => {
    const before = Date.now();
    const created = await propose(normal);
    expect(created.state).toBe('pending');
    expect(created.review_url).toBe(`${APP_URL}/review/${created.uuid}`);
    expect(created.counts).toEqual({
      tables: 2,
      columns: 2,
      relationships: 0,
      groups: 0,
      sticky_notes: 0,
      deletions: 0,
    });
    const lifetime = Date.parse(created.expires_at) - before;
    expect(lifetime).toBeGreaterThanOrEqual(30 * DAY_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * DAY_MS + 60_000);
    expect(created.opened_at).toBeUndefined();
    expect(created.team_id).toBe(editor.principal.team_id);
    expect(created.author_user_id).toBe(editor.userId);
    await waitForEvents(normal, created.uuid, ['created']);
    const event = normal.events.find((e) => e.data.proposal_uuid === created.uuid)!;
    expect(event.data).toEqual({
      proposal_uuid: created.uuid,
      diagram_uuid: diagramUuid,
      team_id: editor.principal.team_id,
      transition: 'created',
      state: 'pending',
      at: expect.any(String),
    });
  });

  it('should apply a pending proposal once, record the version, change the diagram and refuse every later move', async () => {
    const created = await propose(normal, addPatch('applied_table'));
    const applied = await normal.client.ApplyProposal({ uuid: created.uuid, ...review(owner) });
    expect(applied.state).toBe('applied');
    expect(applied.applied_at).toEqual(expect.any(String));
    expect(applied.applied_version_uuid).toMatch(/^[0-9a-f-]{36}$/);
    const { versions } = await diagrams.ListVersions({ principal: editor.principal, uuid: diagramUuid });
    expect(versions.map((v) => v.uuid)).toContain(applied.applied_version_uuid);
    const version = versions.find((v) => v.uuid === applied.applied_version_uuid)!;
    expect(version).toMatchObject({ author_user_id: owner.userId, source_id: created.uuid });
    const schema = await diagrams.GetSchema({
      principal: editor.principal,
      uuid: diagramUuid,
      format: 'json',
    });
    expect(schema.body).toContain('applied_table');

    const again = await failureOf(normal.client.ApplyProposal({ uuid: created.uuid, ...review(owner) }));
    expect(again.code).toBe('conflict');
    expect(again.message).toMatch(/already applied/);
    const decline = await failureOf(normal.client.DeclineProposal({ uuid: created.uuid, ...review(owner) }));
    expect(decline.code).toBe('conflict');
    expect(decline.message).toMatch(/already applied/);
    const reopen = await failureOf(normal.client.ReopenProposal({ uuid: created.uuid, ...review(owner) }));
    expect(reopen.code).toBe('conflict');
    expect(reopen.message).toMatch(/only an expired proposal/);
    expect((await get(normal, created.uuid)).state).toBe('applied');
    await waitForEvents(normal, created.uuid, ['created', 'applied']);
    expect(transitionsOf(normal, created.uuid)).toEqual(['created', 'applied']);
    const counted = await normal.metrics.registry.getSingleMetricAsString('dss_proposal_transitions_total');
    expect(counted).toMatch(/dss_proposal_transitions_total\{[^}]*transition="applied"[^}]*\} [1-9]/);
  });

  it('should apply the full patch format: renames keep their uuid, tables land where sent, groups and notes exist', async () => {
    // A third table makes it a different create (an identical one would replay the shared diagram).
    const shopUuid = await createDiagram(
      system,
      editor.principal,
      twoTableShopPatch({
        tables: [...twoTableShopPatch().tables, { name: 'regions', columns: [{ name: 'id', type: 'int' }] }],
      }),
    );
    const before = await fullDocument(shopUuid);
    const customers = before.tables.find((t) => t.name === 'customers')!;
    const email = customers.columns.find((c) => c.name === 'email')!;
    const created = await normal.client.CreateProposal({
      principal: editor.principal,
      diagram_uuid: shopUuid,
      schema_json: JSON.stringify({
        strategy: 'merge',
        tables: [
          {
            name: 'clients',
            old_name: 'customers',
            parent_name: 'Sales',
            left: 480,
            top: 320,
            columns: [{ name: 'email_address', old_name: 'email', type: 'varchar(255)' }],
          },
        ],
        groups: [{ name: 'Sales' }],
        sticky_notes: [{ content: 'Clients were called customers' }],
      }),
      title: 'Rename customers',
      message: 'Clients, in a Sales group',
    });
    expect(created.counts).toMatchObject({ tables: 1, groups: 1, sticky_notes: 1 });
    expect((await normal.client.ApplyProposal({ uuid: created.uuid, ...review(owner) })).state).toBe(
      'applied',
    );

    const after = await fullDocument(shopUuid);
    expect(after.tables.map((t) => t.name).sort()).toEqual(['clients', 'orders', 'regions']);
    const clients = after.tables.find((t) => t.name === 'clients')!;
    expect(clients).toMatchObject({ uuid: customers.uuid, left: 480, top: 320 });
    const renamed = clients.columns.find((c) => c.name === 'email_address')!;
    expect(renamed.uuid).toBe(email.uuid);
    expect(clients.columns.map((c) => c.name)).toEqual(['id', 'email_address']);
    const sales = after.groups.find((g) => g.name === 'Sales')!;
    expect(sales).toBeDefined();
    expect(clients.parent_uuid).toBe(sales.uuid);
    expect(after.sticky_notes.map((n) => n.content)).toEqual(['Clients were called customers']);
  });

  it('should make one version when diagrams is asked twice to apply the same proposal (a retry)', async () => {
    const request = {
      diagram_uuid: diagramUuid,
      team_id: editor.principal.team_id,
      user_id: owner.userId,
      patch_json: JSON.stringify(addPatch('retried_table')),
      source: 'proposal',
      source_id: randomUUID(),
    };
    const first = await diagrams.ApplyPatch(request);
    const second = await diagrams.ApplyPatch(request);
    expect(second.version_uuid).toBe(first.version_uuid);
    const { versions } = await diagrams.ListVersions({ principal: editor.principal, uuid: diagramUuid });
    expect(versions.filter((v) => v.source_id === request.source_id).map((v) => v.uuid)).toEqual([
      first.version_uuid,
    ]);
    const schema = await diagrams.GetSchema({
      principal: editor.principal,
      uuid: diagramUuid,
      format: 'json',
    });
    expect(schema.body.match(/"retried_table"/g)).toHaveLength(1);
  });

  it('should apply once when two reviewers apply at the same moment', async () => {
    const created = await propose(normal, addPatch('raced_table'));
    const outcomes = await Promise.allSettled([
      normal.client.ApplyProposal({ uuid: created.uuid, ...review(owner) }),
      normal.client.ApplyProposal({ uuid: created.uuid, ...review(editor) }),
      normal.client.DeclineProposal({ uuid: created.uuid, ...review(editor) }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect((outcome.reason as { code: string }).code).toBe('conflict');
    const { versions } = await diagrams.ListVersions({ principal: editor.principal, uuid: diagramUuid });
    expect(versions.filter((v) => v.source_id === created.uuid).length).toBeLessThanOrEqual(1);
  });

  it('should decline with and without a reason, close the proposal and refuse a reason over 500 characters', async () => {
    const created = await propose(normal);
    const tooLong = await failureOf(
      normal.client.DeclineProposal({ uuid: created.uuid, ...review(editor, 'x'.repeat(501)) }),
    );
    expect(tooLong.code).toBe('invalid_request');
    expect(tooLong.extra).toEqual({ errors: [{ path: 'reason', message: expect.any(String) }] });

    const declined = await normal.client.DeclineProposal({
      uuid: created.uuid,
      ...review(editor, 'y'.repeat(500)),
    });
    expect(declined).toMatchObject({ state: 'declined', decline_reason: 'y'.repeat(500) });
    expect(declined.declined_at).toEqual(expect.any(String));
    expect(
      (await failureOf(normal.client.DeclineProposal({ uuid: created.uuid, ...review(editor) }))).code,
    ).toBe('conflict');
    const apply = await failureOf(normal.client.ApplyProposal({ uuid: created.uuid, ...review(editor) }));
    expect(apply.code).toBe('conflict');
    expect(apply.message).toMatch(/declined/);
    expect(
      (await failureOf(normal.client.ReopenProposal({ uuid: created.uuid, ...review(editor) }))).code,
    ).toBe('conflict');

    const plain = await propose(normal);
    const noReason = await normal.client.DeclineProposal({ uuid: plain.uuid, ...review(owner) });
    expect(noReason.state).toBe('declined');
    expect(noReason.decline_reason).toBeUndefined();
    const blank = await propose(normal);
    const blankReason = await normal.client.DeclineProposal({ uuid: blank.uuid, ...review(owner, ' \n\t ') });
    expect(blankReason.decline_reason).toBeUndefined();
    expect(await storedRow(normal, blank.uuid)).toMatchObject({ state: 'declined', decline_reason: null });
    await waitForEvents(normal, created.uuid, ['created', 'declined']);
    expect(transitionsOf(normal, created.uuid)).toEqual(['created', 'declined']);
  });

  it('should refuse to reopen a pending proposal', async () => {
    const created = await propose(normal);
    const error = await failureOf(normal.client.ReopenProposal({ uuid: created.uuid, ...review(editor) }));
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/pending/);
  });

  it('should let only owners and editors of the team review', async () => {
    const created = await propose(normal);
    const byViewer = await failureOf(normal.client.ApplyProposal({ uuid: created.uuid, ...review(viewer) }));
    expect(byViewer.code).toBe('editor_required');
    const byOutsider = await failureOf(
      normal.client.DeclineProposal({ uuid: created.uuid, ...review(outsider) }),
    );
    expect(byOutsider.code).toBe('forbidden');
    const badUser = await failureOf(
      normal.client.ApplyProposal({ uuid: created.uuid, user_id: 'nobody', team_id: '', reason: '' }),
    );
    expect(badUser.code).toBe('invalid_request');
    const wrongTeam = await failureOf(
      normal.client.ApplyProposal({
        uuid: created.uuid,
        ...review(owner),
        team_id: outsider.principal.team_id,
      }),
    );
    expect(wrongTeam.code).toBe('not_found');
    expect((await get(normal, created.uuid)).state).toBe('pending');
  });

  it('should keep a proposal pending and pass on the reasons when its entities changed since it was made', async () => {
    const dropColumn = await propose(normal, {
      strategy: 'merge',
      deletions: { columns: [{ table: 'customers', columns: ['email'] }] },
    });
    const dropTable = await propose(normal, { strategy: 'merge', deletions: { tables: ['customers'] } });
    await normal.client.ApplyProposal({ uuid: dropTable.uuid, ...review(editor) });
    const error = await failureOf(normal.client.ApplyProposal({ uuid: dropColumn.uuid, ...review(editor) }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('table customers was dropped');
    expect(error.extra.conflicts).toContainEqual(
      expect.objectContaining({ entity: 'table', table: 'customers', change: 'dropped' }),
    );
    expect((await get(normal, dropColumn.uuid)).state).toBe('pending');
  });

  it('should refuse viewers, other teams, invalid patches and patches past the plan cap on create', async () => {
    expect((await failureOf(propose(normal, addPatch(), viewer))).code).toBe('editor_required');
    expect((await failureOf(propose(normal, addPatch(), outsider))).code).toBe('not_found');
    const invalid = await failureOf(
      propose(normal, {
        strategy: 'merge',
        tables: Array.from({ length: 20 }, (_, i) => ({
          name: `t${i}`,
          columns: [{ name: 'c', type: 'nope' }],
        })),
      }),
    );
    expect(invalid.code).toBe('invalid_schema');
    const errors = (invalid.extra as { errors: unknown[] }).errors;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(15);

    const capped = { ...editor, principal: { ...editor.principal, caps: { max_tables_per_diagram: 3 } } };
    const current = JSON.parse(
      (await diagrams.GetSchema({ principal: editor.principal, uuid: diagramUuid, format: 'json' })).body,
    ).data.tables.length as number;
    const manyTables = {
      strategy: 'additive',
      tables: Array.from({ length: 4 }, (_, i) => ({
        name: `cap${i}`,
        columns: [{ name: 'id', type: 'int' }],
      })),
    };
    const limit = await failureOf(propose(normal, manyTables, capped));
    expect(limit.code).toBe('plan_limit');
    expect(limit.extra).toEqual({ limit_type: 'tables', limit: 3, requested: current + 4 });
  });

  it('should refuse a patch that changes nothing in the diagram with invalid_schema', async () => {
    const current = JSON.parse(
      (await diagrams.GetSchema({ principal: editor.principal, uuid: diagramUuid, format: 'json' })).body,
    ).data.tables as { name: string }[];
    const sameAgain = { strategy: 'merge', tables: [], deletions: {} };
    const empty = await failureOf(propose(normal, sameAgain));
    expect(empty.code).toBe('invalid_schema');
    expect(empty.message).toMatch(/changes nothing/);
    expect((empty.extra as { errors: { message: string }[] }).errors[0]!.message).toMatch(/changes nothing/);
    expect(current.length).toBeGreaterThan(0);
  });

  it('should answer not_found alike for unknown, malformed and other-team proposals', async () => {
    const created = await propose(normal);
    for (const [uuid, by] of [
      ['00000000-0000-4000-8000-000000000000', editor],
      ['not-a-uuid', editor],
      [created.uuid, outsider],
    ] as const) {
      const error = await failureOf(get(normal, uuid, by));
      expect(error.code).toBe('not_found');
      expect(error.message).toBe('no such proposal, or the token cannot see it');
    }
    expect((await get(normal, created.uuid, viewer)).state).toBe('pending');
  });

  it('should set opened_at the first time a reviewer opens it, and change the ETag and announce `opened` then only', async () => {
    const created = await propose(normal);
    const first = await normal.client.MarkOpened({ uuid: created.uuid, ...review(editor) });
    expect(first.opened_at).toEqual(expect.any(String));
    expect(first.etag).not.toBe(created.etag);
    const second = await normal.client.MarkOpened({ uuid: created.uuid, ...review(owner) });
    expect(second.opened_at).toBe(first.opened_at);
    expect(second.etag).toBe(first.etag);
    expect((await failureOf(normal.client.MarkOpened({ uuid: created.uuid, ...review(viewer) }))).code).toBe(
      'editor_required',
    );
    await waitForEvents(normal, created.uuid, ['created', 'opened']);
    expect(transitionsOf(normal, created.uuid)).toEqual(['created', 'opened']);
    expect(
      normal.events.find((e) => e.data.proposal_uuid === created.uuid && e.data.transition === 'opened')!
        .data,
    ).toMatchObject({ state: 'pending', diagram_uuid: diagramUuid });
  });

  it('should list the proposals of a diagram, newest first, for its team only', async () => {
    const created = await propose(normal);
    const { proposals } = await normal.client.ListProposalsForDiagram({
      diagram_uuid: diagramUuid,
      team_id: editor.principal.team_id,
    });
    expect(proposals[0]!.uuid).toBe(created.uuid);
    expect(proposals.length).toBeGreaterThan(3);
    const none = await normal.client.ListProposalsForDiagram({
      diagram_uuid: diagramUuid,
      team_id: outsider.principal.team_id,
    });
    expect(none.proposals).toEqual([]);
  });

  it('should read as expired at once past expires_at, with a new ETag, before any sweep', async () => {
    const created = await propose(short);
    const pending = await get(short, created.uuid);
    expect(pending.state).toBe('pending');
    await waitUntil('expiry', () => Date.now() > Date.parse(created.expires_at) + 10, 5_000);
    const expired = await get(short, created.uuid);
    expect(expired.state).toBe('expired');
    expect(expired.etag).not.toBe(pending.etag);
    expect(await storedState(short, created.uuid)).toBe('pending');
  });

  it('should refuse apply and decline after expiry, storing and announcing the expiry, then reopen for another lifetime', async () => {
    const created = await propose(short);
    await waitUntil('expiry', () => Date.now() > Date.parse(created.expires_at) + 10, 5_000);
    const apply = await failureOf(short.client.ApplyProposal({ uuid: created.uuid, ...review(editor) }));
    expect(apply.code).toBe('conflict');
    expect(apply.message).toMatch(/expired/);
    expect(await storedState(short, created.uuid)).toBe('expired');
    expect(
      (await failureOf(short.client.DeclineProposal({ uuid: created.uuid, ...review(editor) }))).code,
    ).toBe('conflict');

    const reopenedAt = Date.now();
    const reopened = await short.client.ReopenProposal({ uuid: created.uuid, ...review(owner) });
    expect(reopened.state).toBe('pending');
    expect(Date.parse(reopened.expires_at)).toBeGreaterThan(reopenedAt);
    const declined = await short.client.DeclineProposal({ uuid: created.uuid, ...review(owner) });
    expect(declined.state).toBe('declined');
    await waitForEvents(short, created.uuid, ['created', 'expired', 'reopened', 'declined']);
    expect(transitionsOf(short, created.uuid)).toEqual(['created', 'expired', 'reopened', 'declined']);
  });

  it('should have the sweeper store and announce expiries', async () => {
    const created = await propose(short);
    await waitUntil('expiry', () => Date.now() > Date.parse(created.expires_at) + 10, 5_000);
    expect(await sweepExpired(short.service.pool)).toBeGreaterThanOrEqual(1);
    expect(await storedState(short, created.uuid)).toBe('expired');
    await waitForEvents(short, created.uuid, ['created', 'expired']);
    expect(transitionsOf(short, created.uuid)).toEqual(['created', 'expired']);
    expect(await sweepExpired(short.service.pool)).toBe(0);
  });
});
