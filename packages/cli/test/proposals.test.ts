// `dss proposal apply|decline|reopen ID --email E` end to end: the operator CLI in-process against the
// running embedded system (real gRPC to accounts and proposals), with the result read back over REST.
import { createPool } from '@dss/platform';
import { startTestSystem, type TestSystem } from '@dss/system';
import { runCli } from '../src';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

describe('operator CLI: proposal review', () => {
  let system: TestSystem;
  let token: string;
  let diagramUuid: string;

  async function dss(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: { DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts, DSS_PROPOSALS_GRPC_ADDR: system.grpc.proposals },
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) as Json };
  }

  async function api(method: string, path: string, body?: unknown): Promise<Json> {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  let proposals = 0;
  // Each proposal adds a table of its own: once one is applied, proposing it again would change nothing.
  const propose = async (
    schema: unknown = {
      strategy: 'additive',
      tables: [{ name: `cli_table_${++proposals}`, columns: [{ name: 'id', type: 'int' }] }],
    },
    diagram = diagramUuid,
  ) => {
    const created = await api('POST', `/diagrams/${diagram}/proposals`, {
      schema,
      title: 'From the CLI test',
      message: 'Checks review through the CLI',
    });
    expect(created.status).toBe(201);
    return created.body.data.uuid as string;
  };
  const stateOf = async (uuid: string) => (await api('GET', `/proposals/${uuid}`)).body.data;

  beforeAll(async () => {
    system = await startTestSystem();
    for (const argv of [
      ['team', 'create', '--slug', 'rev', '--name', 'Rev', '--plan', 'team'],
      ['user', 'create', '--email', 'ed@rev.test', '--name', 'Ed'],
      ['user', 'create', '--email', 'vi@rev.test', '--name', 'Vi'],
      ['member', 'add', '--team', 'rev', '--email', 'ed@rev.test', '--role', 'editor'],
      ['member', 'add', '--team', 'rev', '--email', 'vi@rev.test', '--role', 'viewer'],
    ])
      expect((await dss(...argv)).code).toBe(0);
    token = (
      await dss('token', 'create', '--team', 'rev', '--email', 'ed@rev.test', '--write', '--json')
    ).json().token;
    const diagram = await api('POST', '/diagrams', {
      name: 'Shop',
      schema: { strategy: 'merge', tables: [{ name: 'a', columns: [{ name: 'id', type: 'int' }] }] },
    });
    diagramUuid = diagram.body.data.uuid;
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('should apply a pending proposal, and refuse to apply it twice', async () => {
    const uuid = await propose();
    const applied = await dss('proposal', 'apply', uuid, '--email', 'ed@rev.test', '--json');
    expect(applied.code).toBe(0);
    expect(applied.json()).toMatchObject({ uuid, state: 'applied' });
    expect(await stateOf(uuid)).toMatchObject({ state: 'applied', applied_version_uuid: expect.any(String) });

    const again = await dss('proposal', 'apply', uuid, '--email', 'ed@rev.test');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/conflict: .*already applied/);
  });

  it('should decline with a reason, and print a short line without --json', async () => {
    const uuid = await propose();
    const declined = await dss('proposal', 'decline', uuid, '--email', 'ed@rev.test', '--reason', 'Not now');
    expect(declined.code).toBe(0);
    expect(declined.stdout).toBe(`proposal ${uuid} is declined\n`);
    expect(await stateOf(uuid)).toMatchObject({ state: 'declined', decline_reason: 'Not now' });
  });

  it('should print each reason on its own line, exit 1 and keep the proposal pending when its entities changed since', async () => {
    const shop = await api('POST', '/diagrams', {
      name: 'Shrinking',
      schema: {
        strategy: 'merge',
        tables: [
          { name: 'a', columns: [{ name: 'id', type: 'int' }] },
          {
            name: 'b',
            columns: [
              { name: 'id', type: 'int' },
              { name: 'note', type: 'text' },
            ],
          },
        ],
      },
    });
    const shopUuid = shop.body.data.uuid as string;
    const dropColumn = await propose(
      { strategy: 'merge', deletions: { columns: [{ table: 'b', columns: ['note'] }] } },
      shopUuid,
    );
    const dropTable = await propose({ strategy: 'merge', deletions: { tables: ['b'] } }, shopUuid);
    expect((await dss('proposal', 'apply', dropTable, '--email', 'ed@rev.test')).code).toBe(0);

    const refused = await dss('proposal', 'apply', dropColumn, '--email', 'ed@rev.test');
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: conflict: /);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}\S.*: \S/);
    expect(lines.slice(1).join('\n')).toMatch(/\bb\b/);
    expect((await stateOf(dropColumn)).state).toBe('pending');
  });

  it('should reopen an expired proposal for about 30 more days', async () => {
    const uuid = await propose();
    // Expired now: the stored expiry moved into the past (test only).
    const db = createPool(system.env.DATABASE_URL!, { max: 1 });
    try {
      await db.query(
        "UPDATE proposals.proposals SET expires_at = now() - interval '1 second' WHERE uuid = $1",
        [uuid],
      );
    } finally {
      await db.end();
    }
    expect((await stateOf(uuid)).state).toBe('expired');

    const before = Date.now();
    const reopened = await dss('proposal', 'reopen', uuid, '--email', 'ed@rev.test', '--json');
    expect(reopened.code).toBe(0);
    expect(reopened.json()).toMatchObject({ uuid, state: 'pending' });
    const days = (Date.parse(reopened.json().expires_at) - before) / 86_400_000;
    expect(days).toBeCloseTo(30, 2);
    expect(await stateOf(uuid)).toMatchObject({ state: 'pending', expires_at: reopened.json().expires_at });
  });

  it('should refuse to reopen a pending proposal and refuse a viewer as reviewer', async () => {
    const uuid = await propose();
    const reopen = await dss('proposal', 'reopen', uuid, '--email', 'ed@rev.test');
    expect(reopen.code).not.toBe(0);
    expect(reopen.stderr).toMatch(/conflict: only an expired proposal can be reopened/);
    const byViewer = await dss('proposal', 'apply', uuid, '--email', 'vi@rev.test');
    expect(byViewer.code).not.toBe(0);
    expect(byViewer.stderr).toMatch(/editor_required/);
    expect((await stateOf(uuid)).state).toBe('pending');
  });

  describe('proposal comment, comments and request-changes', () => {
    it('should hold a conversation as people named by --email, seen in the status over REST', async () => {
      const uuid = await propose();
      const table = `cli_table_${proposals}`;
      const requested = await dss(
        'proposal',
        'request-changes',
        uuid,
        '--email',
        'ed@rev.test',
        '--message',
        'Add a key',
      );
      expect(requested.stdout).toBe(`proposal ${uuid} is pending; changes requested\n`);
      const started = await dss(
        'proposal',
        'comment',
        uuid,
        '--email',
        'vi@rev.test',
        '--body',
        'Which one?',
        '--table',
        table,
        '--column',
        'id',
        '--json',
      );
      expect(started.code).toBe(0);
      const thread = started.json();
      expect(thread).toMatchObject({ anchor: { table, column: 'id' }, author_kind: 'person', revision: 1 });
      const reply = await dss(
        'proposal',
        'comment',
        uuid,
        '--email',
        'ed@rev.test',
        '--body',
        'line one\nline two',
        '--reply-to',
        thread.id,
      );
      expect(reply.code).toBe(0);

      const listed = await dss('proposal', 'comments', uuid, '--email', 'vi@rev.test');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(`changes_requested`);
      expect(listed.stdout).toContain(`${table}.id`);
      // Bodies print as one JSON string each: a newline in a comment cannot forge another line.
      expect(listed.stdout).toContain('"line one\\nline two"');
      expect(await stateOf(uuid)).toMatchObject({
        state: 'pending',
        comment_count: 3,
        open_thread_count: 2,
        review: { requested_changes_at: expect.any(String) },
      });

      const stray = await dss(
        'proposal',
        'comment',
        uuid,
        '--email',
        'ed@rev.test',
        '--body',
        'x',
        '--table',
        'nowhere',
      );
      expect(stray.code).not.toBe(0);
      expect(stray.stderr).toMatch(/invalid_request: anchor.table/);
      const viewerRequest = await dss(
        'proposal',
        'request-changes',
        uuid,
        '--email',
        'vi@rev.test',
        '--message',
        'x',
      );
      expect(viewerRequest.stderr).toMatch(/editor_required/);
    });
  });
});
