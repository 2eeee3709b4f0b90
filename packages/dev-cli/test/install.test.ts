// `dss-dev` as a developer gets it: `npm pack` of the workspace (its prepack bundles it), `npm install
// --offline` of the tarball into an empty folder outside the repository (so nothing resolves from the
// checkout's node_modules), then the installed binary as a child process against the one-process system
// and a real PostgreSQL database: --help, introspect --create, drift (0 equal; 1 after ALTER TABLE ADD
// COLUMN), and check drawing its PNG from the package's own files.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestSystem, type TestMember, TestPeople, type TestSystem } from '@dss/system';
import { type LiveDatabase, livePostgres } from '../../schema-cli/test/support/live-databases';
import { SHOP_DDL } from './support/shop';

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The environment without npm's own variables (`npm test` sets npm_config_*, which would steer npm here). */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_/i.test(key) && !key.startsWith('DSS_') && key !== 'NODE_PATH') env[key] = value;
  return { ...env, ...extra };
}

describe('dss-dev installed from its packed tarball', () => {
  let folder: string;
  let tarball: string;
  let bin: string;
  let system: TestSystem;
  let people: TestPeople;
  let editor: TestMember;
  let database: LiveDatabase;

  async function dssDev(...argv: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [bin, ...argv], {
        cwd: folder,
        env: cleanEnv({ DSS_API_URL: system.apiUrl, DSS_TOKEN: editor.token }),
        maxBuffer: 16 * 1024 * 1024,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof failed.code !== 'number') throw error;
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'dss-dev-install-'));
    const { stdout } = await run(
      'npm',
      ['pack', '-w', '@dss/dev-cli', '--pack-destination', folder, '--silent'],
      {
        cwd: repoRoot,
        env: cleanEnv(),
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    tarball = path.join(folder, stdout.trim().split('\n').pop() ?? '');
    const prefix = path.join(folder, 'app');
    mkdirSync(prefix);
    writeFileSync(path.join(prefix, 'package.json'), '{"name":"app","version":"1.0.0","private":true}\n');
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
      cwd: prefix,
      env: cleanEnv(),
    });
    bin = path.join(prefix, 'node_modules', '.bin', 'dss-dev');
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    editor = await people.member({ team: 'dev-install', role: 'editor', write: true });
    database = await livePostgres();
    await database.run(SHOP_DDL);
  }, 300_000);
  afterAll(async () => {
    await database?.drop();
    people?.close();
    await system?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('When packed, then the tarball holds the bin and the bundle with its files, and depends on nothing', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/bin/dss-dev.js',
        'package/bundle/dss-dev.js',
        'package/bundle/libpg-query.wasm',
        'package/bundle/vendor/dbml-core-lite.js',
        'package/bundle/assets/index_bg.wasm',
        'package/bundle/assets/DejaVuSans.ttf',
        'package/bundle/THIRD-PARTY-LICENSES.txt',
      ]),
    );
    expect(files.filter((file) => /\/(src|test|dist)\//.test(file))).toEqual([]);
    const installed = path.join(folder, 'app', 'node_modules', '@dss', 'dev-cli');
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(readdirSync(path.join(folder, 'app', 'node_modules')).sort()).toEqual([
      '.bin',
      '.package-lock.json',
      '@dss',
    ]);
    const licences = readFileSync(path.join(installed, 'bundle', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    for (const name of [
      'pg@',
      'mysql2@',
      'commander@',
      'libpg-query@',
      '@resvg/resvg-wasm@',
      'dejavu-fonts-ttf@',
    ])
      expect(licences).toContain(name);
  });

  it('When installed, then dss-dev --help lists the commands and the API settings', async () => {
    const help = await dssDev('--help');
    expect(help.code).toBe(0);
    for (const word of ['introspect', 'drift', 'lint', 'check', '--api-url', '--token-file'])
      expect(help.stdout).toContain(word);
    const driftHelp = await dssDev('drift', '--help');
    expect(driftHelp.stdout).toContain('--version <n>');
  });

  it('When the installed binary reads the database, then drift exits 0 until ALTER TABLE ADD COLUMN, then 1 naming the column', async () => {
    const created = await dssDev('introspect', '--url', database.url, '--create', 'Installed', '--json');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const uuid = JSON.parse(created.stdout).uuid as string;
    const equal = await dssDev('drift', '--diagram', uuid, '--url', database.url);
    expect(equal.stderr).toBe('');
    expect(equal.code).toBe(0);
    expect(equal.stdout).toContain('No drift');
    await database.run('ALTER TABLE orders ADD COLUMN note text');
    const drift = await dssDev('drift', '--diagram', uuid, '--url', database.url, '--json');
    expect(drift.code).toBe(1);
    const { changes } = JSON.parse(drift.stdout);
    expect(
      changes.columns.added.map(
        (c: { table: string; record: { name: string } }) => `${c.table}.${c.record.name}`,
      ),
    ).toEqual(['orders.note']);
    for (const text of [created.stdout, equal.stdout, drift.stdout, drift.stderr])
      expect(text).not.toContain(database.password);
    const refused = await dssDev('drift', '--diagram', uuid, '--url', database.url.replace(':5432', ':1'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: cannot read postgres:\/\/127\.0\.0\.1:1\/dss_live_\w+: connection refused\n$/,
    );
  }, 240_000);

  it('When the installed binary lints DDL and DBML and runs check, then its parsers, SARIF and PNG work from the package alone', async () => {
    writeFileSync(
      path.join(folder, 'schema.sql'),
      'CREATE TABLE notes (body text); CREATE TABLE tags (id int PRIMARY KEY);',
    );
    const sql = await dssDev('lint', '--ddl', 'schema.sql', '--driver', 'pgsql', '--format', 'sarif');
    expect(sql.code).toBe(1);
    expect(JSON.parse(sql.stdout).runs[0].results[0]).toMatchObject({ ruleId: 'table-without-primary-key' });
    writeFileSync(path.join(folder, 'schema.dbml'), 'Table notes {\n  body text\n}\n');
    const dbml = await dssDev('lint', '--ddl', 'schema.dbml', '--driver', 'mysql', '--json');
    expect(dbml.code).toBe(1);
    expect(JSON.parse(dbml.stdout).errors).toBe(1);

    const created = await fetch(`${system.apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Checked', driver: 'pgsql', ddl: SHOP_DDL }),
    });
    const checked = ((await created.json()) as { data: { uuid: string } }).data.uuid;
    const migrations = path.join(folder, 'migrations');
    mkdirSync(migrations);
    writeFileSync(
      path.join(migrations, '001.sql'),
      'CREATE TABLE invoices (id bigint PRIMARY KEY, order_id bigint REFERENCES orders (id));',
    );
    const dev = await livePostgres();
    try {
      const report = await dssDev(
        'check',
        '--diagram',
        checked,
        '--ddl',
        'migrations',
        '--dev-url',
        dev.adminUrl,
        '--out',
        'report.md',
      );
      expect(report.stderr).toBe('');
      expect(report.code).toBe(1);
      expect(readFileSync(path.join(folder, 'report.md'), 'utf8')).toContain('(report.png)');
      const png = readFileSync(path.join(folder, 'report.png'));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(800);
    } finally {
      await dev.drop();
    }
  }, 240_000);
});
