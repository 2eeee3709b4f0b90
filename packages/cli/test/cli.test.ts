import { startTestSystem, type TestSystem } from '@dss/system';
import { runCli } from '../src';

describe('operator CLI against the running system', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await startTestSystem();
  });
  afterAll(async () => {
    await system.stop();
  });

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
      env: { DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts, DSS_PROPOSALS_GRPC_ADDR: '127.0.0.1:1' },
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) };
  }

  const readDataTypes = (token: string) =>
    fetch(`${system.apiUrl}/data-types?driver=pgsql`, { headers: { authorization: `Bearer ${token}` } });

  it('creates team, user, membership and token, and the token works against the gateway', async () => {
    const team = await dss(
      'team',
      'create',
      '--slug',
      'acme',
      '--name',
      'Acme',
      '--plan',
      'starter',
      '--json',
    );
    expect(team.code).toBe(0);
    expect(team.json()).toMatchObject({ slug: 'acme', name: 'Acme', plan: 'starter' });

    const user = await dss('user', 'create', '--email', 'ana@acme.test', '--name', 'Ana', '--json');
    expect(user.code).toBe(0);
    expect(user.json()).toMatchObject({ email: 'ana@acme.test', name: 'Ana' });

    const member = await dss(
      'member',
      'add',
      '--team',
      'acme',
      '--email',
      'ana@acme.test',
      '--role',
      'editor',
      '--json',
    );
    expect(member.json()).toMatchObject({ team_slug: 'acme', user_email: 'ana@acme.test', role: 'editor' });

    const token = await dss(
      'token',
      'create',
      '--team',
      'acme',
      '--email',
      'ana@acme.test',
      '--write',
      '--expires',
      '90d',
      '--json',
    );
    expect(token.code).toBe(0);
    const issued = token.json();
    expect(issued).toEqual(
      expect.objectContaining({ id: expect.any(String), token: expect.any(String), write: true }),
    );
    expect((Date.parse(issued.expires_at) - Date.now()) / 86_400_000).toBeCloseTo(90, 1);

    const response = await readDataTypes(issued.token);
    expect(response.status).toBe(200);
    expect(Object.keys(((await response.json()) as { data: object }).data)).toEqual(['pgsql']);
  });

  it('prints only the token without --json, and lists tokens without their secrets', async () => {
    const created = await dss('token', 'create', '--team', 'acme', '--email', 'ana@acme.test');
    const secret = created.stdout.trim();
    expect(secret.split('.')).toHaveLength(3);
    const listed = await dss('token', 'list', '--team', 'acme', '--email', 'ana@acme.test', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json().tokens.length).toBeGreaterThanOrEqual(2);
    expect(listed.stdout).not.toContain(secret);
  });

  it('accepts --expires-at for operators', async () => {
    const at = '2031-01-02T03:04:05.000Z';
    const token = await dss(
      'token',
      'create',
      '--team',
      'acme',
      '--email',
      'ana@acme.test',
      '--expires-at',
      at,
      '--json',
    );
    expect(token.json().expires_at).toBe(at);
  });

  it('revokes a token so that the gateway refuses it', async () => {
    const issued = (
      await dss('token', 'create', '--team', 'acme', '--email', 'ana@acme.test', '--json')
    ).json();
    expect((await readDataTypes(issued.token)).status).toBe(200);
    const revoked = await dss('token', 'revoke', '--id', issued.id, '--json');
    expect(revoked.code).toBe(0);
    expect(revoked.json().revoked_at).toEqual(expect.any(String));
    const deadline = Date.now() + 1000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) status = (await readDataTypes(issued.token)).status;
    expect(status).toBe(401);
  });

  it('changes a plan, removes a member and deletes a team', async () => {
    expect((await dss('plan', 'set', '--team', 'acme', '--plan', 'enterprise', '--json')).json().plan).toBe(
      'enterprise',
    );
    await dss('user', 'create', '--email', 'bo@acme.test', '--name', 'Bo');
    await dss('member', 'add', '--team', 'acme', '--email', 'bo@acme.test', '--role', 'viewer');
    expect((await dss('member', 'remove', '--team', 'acme', '--email', 'bo@acme.test')).code).toBe(0);
    await dss('team', 'create', '--slug', 'short-lived', '--name', 'Short', '--plan', 'team');
    expect((await dss('team', 'delete', '--slug', 'short-lived', '--json')).json().slug).toBe('short-lived');
  });

  it('exits 2 with usage on stderr for an unknown command', async () => {
    const result = await dss('teams', 'make');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command/i);
    expect(result.stderr).toMatch(/Usage:/);
  });

  it('exits 2 for a bad argument: a role outside owner, editor, viewer', async () => {
    const result = await dss('member', 'add', '--team', 'acme', '--email', 'ana@acme.test', '--role', 'boss');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/boss/);
  });

  it('exits 2 for a missing required option and for --expires with --expires-at', async () => {
    expect((await dss('team', 'create', '--slug', 'x')).code).toBe(2);
    const both = await dss(
      'token',
      'create',
      '--team',
      'acme',
      '--email',
      'ana@acme.test',
      '--expires',
      '30d',
      '--expires-at',
      '2030-01-01T00:00:00Z',
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --expires or --expires-at/);
  });

  it('exits 1 with the error code when the service refuses', async () => {
    const result = await dss('team', 'create', '--slug', 'acme', '--name', 'Again', '--plan', 'team');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: conflict: /);
  });
});
