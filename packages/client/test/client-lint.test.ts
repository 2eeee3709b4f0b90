// The lint methods of the client against the embedded stack: settings an owner writes change what the
// diagram's lint answers, and a proposal's findings match its status counts.
import { createDssClient, DssApiError } from '../src';
import { startTestStack, type TestStack } from './support/test-stack';

describe('DssClient lint methods', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('should read and write settings, lint a diagram and a proposal, and list the rules', async () => {
    const team = 'client-lint';
    const owner = createDssClient({
      baseUrl: stack.apiUrl,
      token: (await stack.member({ team, role: 'owner', write: true })).token,
    });
    const editor = createDssClient({
      baseUrl: stack.apiUrl,
      token: (await stack.member({ team, role: 'editor', write: true })).token,
    });
    const created = await editor.createDiagram({
      name: 'Lint',
      driver: 'pgsql',
      schema: { strategy: 'merge', tables: [{ name: 'notes', columns: [{ name: 'body', type: 'text' }] }] },
    });
    const uuid = created.data.uuid;
    expect((await editor.getDiagramLint(uuid)).map((finding) => finding.rule)).toEqual([
      'table-without-primary-key',
    ]);

    await expect(editor.setLintSettings({ max_columns: 2 })).rejects.toBeInstanceOf(DssApiError);
    const saved = await owner.setLintSettings({ rules: { 'table-without-primary-key': 'off' } });
    expect(saved.settings.rules).toEqual({ 'table-without-primary-key': 'off' });
    expect((await editor.getLintSettings()).updated_at).not.toBeNull();
    expect(await editor.getDiagramLint(uuid)).toEqual([]);

    const proposal = await editor.proposeChanges(uuid, {
      title: 'Bigger',
      message: 'a required column',
      schema: {
        strategy: 'merge',
        tables: [{ name: 'notes', columns: [{ name: 'author', type: 'text', is_nullable: false }] }],
      },
    });
    const findings = await editor.getProposalLint(proposal.uuid);
    expect(findings.map((finding) => [finding.rule, finding.column])).toEqual([
      ['destructive-change', 'author'],
    ]);
    expect((await editor.getProposal(proposal.uuid)).lint).toEqual({ errors: 0, warnings: 1 });
    expect((await editor.listLintRules()).length).toBe(8);
  });
});
