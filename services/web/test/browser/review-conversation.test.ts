// The review conversation end to end, in Debian's Chromium and over MCP: an agent proposes over REST; a
// reviewer comments on a column and requests changes in the browser (found by roles and names); the agent
// reads the thread over MCP, answers and revises; the reviewer sees what changed since the first revision,
// resolves the thread and applies; the diagram holds the latest revision's changes. A screenshot of the
// review page with its threads goes to artifacts/screenshots.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestMember } from '@dss/system';
import { callTool, type McpEndpoint, mcpEndpoint } from '../../../mcp/test/support/mcp-clients';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, propose } from '../support/web-system';

const SHOP = {
  strategy: 'merge',
  tables: [{ name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
};

describe('the review conversation (browser, REST and MCP)', () => {
  const suite = useBrowserSuite();
  let agent: TestMember;
  let reviewer: TestMember;
  let endpoint: McpEndpoint;
  let mcp: Client;
  let diagramUuid: string;

  beforeAll(async () => {
    await suite.web.people.team('talk');
    agent = await createPerson(suite.web, 'talk', 'editor', 'Agent Smith');
    reviewer = await createPerson(suite.web, 'talk', 'owner', 'Rita Reviewer');
    diagramUuid = await createDiagram(suite.web, agent, SHOP);
    endpoint = await mcpEndpoint('http', { apiUrl: suite.web.apiUrl, appUrl: suite.web.webUrl });
    mcp = await endpoint.connect(agent.token);
  });
  afterAll(async () => {
    await endpoint?.stop();
  });

  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = await callTool(mcp, name, args);
    if (result.isError) throw new Error(`${name}: ${result.text}`);
    return JSON.parse(result.text);
  };

  it('goes from a proposal through a request for changes and a revision to the applied latest revision', async () => {
    // The agent proposes.
    const proposal = await propose(suite.web, agent, diagramUuid, {
      title: 'Order status',
      message: 'Support wants to filter orders by status.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'status', type: 'varchar(20)' }] }],
      },
    });

    // The reviewer comments on the column and requests changes, in the browser.
    const page = await suite.signedInPage(reviewer, `/review/${proposal.uuid}`);
    await page.getByLabel('Comment on').selectOption({ label: 'orders.status' });
    await page
      .getByRole('textbox', { name: 'Comment', exact: true })
      .fill('Statuses are longer than 20 <b>characters</b>.');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Start thread' }).click(),
    ]);
    const thread = page.getByRole('article', { name: 'Thread orders.status' });
    await thread.waitFor();
    expect(await thread.locator('.comment-body').textContent()).toBe(
      'Statuses are longer than 20 <b>characters</b>.',
    );
    expect(await thread.locator('b').count()).toBe(0);
    await page
      .getByRole('textbox', { name: 'What should change' })
      .fill('Use varchar(32) and call the column state.');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Request changes' }).click(),
    ]);
    expect(await page.locator('#changes-requested').textContent()).toContain('Rita Reviewer');
    expect(await page.locator('h1').textContent()).toContain('pending');

    // The agent wakes up, reads the threads over MCP, answers, revises.
    const woken = await tool('wait_for_review', { proposal_uuid: proposal.uuid, wait_seconds: 5 });
    expect(woken.status).toMatchObject({ state: 'pending', comment_count: 2, open_thread_count: 2 });
    const { threads } = await tool('list_review_threads', { proposal_uuid: proposal.uuid });
    const onColumn = threads.find((t: { anchor: unknown }) => t.anchor !== null);
    expect(onColumn).toMatchObject({
      anchor: { table: 'orders', column: 'status' },
      revision: 1,
      resolved: false,
    });
    expect(onColumn.comments[0]).toMatchObject({
      author: 'person',
      body: 'Statuses are longer than 20 <b>characters</b>.',
    });
    expect(threads.find((t: { kind: string }) => t.kind === 'changes_requested').comments[0].body).toBe(
      'Use varchar(32) and call the column state.',
    );
    await tool('add_comment', {
      proposal_uuid: proposal.uuid,
      reply_to: onColumn.id,
      body: 'Now varchar(32), named state.',
    });
    const revision = await tool('revise_proposal', {
      proposal_uuid: proposal.uuid,
      message: 'state varchar(32)',
      patch: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'state', type: 'varchar(32)' }] }],
      },
    });
    expect(revision.number).toBe(2);

    // The reviewer sees the revision's diff, resolves the thread and applies.
    await page.reload();
    expect(await page.locator('#changes-requested').textContent()).toContain('Revision 2 was sent since');
    const since = page.locator('#since-revision');
    expect(await since.getByRole('heading', { name: /^What changed since revision 1/ }).count()).toBe(1);
    const sinceText = (await since.textContent()) ?? '';
    expect(sinceText).toContain('state');
    expect(sinceText).toContain('status');
    expect(await page.locator('.changes-section').first().textContent()).toContain('orders.state');
    const columnThread = page.getByRole('article', { name: 'Thread orders.status' });
    expect(await columnThread.locator('.thread-comment').count()).toBe(2);
    expect(await columnThread.locator('.badge', { hasText: 'outdated' }).count()).toBe(1);
    expect(await columnThread.locator('.comment-author').allTextContents()).toEqual([
      'Rita Reviewer',
      'Agent Smith',
    ]);
    await saveScreenshot(page, 'review-conversation');
    await Promise.all([
      page.waitForLoadState('load'),
      columnThread.getByRole('button', { name: 'Resolve thread' }).click(),
    ]);
    expect(
      await page
        .getByRole('article', { name: 'Thread orders.status' })
        .locator('.resolved-badge')
        .textContent(),
    ).toContain('Rita Reviewer');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Apply changes' }).click(),
    ]);
    await page.waitForSelector('#state-note');
    expect(await page.locator('h1').textContent()).toContain('applied');

    // The diagram holds the latest revision's changes, not the first's.
    const schema = await api(suite.web, agent.token, 'GET', `/diagrams/${diagramUuid}/schema`);
    const orders = (
      schema.body.data as {
        tables: { name: string; columns: { name: string; driver_data_type_params: unknown }[] }[];
      }
    ).tables.find((table) => table.name === 'orders')!;
    expect(orders.columns.map((column) => column.name)).toEqual(['id', 'state']);
    const status = await api(suite.web, agent.token, 'GET', `/proposals/${proposal.uuid}`);
    expect(status.body.data).toMatchObject({
      state: 'applied',
      latest_revision: 2,
      open_thread_count: 1,
      comment_count: 3,
    });
  });

  it('shows a viewer the conversation and lets them comment, without the reviewer actions', async () => {
    const viewer = await createPerson(suite.web, 'talk', 'viewer', 'Vera Viewer');
    const proposal = await propose(suite.web, agent, diagramUuid, {
      title: 'Order note',
      message: 'A free-text note.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'note', type: 'text' }] }],
      },
    });
    const page = await suite.signedInPage(viewer, `/review/${proposal.uuid}`);
    expect(await page.getByRole('button', { name: 'Request changes' }).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Comment', exact: true }).fill('https://example.com/spec please');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: 'Start thread' }).click(),
    ]);
    const thread = page.getByRole('article', { name: 'Thread on the whole proposal' });
    expect(await thread.locator('a').count()).toBe(0);
    // The longest comment in characters that take four bytes each still goes through the form.
    await page.getByRole('textbox', { name: 'Reply' }).fill('😀'.repeat(4000));
    await Promise.all([page.waitForLoadState('load'), thread.getByRole('button', { name: 'Reply' }).click()]);
    expect(await thread.locator('.thread-comment').count()).toBe(2);
    // A viewer may resolve the thread they started.
    await Promise.all([
      page.waitForLoadState('load'),
      thread.getByRole('button', { name: 'Resolve thread' }).click(),
    ]);
    const comments = await api(suite.web, agent.token, 'GET', `/proposals/${proposal.uuid}/comments`);
    expect((comments.body.data as unknown as { resolved_at: string | null }[])[0]!.resolved_at).toEqual(
      expect.any(String),
    );
  });
});
