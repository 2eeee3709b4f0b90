// The review conversation over real gRPC, PostgreSQL and NATS: comment threads anchored to the changes,
// resolution, requests for changes, revisions (numbered, validated like a proposal, at most 20, the latest
// applied), the status counts, the events, and other teams kept out.
import { createServiceClient, type ServiceClient } from '@dss/platform';
import type { DiagramDocument } from '@dss/schema';
import {
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

describe('the review conversation (real services, PostgreSQL and NATS)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let harness: ProposalsHarness;
  let diagrams: ServiceClient<'Diagrams'>;
  let editor: Member;
  let owner: Member;
  let viewer: Member;
  let outsider: Member;
  let diagramUuid: string;

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    await people.team('conv');
    await people.team('elsewhere');
    editor = await memberWithPrincipal(people, 'conv', 'editor');
    owner = await memberWithPrincipal(people, 'conv', 'owner');
    viewer = await memberWithPrincipal(people, 'conv', 'viewer');
    outsider = await memberWithPrincipal(people, 'elsewhere', 'owner');
    diagramUuid = await createDiagram(system, editor.principal);
    diagrams = createServiceClient('Diagrams', system.grpc.diagrams);
    harness = await startProposalsHarness(system);
  });

  afterAll(async () => {
    diagrams?.close();
    people?.close();
    await harness?.stop();
    await system?.stop();
  });

  const propose = (patch: unknown = addPatch()) =>
    harness.client.CreateProposal({
      principal: editor.principal,
      diagram_uuid: diagramUuid,
      schema_json: JSON.stringify(patch),
      title: 'Add invoices',
      message: 'Billing needs them',
    });
  const asToken = (member: Member) => ({ principal: member.principal, user_id: '' });
  // No principal: a person named by user id (the web app, the operator CLI).
  const asPerson = (member: Member) =>
    ({ principal: null, user_id: member.userId }) as unknown as ReturnType<typeof asToken>;
  const comment = (
    uuid: string,
    body: string,
    options: {
      actor?: ReturnType<typeof asToken>;
      anchor?: { table: string; column?: string };
      reply_to?: string;
    } = {},
  ) =>
    harness.client.AddComment({
      actor: options.actor ?? asToken(editor),
      uuid,
      body,
      anchor: options.anchor ?? null,
      reply_to: options.reply_to ?? '',
    } as Parameters<ServiceClient<'Proposals'>['AddComment']>[0]);
  const revise = (uuid: string, patch: unknown, message = '', by: Member = editor) =>
    harness.client.SubmitRevision({
      principal: by.principal,
      uuid,
      schema_json: JSON.stringify(patch),
      message,
    });

  describe('comments', () => {
    it('should form threads anchored to an entity of the changes, counted in the status until resolved', async () => {
      const proposal = await propose();
      const thread = await comment(proposal.uuid, 'Why varchar(20)?', {
        actor: asPerson(owner),
        anchor: { table: 'ORDERS', column: 'status_secret_col' },
      });
      expect(thread).toMatchObject({
        revision: 1,
        anchor: { table: 'orders', column: 'status_secret_col' },
        reply_to: '',
        author_kind: 'person',
        author_user_id: owner.userId,
        kind: 'comment',
      });
      const reply = await comment(proposal.uuid, 'Statuses are short', { reply_to: thread.id });
      // A reply to a reply joins the same thread and takes the thread's anchor.
      const second = await comment(proposal.uuid, 'ok <b>then</b>', {
        actor: asPerson(owner),
        reply_to: reply.id,
      });
      expect(second).toMatchObject({
        reply_to: thread.id,
        anchor: { table: 'orders', column: 'status_secret_col' },
      });
      await comment(proposal.uuid, 'Looks good overall');

      let status = await harness.client.GetProposal({ principal: viewer.principal, uuid: proposal.uuid });
      expect(status).toMatchObject({ comment_count: 4, open_thread_count: 2, latest_revision: 1 });
      const resolved = await harness.client.ResolveComment({
        actor: asToken(owner),
        uuid: proposal.uuid,
        comment_id: second.id,
      });
      expect(resolved.id).toBe(thread.id);
      expect(resolved.resolved_by).toBe(owner.userId);
      status = await harness.client.GetProposal({ principal: viewer.principal, uuid: proposal.uuid });
      expect(status).toMatchObject({ comment_count: 4, open_thread_count: 1 });

      const listed = await harness.client.ListComments({ actor: asPerson(viewer), uuid: proposal.uuid });
      expect(listed.comments.map((c) => c.body)).toEqual([
        'Why varchar(20)?',
        'Statuses are short',
        'ok <b>then</b>',
        'Looks good overall',
      ]);
      // Every comment of a resolved thread says so.
      expect(listed.comments.slice(0, 3).every((c) => c.resolved_at)).toBe(true);
      expect(listed.comments[3]!.resolved_at).toBeFalsy();
      await waitUntil('commented and resolved events', () =>
        ['commented', 'resolved'].every((kind) =>
          harness.events.some((e) => e.data.proposal_uuid === proposal.uuid && e.data.transition === kind),
        ),
      );
      const commented = harness.events.find((e) => e.data.transition === 'commented')!;
      expect(Object.keys(commented.data).sort()).toEqual(
        ['at', 'comment_id', 'diagram_uuid', 'proposal_uuid', 'state', 'team_id', 'transition'].sort(),
      );
    });

    it('should refuse empty or overlong bodies, anchors outside the changes and replies to unknown comments', async () => {
      const proposal = await propose();
      expect((await failureOf(comment(proposal.uuid, '  '))).extra.errors?.[0]?.path).toBe('body');
      expect((await failureOf(comment(proposal.uuid, 'x'.repeat(4001)))).code).toBe('invalid_request');
      await expect(comment(proposal.uuid, '😀'.repeat(4000))).resolves.toBeDefined();
      const unknownTable = await failureOf(comment(proposal.uuid, 'hm', { anchor: { table: 'customers' } }));
      expect(unknownTable.extra.errors?.[0]?.path).toBe('anchor.table');
      const unknownColumn = await failureOf(
        comment(proposal.uuid, 'hm', { anchor: { table: 'orders', column: 'total' } }),
      );
      expect(unknownColumn.extra.errors?.[0]?.path).toBe('anchor.column');
      const strayReply = await failureOf(comment(proposal.uuid, 'hm', { reply_to: proposal.uuid }));
      expect(strayReply.extra.errors?.[0]?.path).toBe('reply_to');
    });

    it('should let a viewer comment but not resolve another person’s thread', async () => {
      const proposal = await propose();
      const thread = await comment(proposal.uuid, 'Editor asks');
      await comment(proposal.uuid, 'Viewer answers', { actor: asToken(viewer), reply_to: thread.id });
      const refused = await failureOf(
        harness.client.ResolveComment({ actor: asToken(viewer), uuid: proposal.uuid, comment_id: thread.id }),
      );
      expect(refused.code).toBe('editor_required');
    });

    it('should answer not_found to another team, for every conversation call', async () => {
      const proposal = await propose();
      const thread = await comment(proposal.uuid, 'internal');
      const calls: (() => Promise<unknown>)[] = [
        () => comment(proposal.uuid, 'peek', { actor: asToken(outsider) }),
        () => comment(proposal.uuid, 'peek', { actor: asPerson(outsider) }),
        () => harness.client.ListComments({ actor: asToken(outsider), uuid: proposal.uuid }),
        () => harness.client.ListComments({ actor: asPerson(outsider), uuid: proposal.uuid }),
        () =>
          harness.client.ResolveComment({
            actor: asToken(outsider),
            uuid: proposal.uuid,
            comment_id: thread.id,
          }),
        () => harness.client.ListRevisions({ actor: asToken(outsider), uuid: proposal.uuid }),
        () => revise(proposal.uuid, addPatch('other_table'), '', outsider),
      ];
      for (const call of calls) expect((await failureOf(call())).code).toBe('not_found');
      // A review call names a reviewer, who must be a member of the proposal's team.
      const request = harness.client.RequestChanges({
        uuid: proposal.uuid,
        user_id: outsider.userId,
        message: 'x',
      });
      expect((await failureOf(request)).code).toBe('forbidden');
      const untouched = await harness.client.ListComments({ actor: asToken(editor), uuid: proposal.uuid });
      expect(untouched.comments).toHaveLength(1);
    });
  });

  describe('requests for changes and revisions', () => {
    it('should keep the proposal pending with the review set, then apply the latest revision', async () => {
      const proposal = await propose();
      const viewerRefused = await failureOf(
        harness.client.RequestChanges({ uuid: proposal.uuid, user_id: viewer.userId, message: 'no' }),
      );
      expect(viewerRefused.code).toBe('editor_required');
      const requested = await harness.client.RequestChanges({
        uuid: proposal.uuid,
        user_id: owner.userId,
        message: 'Use varchar(32) and call it state',
      });
      expect(requested.state).toBe('pending');
      expect(requested.changes_requested_by).toBe(owner.userId);
      expect(requested.changes_requested_at).toBeTruthy();
      const threads = await harness.client.ListComments({ actor: asToken(editor), uuid: proposal.uuid });
      expect(threads.comments).toEqual([
        expect.objectContaining({
          kind: 'changes_requested',
          body: 'Use varchar(32) and call it state',
          revision: 1,
        }),
      ]);

      const revisedPatch = {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'state', type: 'varchar(32)' }] }],
      };
      const second = await revise(proposal.uuid, revisedPatch, 'Renamed as asked');
      expect(second).toMatchObject({
        number: 2,
        message: 'Renamed as asked',
        counts: { tables: 1, columns: 1 },
      });
      const anchoredToNew = await comment(proposal.uuid, 'better', {
        anchor: { table: 'orders', column: 'state' },
      });
      expect(anchoredToNew.revision).toBe(2);
      const same = await failureOf(revise(proposal.uuid, revisedPatch));
      expect(same.code).toBe('invalid_schema');
      const invalid = await failureOf(
        revise(proposal.uuid, {
          strategy: 'additive',
          tables: [{ name: 'x', columns: [{ name: 'y', type: 'nope' }] }],
        }),
      );
      expect(invalid.code).toBe('invalid_schema');
      const listed = await harness.client.ListRevisions({ actor: asPerson(viewer), uuid: proposal.uuid });
      expect(listed.revisions.map((r) => r.number)).toEqual([1, 2]);
      expect(listed.revisions.every((r) => r.patch_json === '')).toBe(true);

      await harness.client.ApplyProposal({
        uuid: proposal.uuid,
        user_id: owner.userId,
        team_id: '',
        reason: '',
      });
      const full = await diagrams.GetFullDocument({ principal: editor.principal, uuid: diagramUuid });
      const document = (JSON.parse(full.body) as { data: DiagramDocument }).data;
      const orders = document.tables.find((table) => table.name === 'orders')!;
      expect(orders.columns.map((column) => column.name)).toContain('state');
      expect(orders.columns.map((column) => column.name)).not.toContain('status_secret_col');
      expect(document.tables.map((table) => table.name)).not.toContain('invoices_secret_table');
      const closed = await failureOf(revise(proposal.uuid, addPatch('late_table')));
      expect(closed.code).toBe('conflict');
    });

    it('should refuse a revision from a viewer, a read token’s team mate or past 20 revisions', async () => {
      const proposal = await propose();
      expect((await failureOf(revise(proposal.uuid, addPatch('v_table'), '', viewer))).code).toBe(
        'editor_required',
      );
      expect((await failureOf(revise(proposal.uuid, addPatch('m_table'), 'x'.repeat(501)))).code).toBe(
        'invalid_request',
      );
      for (let number = 2; number <= 20; number++) await revise(proposal.uuid, addPatch(`t${number}`));
      const over = await failureOf(revise(proposal.uuid, addPatch('t21')));
      expect(over.code).toBe('conflict');
      expect(over.message).toContain('20 revisions');
      const status = await harness.client.GetProposal({ principal: editor.principal, uuid: proposal.uuid });
      expect(status.latest_revision).toBe(20);
      expect(status.counts?.tables).toBe(2);
    });
  });
});
