// Lint in the proposals context over real gRPC and PostgreSQL: team settings (any member reads, owners
// write, another team never sees them), findings stored with a proposal and counted on its status, and
// the "no lint errors" requirement that refuses an apply.
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
} from './helpers';

describe('proposals lint (real services and PostgreSQL)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let harness: ProposalsHarness;
  let editor: Member;
  let owner: Member;
  let outsider: Member;
  let diagramUuid: string;

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    await people.team('lint');
    await people.team('lint-other');
    editor = await memberWithPrincipal(people, 'lint', 'editor');
    owner = await memberWithPrincipal(people, 'lint', 'owner');
    outsider = await memberWithPrincipal(people, 'lint-other', 'owner');
    diagramUuid = await createDiagram(system, editor.principal);
    harness = await startProposalsHarness(system);
  });

  afterAll(async () => {
    people?.close();
    await harness?.stop();
    await system?.stop();
  });

  const settingsOf = async (by: Member) =>
    JSON.parse((await harness.client.GetLintSettings({ principal: by.principal })).settings_json);
  const setSettings = (by: Member, settings: unknown) =>
    harness.client.SetLintSettings({ principal: by.principal, settings_json: JSON.stringify(settings) });
  // A table without a primary key (an error by default) and a nullable column to an existing table.
  const keylessPatch = () => ({
    strategy: 'additive',
    tables: [{ name: 'audit_entries', columns: [{ name: 'note', type: 'text' }] }],
  });
  const propose = (patch: unknown) =>
    harness.client.CreateProposal({
      principal: editor.principal,
      diagram_uuid: diagramUuid,
      schema_json: JSON.stringify(patch),
      title: 'Lint me',
      message: 'from the lint test',
    });

  it('When a team never saved settings, then every member reads the defaults', async () => {
    expect(await settingsOf(editor)).toMatchObject({ max_columns: 50, require_no_errors: false, rules: {} });
    const answer = await harness.client.GetLintSettings({ principal: editor.principal });
    expect(answer.updated_at).toBe('');
  });

  it('When an editor changes the settings, then it is refused; bad settings name their path', async () => {
    expect((await failureOf(setSettings(editor, { max_columns: 10 }))).code).toBe('forbidden');
    const invalid = await failureOf(setSettings(owner, { rules: { 'no-such-rule': 'error' } }));
    expect(invalid.code).toBe('invalid_request');
    expect(invalid.extra.errors?.[0]?.path).toBe('rules.no-such-rule');
  });

  it('When an owner saves settings, then the team reads them and another team does not', async () => {
    const saved = await setSettings(owner, { rules: { 'naming-convention': 'off' }, max_columns: 12 });
    expect(saved.updated_at).not.toBe('');
    expect(await settingsOf(editor)).toMatchObject({
      rules: { 'naming-convention': 'off' },
      max_columns: 12,
    });
    expect(await settingsOf(outsider)).toMatchObject({ rules: {}, max_columns: 50 });
  });

  it('When a proposal adds a table without a primary key, then its findings are stored and counted', async () => {
    const created = await propose(keylessPatch());
    expect(created.lint).toEqual({ errors: 1, warnings: 0 });
    const { findings } = await harness.client.LintProposal({
      principal: editor.principal,
      uuid: created.uuid,
    });
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'table-without-primary-key',
        severity: 'error',
        table: 'audit_entries',
        message: 'table "audit_entries" has no primary key',
      }),
    ]);
    const clean = await propose(addPatch('clean_table'));
    expect(clean.lint).toEqual({ errors: 0, warnings: 0 });
    const other = await failureOf(
      harness.client.LintProposal({ principal: outsider.principal, uuid: created.uuid }),
    );
    expect(other.code).toBe('not_found');
  });

  it('When the team requires no lint errors, then a proposal with errors cannot be applied', async () => {
    const created = await propose({
      ...keylessPatch(),
      tables: [{ name: 'loose_rows', columns: [{ name: 'v', type: 'text' }] }],
    });
    await setSettings(owner, { require_no_errors: true });
    const refused = await failureOf(
      harness.client.ApplyProposal({ uuid: created.uuid, user_id: owner.userId, team_id: '', reason: '' }),
    );
    expect(refused.code).toBe('conflict');
    expect(refused.extra.errors).toEqual([
      { path: 'lint.table-without-primary-key', message: 'table "loose_rows" has no primary key' },
    ]);
    expect(
      (await harness.client.GetProposal({ principal: editor.principal, uuid: created.uuid })).state,
    ).toBe('pending');
    await setSettings(owner, { require_no_errors: true, rules: { 'table-without-primary-key': 'warning' } });
    const applied = await harness.client.ApplyProposal({
      uuid: created.uuid,
      user_id: owner.userId,
      team_id: '',
      reason: '',
    });
    expect(applied.state).toBe('applied');
  });

  it("When a proposal with lint errors is revised to fix them, then its findings are the revision's and it applies", async () => {
    await setSettings(owner, { require_no_errors: true });
    // A diagram of its own: the one above now holds a keyless table, an error of every later change.
    const fresh = await createDiagram(system, editor.principal, {
      strategy: 'additive',
      tables: [{ name: 'accounts', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
    });
    const created = await harness.client.CreateProposal({
      principal: editor.principal,
      diagram_uuid: fresh,
      schema_json: JSON.stringify({
        strategy: 'additive',
        tables: [{ name: 'draft_rows', columns: [{ name: 'v', type: 'text' }] }],
      }),
      title: 'Lint me',
      message: 'to be revised',
    });
    expect(created.lint).toEqual({ errors: 1, warnings: 0 });
    await harness.client.SubmitRevision({
      principal: editor.principal,
      uuid: created.uuid,
      schema_json: JSON.stringify({
        strategy: 'additive',
        tables: [
          {
            name: 'draft_rows',
            columns: [
              { name: 'id', type: 'bigint', is_primary_key: true },
              { name: 'v', type: 'text' },
            ],
          },
        ],
      }),
      message: 'a primary key',
    });
    const revised = await harness.client.GetProposal({ principal: editor.principal, uuid: created.uuid });
    expect([revised.latest_revision, revised.lint]).toEqual([2, { errors: 0, warnings: 0 }]);
    const { findings } = await harness.client.LintProposal({
      principal: editor.principal,
      uuid: created.uuid,
    });
    expect(findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    const applied = await harness.client.ApplyProposal({
      uuid: created.uuid,
      user_id: owner.userId,
      team_id: '',
      reason: '',
    });
    expect(applied.state).toBe('applied');
  });
});
