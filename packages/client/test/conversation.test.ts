// The review conversation through the client, against the embedded stack: comments and threads, revisions,
// and the long-poll that answers when a reviewer acts.
import { createDssClient, type DssClient, DssApiError } from '../src';
import { shopPatch, startTestStack, type TestStack } from './support/test-stack';

describe('DssClient review conversation', () => {
  let stack: TestStack;
  let writer: DssClient;
  let reviewerEmail: string;
  let diagramUuid: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const member = await stack.member({ team: 'client-conv', role: 'editor', write: true });
    reviewerEmail = (await stack.member({ team: 'client-conv', role: 'owner' })).email;
    writer = createDssClient({ baseUrl: stack.apiUrl, token: member.token });
    diagramUuid = (await writer.createDiagram({ name: 'Shop', driver: 'pgsql', schema: shopPatch() })).data
      .uuid;
  });
  afterAll(async () => {
    await stack.stop();
  });

  const propose = () =>
    writer.proposeChanges(diagramUuid, {
      title: 'Order status',
      message: 'Support filters by it',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'status', type: 'text' }] }],
      },
    });

  describe('.addComment(), .listComments() and .resolveThread()', () => {
    it('should start an anchored thread, answer it and resolve it', async () => {
      const proposal = await propose();
      const thread = await writer.addComment(proposal.uuid, {
        body: 'Text or an enum?',
        anchor: { table: 'orders', column: 'status' },
      });
      await writer.addComment(proposal.uuid, { body: 'Text for now', reply_to: thread.id });
      const resolved = await writer.resolveThread(proposal.uuid, thread.id);
      expect(resolved.resolved_at).toEqual(expect.any(String));
      const comments = await writer.listComments(proposal.uuid);
      expect(comments.map((comment) => [comment.body, comment.reply_to])).toEqual([
        ['Text or an enum?', null],
        ['Text for now', thread.id],
      ]);
      const refused = await writer
        .addComment(proposal.uuid, { body: 'x', anchor: { table: 'nowhere' } })
        .catch((e) => e);
      expect(refused).toBeInstanceOf(DssApiError);
      expect((refused as DssApiError).code).toBe('invalid_request');
    });
  });

  describe('.reviseProposal() and .listRevisions()', () => {
    it('should number the revisions', async () => {
      const proposal = await propose();
      const revision = await writer.reviseProposal(proposal.uuid, {
        schema: {
          strategy: 'additive',
          tables: [{ name: 'orders', columns: [{ name: 'state', type: 'text' }] }],
        },
        message: 'Renamed',
      });
      expect(revision).toMatchObject({ number: 2, message: 'Renamed' });
      expect((await writer.listRevisions(proposal.uuid)).map((r) => r.number)).toEqual([1, 2]);
    });
  });

  describe('.waitForReview()', () => {
    it('should answer when the reviewer requests changes, and 304 when a quiet wait ends', async () => {
      const proposal = await propose();
      const first = await writer.getProposalIfChanged(proposal.uuid);
      let wokenAt = 0;
      const waiting = writer
        .waitForReview(proposal.uuid, { waitSeconds: 20, etag: first.etag })
        .then((answer) => {
          wokenAt = Date.now();
          return answer;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await stack.requestChanges(proposal.uuid, reviewerEmail, 'Please call it state');
      // Within a second of the request for changes being recorded (its answer).
      const requestedAt = Date.now();
      const woken = await waiting;
      expect(wokenAt - requestedAt).toBeLessThan(1000);
      if (woken.notModified) throw new Error('expected the new status');
      expect(woken.data.state).toBe('pending');
      expect(woken.data.review).toEqual({ requested_changes_at: expect.any(String), by: expect.any(String) });
      const quiet = await writer.waitForReview(proposal.uuid, { waitSeconds: 1, etag: woken.etag });
      expect(quiet.notModified).toBe(true);
    });
  });
});
