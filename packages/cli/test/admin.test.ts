import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestSystem, type TestSystem } from '@dss/system';
import { plainFields } from '../src/commands';
import { runCli } from '../src';

describe('operator CLI: listing and managing teams, users, members and tokens', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await startTestSystem();
  });
  afterAll(async () => {
    await system.stop();
  });

  async function dss(argv: string[], stdin?: string) {
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
      readStdin: stdin === undefined ? undefined : async () => stdin,
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) };
  }

  const readDataTypes = (token: string) =>
    fetch(`${system.apiUrl}/data-types?driver=pgsql`, { headers: { authorization: `Bearer ${token}` } });

  /** Polls until the gateway refuses the token, for at most `ms`; returns the last status. */
  async function statusWithin(token: string, ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    let status = (await readDataTypes(token)).status;
    while (status === 200 && Date.now() < deadline) status = (await readDataTypes(token)).status;
    return status;
  }

  async function seedMember(slug: string, email: string, role: string) {
    await dss(['team', 'create', '--slug', slug, '--name', slug.toUpperCase(), '--plan', 'team']);
    await dss(['user', 'create', '--email', email, '--name', email.split('@')[0]!]);
    await dss(['member', 'add', '--team', slug, '--email', email, '--role', role]);
    return (await dss(['token', 'create', '--team', slug, '--email', email, '--json'])).json();
  }

  it('lists teams and shows one team with its members', async () => {
    await seedMember('listed', 'lia@listed.test', 'owner');
    const teams = await dss(['team', 'list', '--json']);
    expect(teams.code).toBe(0);
    expect(teams.json().teams.map((t: { slug: string }) => t.slug)).toContain('listed');
    const shown = await dss(['team', 'show', '--slug', 'listed', '--json']);
    expect(shown.json()).toMatchObject({
      slug: 'listed',
      members: [{ email: 'lia@listed.test', role: 'owner' }],
    });
    expect((await dss(['team', 'show', '--slug', 'listed'])).stdout).toMatch(/lia@listed\.test\s+owner/);
  });

  it('prints plain fields with --json, without the wire format’s oneof markers', async () => {
    const created = await dss([
      'team',
      'create',
      '--slug',
      'plain',
      '--name',
      'Plain',
      '--plan',
      'team',
      '--json',
    ]);
    expect(created.stdout).not.toMatch(/"_/);
    expect(plainFields({ a: 1, _b: 'b', c: [{ _d: 'd', e: 2 }] })).toEqual({ a: 1, c: [{ e: 2 }] });
  });

  it('lists users, all or of one team', async () => {
    await seedMember('users-a', 'ua@users.test', 'viewer');
    await dss(['user', 'create', '--email', 'loner@users.test', '--name', 'Loner']);
    const all = (await dss(['user', 'list', '--json'])).json().users.map((u: { email: string }) => u.email);
    expect(all).toEqual(expect.arrayContaining(['ua@users.test', 'loner@users.test']));
    const ofTeam = (await dss(['user', 'list', '--team', 'users-a', '--json'])).json().users;
    expect(ofTeam.map((u: { email: string }) => u.email)).toEqual(['ua@users.test']);
  });

  it('sets a password from standard input or a file, never taking it as an argument', async () => {
    await dss(['user', 'create', '--email', 'pw@pw.test', '--name', 'Pw']);
    const fromStdin = await dss(['user', 'set-password', '--email', 'pw@pw.test'], 'first-secret-1\n');
    expect(fromStdin.code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'dss-cli-'));
    writeFileSync(join(dir, 'pw'), 'second-secret-2\n');
    const fromFile = await dss([
      'user',
      'set-password',
      '--email',
      'pw@pw.test',
      '--password-file',
      join(dir, 'pw'),
    ]);
    expect(fromFile.code).toBe(0);
    expect((await dss(['user', 'set-password', '--email', 'pw@pw.test', '--password', 'x'])).code).toBe(2);
    const short = await dss(['user', 'set-password', '--email', 'pw@pw.test'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
  });

  it('changes a member’s role, refuses one for a non-member, and lists members', async () => {
    await seedMember('roles', 'ro@roles.test', 'viewer');
    const changed = await dss([
      'member',
      'set-role',
      '--team',
      'roles',
      '--email',
      'ro@roles.test',
      '--role',
      'editor',
      '--json',
    ]);
    expect(changed.json()).toMatchObject({ role: 'editor' });
    await dss(['user', 'create', '--email', 'out@roles.test', '--name', 'Out']);
    const refused = await dss([
      'member',
      'set-role',
      '--team',
      'roles',
      '--email',
      'out@roles.test',
      '--role',
      'owner',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('error: not_found: out@roles.test is not a member of team "roles"');
    const members = (await dss(['member', 'list', '--team', 'roles', '--json'])).json().memberships;
    expect(members).toEqual([expect.objectContaining({ user_email: 'ro@roles.test', role: 'editor' })]);
  });

  it('names the missing record in one line', async () => {
    const result = await dss(['member', 'list', '--team', 'no-such-team']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('error: not_found: no team with slug "no-such-team"');
    expect((await dss(['user', 'delete', '--email', 'nobody@x.test'])).stderr.trim()).toBe(
      'error: not_found: no user with email "nobody@x.test"',
    );
  });

  it('lists every token of a team across its users', async () => {
    await seedMember('tokens', 't1@tokens.test', 'owner');
    await dss(['user', 'create', '--email', 't2@tokens.test', '--name', 'T2']);
    await dss(['member', 'add', '--team', 'tokens', '--email', 't2@tokens.test', '--role', 'viewer']);
    await dss(['token', 'create', '--team', 'tokens', '--email', 't2@tokens.test']);
    const tokens = (await dss(['token', 'list', '--team', 'tokens', '--json'])).json().tokens;
    expect(new Set(tokens.map((t: { user_email: string }) => t.user_email))).toEqual(
      new Set(['t1@tokens.test', 't2@tokens.test']),
    );
  });

  it('invites by email and prints the single-use link under DSS_APP_URL', async () => {
    await seedMember('invites', 'own@invites.test', 'owner');
    const invited = await dss([
      'member',
      'invite',
      '--team',
      'invites',
      '--email',
      'new@invites.test',
      '--role',
      'viewer',
    ]);
    expect(invited.code).toBe(0);
    const link = /^(http\S+)$/m.exec(invited.stdout)?.[1];
    expect(link).toMatch(/^http:\/\/localhost:8081\/invitations\/[A-Za-z0-9_-]{43}$/);
    expect(invited.stdout).toContain('new@invites.test may join team invites as viewer');
    const refused = await dss([
      'member',
      'invite',
      '--team',
      'invites',
      '--email',
      'own@invites.test',
      '--role',
      'owner',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already a member/);
  });

  it('removing a member makes their token fail within a second', async () => {
    const issued = await seedMember('removal', 'gone@removal.test', 'editor');
    expect((await readDataTypes(issued.token)).status).toBe(200);
    expect((await dss(['member', 'remove', '--team', 'removal', '--email', 'gone@removal.test'])).code).toBe(
      0,
    );
    expect(await statusWithin(issued.token, 1000)).toBe(401);
  });

  it('deleting a user makes their tokens fail within a second and frees the email', async () => {
    const issued = await seedMember('deletion', 'del@deletion.test', 'owner');
    expect((await readDataTypes(issued.token)).status).toBe(200);
    const deleted = await dss(['user', 'delete', '--email', 'del@deletion.test', '--json']);
    expect(deleted.code).toBe(0);
    expect(await statusWithin(issued.token, 1000)).toBe(401);
    expect((await dss(['member', 'list', '--team', 'deletion', '--json'])).json().memberships).toEqual([]);
    expect((await dss(['user', 'create', '--email', 'del@deletion.test', '--name', 'Again'])).code).toBe(0);
  });
});
