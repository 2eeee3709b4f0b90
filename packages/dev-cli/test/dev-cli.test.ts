// `dss-dev` in-process against the one-process system and a real PostgreSQL database read through a
// SELECT-only user: only the REST API and a token (DSS_TOKEN or --token-file, DSS_API_URL or --api-url),
// `introspect --create/--propose` as the token's user, drift (and --version) as the operator CLI answers it.
// Credentials appear in no output, diagram or proposal.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestSystem, type TestMember, TestPeople, type TestSystem } from '@dss/system';
import { runCli } from '../../cli/src';
import { type LiveDatabase, livePostgres } from '../../schema-cli/test/support/live-databases';
import { runDevCli } from '../src';
import { SHOP_DDL } from './support/shop';

// biome-ignore lint/suspicious/noExplicitAny: JSON outputs under test are read field by field
type Json = Record<string, any>;

describe('developer CLI (dss-dev): the schema commands over the REST API with a token', () => {
  let system: TestSystem;
  let people: TestPeople;
  let editor: TestMember;
  let database: LiveDatabase;
  let folder: string;

  async function dev(env: NodeJS.ProcessEnv, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runDevCli(argv, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env,
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) as Json };
  }
  const asEditor = (...argv: string[]) =>
    dev({ DSS_API_URL: system.apiUrl, DSS_TOKEN: editor.token }, ...argv);
  const api = async (route: string) => {
    const response = await fetch(`${system.apiUrl}${route}`, {
      headers: { authorization: `Bearer ${editor.token}` },
    });
    return (await response.json()) as Json;
  };
  const noSecrets = (...texts: string[]) => {
    for (const text of texts) {
      expect(text).not.toContain(database.password);
      expect(text).not.toMatch(/dss_reader_/);
    }
  };

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    editor = await people.member({ team: 'dev-cli', role: 'editor', write: true });
    database = await livePostgres();
    await database.run(SHOP_DDL);
    folder = mkdtempSync(path.join(tmpdir(), 'dss-dev-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await database?.drop();
    people?.close();
    await system?.stop();
  });

  let diagramUuid: string;

  it('When introspect --create runs with only a token, then the token’s team gets the diagram, without credentials', async () => {
    const created = await asEditor('introspect', '--url', database.url, '--create', 'Dev shop', '--json');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    diagramUuid = created.json().uuid;
    expect(created.json()).toMatchObject({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'ready',
      tables: 2,
      source: expect.stringMatching(/^postgres:\/\/127\.0\.0\.1:5432\/dss_live_\w+$/),
    });
    const diagram = (await api(`/diagrams/${diagramUuid}`)).data;
    expect(diagram.name).toBe('Dev shop');
    const schema = (await api(`/diagrams/${diagramUuid}/schema`)).data;
    expect(schema.tables.map((t: Json) => t.name)).toEqual(['customers', 'orders']);
    expect(schema.relationships).toEqual([
      expect.objectContaining({ source_table: 'orders', target_table: 'customers', on_delete: 'cascade' }),
    ]);
    noSecrets(created.stdout, JSON.stringify(diagram), JSON.stringify(schema));
  });

  it('When the token comes from --token-file and the API from --api-url, then drift works; without a token it says how to give one', async () => {
    const tokenFile = path.join(folder, 'token');
    writeFileSync(tokenFile, `${editor.token}\n`);
    const flags = await dev(
      {},
      '--api-url',
      system.apiUrl,
      '--token-file',
      tokenFile,
      'drift',
      '--diagram',
      diagramUuid,
      '--url',
      database.url,
    );
    expect(flags.stderr).toBe('');
    expect(flags.code).toBe(0);
    expect(flags.stdout).toContain('No drift');
    const none = await dev({ DSS_API_URL: system.apiUrl }, 'lint', '--diagram', diagramUuid);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: set DSS_TOKEN \(or --token-file\) to a personal access token/);
    const unreadable = await dev(
      {},
      '--token-file',
      path.join(folder, 'nothing-here'),
      'drift',
      '--diagram',
      diagramUuid,
      '--url',
      database.url,
    );
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('cannot read --token-file');
    expect(unreadable.stderr).toContain('ENOENT');
    const wrongApi = await dev(
      { DSS_TOKEN: 'dss_not_a_token' },
      '--api-url',
      system.apiUrl,
      'drift',
      '--diagram',
      diagramUuid,
      '--url',
      database.url,
    );
    expect(wrongApi.code).toBe(2);
    expect(wrongApi.stderr).toMatch(/^error: unauthenticated: [^\n]*\n$/);
  });

  it('When the database gains a column, then drift exits 1 naming it; --propose opens a proposal that, applied, ends the drift; --version compares one version', async () => {
    await database.run('ALTER TABLE orders ADD COLUMN note text');
    const drift = await asEditor('drift', '--diagram', diagramUuid, '--url', database.url, '--json');
    expect(drift.code).toBe(1);
    expect(drift.json().changes.columns.added.map((c: Json) => `${c.table}.${c.record.name}`)).toEqual([
      'orders.note',
    ]);

    const proposed = await asEditor('introspect', '--url', database.url, '--propose', diagramUuid, '--json');
    expect(proposed.stderr).toBe('');
    expect(proposed.code).toBe(0);
    const proposal = proposed.json();
    expect(proposal.review_url).toContain(proposal.uuid);
    const status = (await api(`/proposals/${proposal.uuid}`)).data;
    expect(status).toMatchObject({ state: 'pending' });
    const migration = (await api(`/proposals/${proposal.uuid}/migration?format=json`)).data;
    expect(migration.sql).toMatch(/ALTER TABLE "orders" ADD COLUMN "note" text/);
    noSecrets(proposed.stdout, JSON.stringify(status), JSON.stringify(migration));

    const owner = await people.member({ team: 'dev-cli', role: 'owner' });
    const applied = await runCli(['proposal', 'apply', proposal.uuid, '--email', owner.email], {
      stdout: () => undefined,
      stderr: () => undefined,
      env: { DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts, DSS_PROPOSALS_GRPC_ADDR: system.grpc.proposals },
    });
    expect(applied).toBe(0);
    expect((await asEditor('drift', '--diagram', diagramUuid, '--url', database.url)).code).toBe(0);
    const before = await asEditor('drift', '--diagram', diagramUuid, '--version', '1', '--url', database.url);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`# Drift: diagram ${diagramUuid} version 1 →`);
    expect(before.stdout).toContain('note');
  });

  it('When the token may only read, then introspect --create is refused in one line', async () => {
    const viewer = await people.member({ team: 'dev-cli', role: 'viewer' });
    const refused = await dev(
      { DSS_API_URL: system.apiUrl, DSS_TOKEN: viewer.token },
      'introspect',
      '--url',
      database.url,
      '--create',
      'Not allowed',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: \w+: [^\n]+\n$/);
    noSecrets(refused.stderr);
  });
});
