// `dss proposal apply|decline|reopen ID --email E` end to end: the operator CLI in-process against the
// running embedded system (real gRPC to accounts and proposals), with the result read back over REST.
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

  const propose = async () => {
    const created = await api('POST', `/diagrams/${diagramUuid}/proposals`, {
      schema: {
        strategy: 'additive',
        tables: [{ name: 'cli_table', columns: [{ name: 'id', type: 'int' }] }],
      },
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
  }, 60_000);
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
});
