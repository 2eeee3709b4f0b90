// A proposal means one thing: it records the version it was made on, and its change (migration, review,
// apply) is that patch rebased by entity identity onto the diagram as it is now, or a conflict naming the
// entity that changed in between.
import {
  createDiagram,
  failureOf,
  type Member,
  memberWithPrincipal,
  type ProposalsHarness,
  startProposalsHarness,
  startTestSystem,
  TestPeople,
  type TestSystem,
} from './helpers';

/** A users table; `comment` makes each test's diagram a new one (identical creates are replayed). */
const usersTable = (comment: string) => ({
  strategy: 'merge',
  tables: [
    {
      name: 'users',
      comment,
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'name', type: 'varchar(48)', is_nullable: false },
        { name: 'email', type: 'varchar(200)' },
      ],
    },
  ],
});

const changeName = {
  strategy: 'merge',
  tables: [{ name: 'users', columns: [{ name: 'name', type: 'varchar(120)', is_nullable: false }] }],
};
const renameName = {
  strategy: 'merge',
  tables: [{ name: 'users', columns: [{ name: 'full_name', old_name: 'name', type: 'varchar(48)' }] }],
};
const changeEmail = {
  strategy: 'merge',
  tables: [{ name: 'users', columns: [{ name: 'email', type: 'varchar(320)' }] }],
};
const changeFullName = {
  strategy: 'merge',
  tables: [{ name: 'users', columns: [{ name: 'full_name', type: 'varchar(120)', is_nullable: false }] }],
};
const renameFullName = {
  strategy: 'merge',
  tables: [
    { name: 'users', columns: [{ name: 'display_name', old_name: 'full_name', type: 'varchar(48)' }] },
  ],
};
const addAudit = {
  strategy: 'merge',
  tables: [{ name: 'audit', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
};

describe('Proposals on a base that moved (real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let proposals: ProposalsHarness;
  let editor: Member;

  const propose = async (diagramUuid: string, patch: object) =>
    proposals.client.CreateProposal({
      principal: editor.principal,
      diagram_uuid: diagramUuid,
      schema_json: JSON.stringify(patch),
      title: 'Change',
      message: 'Please review',
    });
  const review = () => ({ user_id: editor.userId, team_id: '', reason: '' });

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    await people.team('stale');
    editor = await memberWithPrincipal(people, 'stale', 'editor');
    proposals = await startProposalsHarness(system);
  });

  afterAll(async () => {
    people?.close();
    await proposals?.stop();
    await system?.stop();
  });

  it('should record the version a proposal was made on', async () => {
    const diagramUuid = await createDiagram(system, editor.principal, usersTable('records'));
    const created = await propose(diagramUuid, changeName);
    expect(created.base_version_uuid).toMatch(/^[0-9a-f-]{36}$/);
    const change = await proposals.client.GetProposedChange({ uuid: created.uuid, user_id: editor.userId });
    expect(change.current_version_uuid).toBe(created.base_version_uuid);
  });

  it('When B changes users.name and A renames it and A is applied, then B answers conflict naming users.name and cannot be applied', async () => {
    const diagramUuid = await createDiagram(system, editor.principal, usersTable('renamed'));
    const proposalB = await propose(diagramUuid, changeName);
    const proposalA = await propose(diagramUuid, renameName);
    await proposals.client.ApplyProposal({ uuid: proposalA.uuid, ...review() });

    const change = await failureOf(
      proposals.client.GetProposedChange({ uuid: proposalB.uuid, user_id: editor.userId }),
    );
    expect(change.code).toBe('conflict');
    expect(change.message).toContain('column users.name was renamed to full_name');
    expect(change.extra.conflicts).toEqual([
      expect.objectContaining({ entity: 'column', table: 'users', column: 'name', change: 'renamed' }),
    ]);

    const applying = await failureOf(proposals.client.ApplyProposal({ uuid: proposalB.uuid, ...review() }));
    expect(applying.code).toBe('conflict');
    expect(applying.message).toContain(change.message);
    expect(applying.extra.conflicts).toEqual(change.extra.conflicts);
    const still = await proposals.client.GetProposal({ principal: editor.principal, uuid: proposalB.uuid });
    expect(still.state).toBe('pending');
  });

  it('When an unrelated change is applied in between, then B is rebased and applies, changing only its column', async () => {
    const diagramUuid = await createDiagram(system, editor.principal, usersTable('unrelated'));
    const proposalB = await propose(diagramUuid, changeEmail);
    const unrelated = await propose(diagramUuid, addAudit);
    await proposals.client.ApplyProposal({ uuid: unrelated.uuid, ...review() });

    const change = await proposals.client.GetProposedChange({ uuid: proposalB.uuid, user_id: editor.userId });
    expect(change.current_version_uuid).not.toBe(proposalB.base_version_uuid);
    const after = JSON.parse(change.proposed_json) as {
      tables: { name: string; columns: { name: string; driver_data_type_params: unknown }[] }[];
    };
    expect(after.tables.map((table) => table.name).sort()).toEqual(['audit', 'users']);
    const users = after.tables.find((table) => table.name === 'users')!;
    expect(users.columns.map((column) => column.name)).toEqual(['id', 'name', 'email']);
    expect(users.columns[2]!.driver_data_type_params).toMatchObject({ length: 320 });

    const applied = await proposals.client.ApplyProposal({ uuid: proposalB.uuid, ...review() });
    expect(applied.state).toBe('applied');
  });

  it('When a stale proposal is revised, then the revision records the version it was made on and the stale-base check starts from it', async () => {
    const diagramUuid = await createDiagram(system, editor.principal, usersTable('revised'));
    const proposalB = await propose(diagramUuid, changeName);
    const proposalA = await propose(diagramUuid, renameName);
    const applied = await proposals.client.ApplyProposal({ uuid: proposalA.uuid, ...review() });
    expect(
      (await failureOf(proposals.client.GetProposedChange({ uuid: proposalB.uuid, user_id: editor.userId })))
        .code,
    ).toBe('conflict');

    const revision = await proposals.client.SubmitRevision({
      principal: editor.principal,
      uuid: proposalB.uuid,
      schema_json: JSON.stringify(changeFullName),
      message: 'after the rename',
    });
    expect(revision.base_version_uuid).toBe(applied.applied_version_uuid);
    const revised = await proposals.client.GetProposal({ principal: editor.principal, uuid: proposalB.uuid });
    expect([revised.latest_revision, revised.base_version_uuid]).toEqual([2, applied.applied_version_uuid]);
    const listed = await proposals.client.ListRevisions({
      actor: { user_id: editor.userId },
      uuid: proposalB.uuid,
    });
    expect(listed.revisions.map((entry) => entry.base_version_uuid)).toEqual([
      proposalB.base_version_uuid,
      applied.applied_version_uuid,
    ]);

    const change = await proposals.client.GetProposedChange({ uuid: proposalB.uuid, user_id: editor.userId });
    expect(change.current_version_uuid).toBe(applied.applied_version_uuid);
    const users = (
      JSON.parse(change.proposed_json) as {
        tables: { name: string; columns: { name: string; driver_data_type_params: unknown }[] }[];
      }
    ).tables.find((table) => table.name === 'users')!;
    expect(users.columns.map((column) => column.name)).toEqual(['id', 'full_name', 'email']);
    expect(users.columns[1]!.driver_data_type_params).toMatchObject({ length: 120 });

    // A rename landing after the revision conflicts with the revision, judged from the revision's base.
    const proposalC = await propose(diagramUuid, renameFullName);
    await proposals.client.ApplyProposal({ uuid: proposalC.uuid, ...review() });
    const stale = await failureOf(
      proposals.client.GetProposedChange({ uuid: proposalB.uuid, user_id: editor.userId }),
    );
    expect(stale.code).toBe('conflict');
    expect(stale.extra.conflicts).toEqual([
      expect.objectContaining({ entity: 'column', table: 'users', column: 'full_name', change: 'renamed' }),
    ]);
    const applying = await failureOf(proposals.client.ApplyProposal({ uuid: proposalB.uuid, ...review() }));
    expect([applying.code, applying.extra.conflicts]).toEqual(['conflict', stale.extra.conflicts]);
  });
});
