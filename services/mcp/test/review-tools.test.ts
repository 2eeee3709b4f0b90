// The review conversation over MCP (the SDK's client over Streamable HTTP, against the embedded stack): an
// agent proposes, waits for the reviewer with wait_for_review, reads the threads, answers, revises and sees
// the decision; waits end on time; another team's proposal is not_found.
import { startTestStack, type TestStack } from '../../../packages/client/test/support/test-stack';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, type McpEndpoint, mcpEndpoint } from './support/mcp-clients';

describe('MCP review tools', () => {
  let stack: TestStack;
  let endpoint: McpEndpoint;
  let agent: Client;
  let outsider: Client;
  let reviewerEmail: string;
  let diagramUuid: string;

  beforeAll(async () => {
    stack = await startTestStack();
    endpoint = await mcpEndpoint('http', { apiUrl: stack.apiUrl, appUrl: stack.appUrl });
    const editor = await stack.member({ team: 'mcp-review', role: 'editor', write: true });
    reviewerEmail = (await stack.member({ team: 'mcp-review', role: 'owner' })).email;
    agent = await endpoint.connect(editor.token);
    outsider = await endpoint.connect((await stack.member({ role: 'owner', write: true })).token);
    const created = await callTool(agent, 'create_diagram', {
      name: 'Shop',
      driver: 'pgsql',
      patch: {
        strategy: 'merge',
        tables: [{ name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
      },
    });
    diagramUuid = JSON.parse(created.text).uuid;
  });
  afterAll(async () => {
    await endpoint?.stop();
    await stack?.stop();
  });

  const json = async (client: Client, tool: string, args: Record<string, unknown>) => {
    const result = await callTool(client, tool, args);
    if (result.isError) throw new Error(`${tool}: ${result.text}`);
    return JSON.parse(result.text);
  };
  const propose = async () =>
    (
      await json(agent, 'propose_diagram_changes', {
        diagram_uuid: diagramUuid,
        title: 'Order status',
        message: 'Support filters by it',
        patch: {
          strategy: 'additive',
          tables: [{ name: 'orders', columns: [{ name: 'status', type: 'text' }] }],
        },
      })
    ).proposal_uuid as string;

  it('should wake the agent within a second of a request for changes, then carry the thread and the revision', async () => {
    const uuid = await propose();
    const first = await json(agent, 'wait_for_review', { proposal_uuid: uuid, wait_seconds: 1 });
    expect(first).toMatchObject({ changed: true, status: { state: 'pending', review: null } });

    let wokenAt = 0;
    const waiting = json(agent, 'wait_for_review', {
      proposal_uuid: uuid,
      wait_seconds: 30,
      etag: first.etag,
    }).then((answer) => {
      wokenAt = Date.now();
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stack.requestChanges(uuid, reviewerEmail, 'Call it state, please');
    // Within a second of the request for changes being recorded (its answer), not of the request being
    // sent: on a loaded machine the reviewer's own call can take longer than that.
    const recordedAt = Date.now();
    const woken = await waiting;
    expect(wokenAt - recordedAt).toBeLessThan(1000);
    expect(woken).toMatchObject({ changed: true, status: { state: 'pending', open_thread_count: 1 } });
    expect(woken.status.review.requested_changes_at).toEqual(expect.any(String));
    expect(woken.next_step).toContain('list_review_threads');

    const threads = await json(agent, 'list_review_threads', { proposal_uuid: uuid });
    expect(threads.threads).toEqual([
      expect.objectContaining({
        kind: 'changes_requested',
        resolved: false,
        revision: 1,
        comments: [expect.objectContaining({ author: 'person', body: 'Call it state, please' })],
      }),
    ]);
    const reply = await json(agent, 'add_comment', {
      proposal_uuid: uuid,
      body: 'Renamed in revision 2',
      reply_to: threads.threads[0].id,
    });
    expect(reply).toMatchObject({ reply_to: threads.threads[0].id, author: { kind: 'token' } });
    const revision = await json(agent, 'revise_proposal', {
      proposal_uuid: uuid,
      message: 'status → state',
      patch: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'state', type: 'text' }] }],
      },
    });
    expect(revision).toMatchObject({ number: 2, counts: { columns: 1 } });
    expect(
      (await json(agent, 'list_revisions', { proposal_uuid: uuid })).revisions.map(
        (r: { number: number }) => r.number,
      ),
    ).toEqual([1, 2]);
    const resolved = await json(agent, 'resolve_thread', { proposal_uuid: uuid, comment_id: reply.id });
    expect(resolved.resolved_at).toEqual(expect.any(String));

    // A quiet wait ends on time with nothing new.
    const current = await json(agent, 'wait_for_review', {
      proposal_uuid: uuid,
      wait_seconds: 1,
      etag: 'stale',
    });
    const quietStart = Date.now();
    const quiet = await json(agent, 'wait_for_review', {
      proposal_uuid: uuid,
      wait_seconds: 2,
      etag: current.etag,
    });
    expect(Date.now() - quietStart).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - quietStart).toBeLessThan(3500);
    expect(quiet).toMatchObject({ changed: false, status: null });

    let decidedAt = 0;
    const deciding = json(agent, 'wait_for_review', {
      proposal_uuid: uuid,
      wait_seconds: 30,
      etag: current.etag,
    }).then((answer) => {
      decidedAt = Date.now();
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stack.review(uuid, reviewerEmail, 'apply');
    const appliedAt = Date.now();
    const decided = await deciding;
    expect(decidedAt - appliedAt).toBeLessThan(1000);
    expect(decided).toMatchObject({ changed: true, status: { state: 'applied', latest_revision: 2 } });
  });

  it('should refuse bad input by schema and another team by not_found', async () => {
    const uuid = await propose();
    const tooLong = await callTool(agent, 'add_comment', { proposal_uuid: uuid, body: 'x'.repeat(4001) });
    expect(tooLong.isError).toBe(true);
    const stray = await callTool(agent, 'add_comment', {
      proposal_uuid: uuid,
      body: 'x',
      anchor: { table: 'users' },
    });
    expect(stray).toMatchObject({ isError: true, text: expect.stringMatching(/^invalid_request: /) });
    for (const [tool, args] of [
      ['list_review_threads', { proposal_uuid: uuid }],
      ['add_comment', { proposal_uuid: uuid, body: 'peek' }],
      ['wait_for_review', { proposal_uuid: uuid, wait_seconds: 1 }],
      ['list_revisions', { proposal_uuid: uuid }],
    ] as const) {
      const result = await callTool(outsider, tool, args);
      expect([tool, result.isError, result.text.split(':')[0]]).toEqual([tool, true, 'not_found']);
    }
  });
});
