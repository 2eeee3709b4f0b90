// GetProposalForReview: the web review page's read of a proposal with its stored patch, only for members
// of the proposal's team.
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

describe('Proposals.GetProposalForReview (real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  let proposals: ProposalsHarness;
  let editor: Member;
  let viewer: Member;
  let outsider: Member;
  let proposalUuid: string;

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    await people.team('rv');
    await people.team('rv-other');
    editor = await memberWithPrincipal(people, 'rv', 'editor');
    viewer = await memberWithPrincipal(people, 'rv', 'viewer');
    outsider = await memberWithPrincipal(people, 'rv-other', 'owner');
    const diagramUuid = await createDiagram(system, editor.principal);
    proposals = await startProposalsHarness(system);
    const created = await proposals.client.CreateProposal({
      principal: editor.principal,
      diagram_uuid: diagramUuid,
      schema_json: JSON.stringify(addPatch()),
      title: 'Add invoices',
      message: 'Please review',
    });
    proposalUuid = created.uuid;
  });

  afterAll(async () => {
    people?.close();
    await proposals?.stop();
    await system?.stop();
  });

  it('returns the proposal, its stored patch and the editor role to an editor of the team', async () => {
    const review = await proposals.client.GetProposalForReview({
      uuid: proposalUuid,
      user_id: editor.userId,
    });
    expect(review.proposal).toMatchObject({ uuid: proposalUuid, state: 'pending', title: 'Add invoices' });
    expect(review.role).toBe('editor');
    const patch = JSON.parse(review.patch_json);
    expect(JSON.stringify(patch)).toContain('invoices_secret_table');
    expect(JSON.stringify(patch)).toContain('status_secret_col');
  });

  it('returns the proposal to a viewer of the team, with the viewer role', async () => {
    const review = await proposals.client.GetProposalForReview({
      uuid: proposalUuid,
      user_id: viewer.userId,
    });
    expect(review.role).toBe('viewer');
    expect(review.proposal!.uuid).toBe(proposalUuid);
  });

  it('answers not_found to a user of another team, exactly as for an unknown proposal', async () => {
    const foreign = await failureOf(
      proposals.client.GetProposalForReview({ uuid: proposalUuid, user_id: outsider.userId }),
    );
    const unknown = await failureOf(
      proposals.client.GetProposalForReview({
        uuid: '00000000-0000-4000-8000-000000000000',
        user_id: editor.userId,
      }),
    );
    expect(foreign.code).toBe('not_found');
    expect(unknown.code).toBe('not_found');
    expect(foreign.message).toBe(unknown.message);
  });

  it('answers not_found for a malformed proposal or user id', async () => {
    expect(
      (await failureOf(proposals.client.GetProposalForReview({ uuid: 'x', user_id: editor.userId }))).code,
    ).toBe('not_found');
    expect(
      (await failureOf(proposals.client.GetProposalForReview({ uuid: proposalUuid, user_id: 'y' }))).code,
    ).toBe('not_found');
  });
});
