// `dss diagram rename|duplicate|delete|restore|trash` end to end: the operator CLI in-process against the
// running embedded system (real gRPC to accounts and diagrams), with the result read back over REST.
import { createServiceClient } from '@dss/platform';
import { startTestSystem, type TestSystem } from '@dss/system';
import { runCli } from '../src';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

describe('operator CLI: diagrams', () => {
  let system: TestSystem;
  let token: string;

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
      env: { DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts, DSS_DIAGRAMS_GRPC_ADDR: system.grpc.diagrams },
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

  const newDiagram = async (name: string) => {
    const created = await api('POST', '/diagrams', {
      name,
      schema: { strategy: 'merge', tables: [{ name: 'a', columns: [{ name: 'id', type: 'int' }] }] },
    });
    expect(created.status).toBe(201);
    return created.body.data.uuid as string;
  };
  const as = (email: string) => ['--team', 'ops', '--email', email];

  beforeAll(async () => {
    system = await startTestSystem();
    for (const argv of [
      ['team', 'create', '--slug', 'ops', '--name', 'Ops', '--plan', 'team'],
      ['team', 'create', '--slug', 'far', '--name', 'Far', '--plan', 'team'],
      ['user', 'create', '--email', 'ow@ops.test', '--name', 'Ow'],
      ['user', 'create', '--email', 'ed@ops.test', '--name', 'Ed'],
      ['user', 'create', '--email', 'vi@ops.test', '--name', 'Vi'],
      ['member', 'add', '--team', 'ops', '--email', 'ow@ops.test', '--role', 'owner'],
      ['member', 'add', '--team', 'ops', '--email', 'ed@ops.test', '--role', 'editor'],
      ['member', 'add', '--team', 'ops', '--email', 'vi@ops.test', '--role', 'viewer'],
      ['member', 'add', '--team', 'far', '--email', 'vi@ops.test', '--role', 'owner'],
    ])
      expect((await dss(...argv)).code).toBe(0);
    token = (
      await dss('token', 'create', '--team', 'ops', '--email', 'ed@ops.test', '--write', '--json')
    ).json().token;
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('should rename a diagram and describe it', async () => {
    const uuid = await newDiagram('Before');
    const renamed = await dss(
      'diagram',
      'rename',
      uuid,
      ...as('ed@ops.test'),
      '--name',
      'After',
      '--description',
      'Why',
    );
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toBe(`diagram ${uuid} is now "After"\n`);
    expect((await api('GET', `/diagrams/${uuid}`)).body.data).toMatchObject({
      name: 'After',
      description: 'Why',
    });
  });

  it('should duplicate a diagram, printing the copy as JSON with --json', async () => {
    const uuid = await newDiagram('Original');
    const copy = await dss('diagram', 'duplicate', uuid, ...as('ed@ops.test'), '--name', 'Copy', '--json');
    expect(copy.code).toBe(0);
    const copied = copy.json();
    expect(copied).toMatchObject({ name: 'Copy', status: 'ready', table_count: 1 });
    expect((await api('GET', `/diagrams/${copied.uuid}/schema`)).body).toEqual(
      (await api('GET', `/diagrams/${uuid}/schema`)).body,
    );
  });

  it('should delete to the Trash (404 over the API), list the Trash and let an owner restore', async () => {
    const uuid = await newDiagram('Binned');
    expect((await dss('diagram', 'delete', uuid, ...as('ed@ops.test'))).code).toBe(0);
    expect((await api('GET', `/diagrams/${uuid}`)).status).toBe(404);
    expect((await api('GET', `/diagrams/${uuid}/schema`)).status).toBe(404);
    const trash = await dss('diagram', 'trash', ...as('ed@ops.test'), '--json');
    expect(trash.json().diagrams.map((entry: Json) => entry.diagram.uuid)).toContain(uuid);
    const refused = await dss('diagram', 'restore', uuid, ...as('ed@ops.test'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: forbidden: /);
    expect((await dss('diagram', 'restore', uuid, ...as('ow@ops.test'))).code).toBe(0);
    expect((await api('GET', `/diagrams/${uuid}`)).status).toBe(200);
  });

  it('should restore an older version as a new one (source restore), finding the team from the member', async () => {
    const uuid = await newDiagram('Versions');
    const proposed = await api('POST', `/diagrams/${uuid}/proposals`, {
      title: 'Add b',
      message: 'For restore-version.',
      schema: { strategy: 'additive', tables: [{ name: 'b', columns: [{ name: 'id', type: 'int' }] }] },
    });
    await createServiceClient('Proposals', system.grpc.proposals).ApplyProposal({
      uuid: proposed.body.data.uuid,
      user_id: await userId('ed@ops.test'),
      team_id: '',
      reason: '',
    });
    const restored = await dss(
      'diagram',
      'restore-version',
      '--diagram',
      uuid,
      '--version',
      '1',
      '--email',
      'ed@ops.test',
    );
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    expect(restored.stdout).toBe(`restored version 1 of ${uuid} as version 3\n`);
    const versions = (await api('GET', `/diagrams/${uuid}/versions`)).body.data;
    expect(versions[0]).toMatchObject({ number: 3, source: 'restore', restored_version: 1, author: 'Ed' });
    const tables = (await api('GET', `/diagrams/${uuid}/schema`)).body.data.tables.map(
      (table: Json) => table.name,
    );
    expect(tables).toEqual(['a']);

    const viewer = await dss(
      'diagram',
      'restore-version',
      '--diagram',
      uuid,
      '--version',
      '1',
      '--email',
      'vi@ops.test',
    );
    expect([viewer.code, viewer.stderr]).toEqual([1, expect.stringMatching(/^error: editor_required: /)]);
    const missing = await dss(
      'diagram',
      'restore-version',
      '--diagram',
      uuid,
      '--version',
      '9',
      '--email',
      'ed@ops.test',
    );
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/^error: not_found: /)]);
  });

  const userId = async (email: string) =>
    (await createServiceClient('Accounts', system.grpc.accounts).GetUser({ email, id: '' })).id;

  it('should refuse a viewer and a member of another team', async () => {
    const uuid = await newDiagram('Kept');
    const viewer = await dss('diagram', 'delete', uuid, ...as('vi@ops.test'));
    expect([viewer.code, viewer.stderr]).toEqual([1, expect.stringMatching(/^error: editor_required: /)]);
    const outsider = await dss(
      'diagram',
      'rename',
      uuid,
      '--team',
      'far',
      '--email',
      'vi@ops.test',
      '--name',
      'X',
    );
    expect([outsider.code, outsider.stderr]).toEqual([1, expect.stringMatching(/^error: not_found: /)]);
    expect((await api('GET', `/diagrams/${uuid}`)).body.data.name).toBe('Kept');
  });
});
