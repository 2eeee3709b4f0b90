// `dss introspect`, `dss drift` and `dss lint` end to end: the CLI in-process against the running embedded
// system (gRPC for the operator commands, the REST API with a token for drift and lint) and a real
// PostgreSQL database read through a SELECT-only user. Credentials never appear in an output, a diagram
// or a proposal; failures are one line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestSystem, type TestMember, TestPeople, type TestSystem } from '@dss/system';
import { runCli } from '../src';
import { type LiveDatabase, liveMariadb, livePostgres } from '../../schema-cli/test/support/live-databases';
import { sarifProblems } from '../../schema-cli/test/support/sarif-schema';

// biome-ignore lint/suspicious/noExplicitAny: JSON outputs under test are read field by field
type Json = Record<string, any>;

const SHOP_DDL = `
  CREATE TABLE customers (id bigint PRIMARY KEY, email varchar(255) NOT NULL UNIQUE);
  CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id bigint NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    placed_at timestamp NOT NULL
  );
  CREATE INDEX orders_customer ON orders (customer_id);`;

describe('operator CLI: live databases', () => {
  let system: TestSystem;
  let people: TestPeople;
  let editor: TestMember;
  let database: LiveDatabase;

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
      env: {
        DSS_ACCOUNTS_GRPC_ADDR: system.grpc.accounts,
        DSS_PROPOSALS_GRPC_ADDR: system.grpc.proposals,
        DSS_DIAGRAMS_GRPC_ADDR: system.grpc.diagrams,
        DSS_API_URL: system.apiUrl,
        DSS_TOKEN: editor.token,
      },
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) as Json };
  }
  const api = async (path: string) => {
    const response = await fetch(`${system.apiUrl}${path}`, {
      headers: { authorization: `Bearer ${editor.token}` },
    });
    return (await response.json()) as Json;
  };
  const noSecrets = (...texts: string[]) => {
    for (const text of texts) expect(text).not.toContain(database.password);
  };

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    editor = await people.member({ team: 'live', role: 'editor', write: true });
    database = await livePostgres();
    await database.run(SHOP_DDL);
  });
  afterAll(async () => {
    await database?.drop();
    people?.close();
    await system?.stop();
  });

  let diagramUuid: string;

  it('When introspect --create runs, then it prints the new diagram’s uuid and the diagram holds the schema', async () => {
    const created = await dss(
      'introspect',
      '--url',
      database.url,
      '--team',
      'live',
      '--email',
      editor.email,
      '--create',
      'Live shop',
      '--json',
    );
    expect(created.code).toBe(0);
    diagramUuid = created.json().uuid;
    expect(diagramUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json()).toMatchObject({
      status: 'ready',
      tables: 2,
      source: expect.stringMatching(/^postgres:\/\/127\.0\.0\.1:5432\//),
    });
    const schema = (await api(`/diagrams/${diagramUuid}/schema`)).data;
    expect(schema.tables.map((t: Json) => t.name)).toEqual(['customers', 'orders']);
    expect(schema.relationships).toEqual([
      expect.objectContaining({
        source_table: 'orders',
        source_column: 'customer_id',
        target_table: 'customers',
        on_delete: 'cascade',
      }),
    ]);
    const plain = await dss(
      'introspect',
      '--url',
      database.url,
      '--team',
      'live',
      '--email',
      editor.email,
      '--create',
      'Plain',
    );
    expect(plain.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    noSecrets(created.stdout, created.stderr, plain.stdout, JSON.stringify(schema));
  });

  it('When the password or the host is wrong, then one line says so, without a stack or the password', async () => {
    // The local PostgreSQL trusts every local user; MariaDB checks passwords.
    const mariadb = await liveMariadb();
    try {
      const wrong = mariadb.url.replace(mariadb.password, 'not-the-password');
      const refused = await dss(
        'introspect',
        '--url',
        wrong,
        '--team',
        'live',
        '--email',
        editor.email,
        '--create',
        'X',
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^error: cannot read mysql:\/\/127\.0\.0\.1:3306\/dss_live_\w+: authentication failed \(check the user and password\)\n$/,
      );
      expect(refused.stderr).not.toContain('not-the-password');
      expect(refused.stderr).not.toContain('dss_reader');
    } finally {
      await mariadb.drop();
    }
    const noHost = await dss('drift', '--diagram', diagramUuid, '--url', database.url.replace(':5432', ':1'));
    expect(noHost.code).toBe(2);
    expect(noHost.stderr).toMatch(
      /^error: cannot read postgres:\/\/127\.0\.0\.1:1\/dss_live_\w+: connection refused\n$/,
    );
    noSecrets(noHost.stderr);
  });

  it('When the database was not changed, then drift exits 0; after ADD COLUMN it reports exactly that column and exits 1', async () => {
    const equal = await dss('drift', '--diagram', diagramUuid, '--url', database.url);
    expect(equal.stderr).toBe('');
    expect(equal.code).toBe(0);
    expect(equal.stdout).toContain('No drift');

    await database.run('ALTER TABLE orders ADD COLUMN note text');
    const drift = await dss('drift', '--diagram', diagramUuid, '--url', database.url, '--json');
    expect(drift.code).toBe(1);
    const { changes } = drift.json();
    expect(changes.columns.added.map((c: Json) => `${c.table}.${c.record.name}`)).toEqual(['orders.note']);
    for (const section of ['tables', 'columns', 'indexes', 'relationships'])
      for (const kind of ['added', 'changed', 'removed'])
        if (!(section === 'columns' && kind === 'added'))
          expect([section, kind, changes[section][kind]]).toEqual([section, kind, []]);
    const markdown = await dss('drift', '--diagram', diagramUuid, '--url', database.url);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toContain('note');
  });

  it('When introspect --propose runs after the change, then applying the proposal leaves no drift', async () => {
    const proposed = await dss(
      'introspect',
      '--url',
      database.url,
      '--email',
      editor.email,
      '--propose',
      diagramUuid,
      '--json',
    );
    expect(proposed.code).toBe(0);
    const status = await api(`/proposals/${proposed.json().uuid}`);
    expect(status.data.state).toBe('pending');
    const owner = await people.member({ team: 'live', role: 'owner' });
    expect((await dss('proposal', 'apply', proposed.json().uuid, '--email', owner.email)).code).toBe(0);
    expect((await dss('drift', '--diagram', diagramUuid, '--url', database.url)).code).toBe(0);
    noSecrets(proposed.stdout, JSON.stringify(status));
  });

  it('When drift is given --version, then it compares that version: the one before the applied change drifts by the new column', async () => {
    const versions = (await api(`/diagrams/${diagramUuid}/versions`)).data as Json[];
    const newest = Math.max(...versions.map((v) => v.number as number));
    expect(newest).toBeGreaterThanOrEqual(2);
    const current = await dss(
      'drift',
      '--diagram',
      diagramUuid,
      '--version',
      String(newest),
      '--url',
      database.url,
    );
    expect(current.stderr).toBe('');
    expect(current.code).toBe(0);
    expect(current.stdout).toContain(`(version ${newest}) matches`);
    const first = await dss(
      'drift',
      '--diagram',
      diagramUuid,
      '--version',
      '1',
      '--url',
      database.url,
      '--json',
    );
    expect(first.code).toBe(1);
    expect(first.json()).toMatchObject({ diagram: diagramUuid, version: 1, equal: false });
    const { changes } = first.json();
    expect(changes.columns.added.map((c: Json) => `${c.table}.${c.record.name}`)).toEqual(['orders.note']);
    expect([changes.columns.changed, changes.columns.removed, changes.tables.added]).toEqual([[], [], []]);
    const markdown = await dss('drift', '--diagram', diagramUuid, '--version', '1', '--url', database.url);
    expect(markdown.stdout).toContain(
      `# Drift: diagram ${diagramUuid} version 1 → postgres://127.0.0.1:5432/`,
    );
    const missing = await dss('drift', '--diagram', diagramUuid, '--version', '999', '--url', database.url);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: not_found: .*\n$/);
    const bad = await dss('drift', '--diagram', diagramUuid, '--version', '0', '--url', database.url);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('a version number (1 is the oldest)');
  });

  it('When lint reads the live database, then it lists findings and exits by errors; SARIF carries the same', async () => {
    await database.run('CREATE TABLE audit_rows (note text)');
    const text = await dss('lint', '--url', database.url);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('table-without-primary-key');
    const sarif = await dss('lint', '--url', database.url, '--format', 'sarif');
    const log = JSON.parse(sarif.stdout);
    expect(sarifProblems(log)).toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results).toContainEqual(
      expect.objectContaining({
        ruleId: 'table-without-primary-key',
        level: 'error',
        message: { text: 'table "audit_rows" has no primary key' },
      }),
    );
    // A checked-in dss.lint.json (here --config) is honoured: the rule off, no error, exit 0.
    const configFolder = mkdtempSync(path.join(tmpdir(), 'dss-lint-'));
    const config = path.join(configFolder, 'dss.lint.json');
    writeFileSync(config, JSON.stringify({ rules: { 'table-without-primary-key': 'off' } }));
    const relaxed = await dss('lint', '--url', database.url, '--config', config, '--json');
    expect(relaxed.code).toBe(0);
    expect(relaxed.json().data.map((f: Json) => f.rule)).not.toContain('table-without-primary-key');
    writeFileSync(config, JSON.stringify({ rules: { 'no-such-rule': 'off' } }));
    const bad = await dss('lint', '--url', database.url, '--config', config);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('rules.no-such-rule is not a lint rule');
    rmSync(configFolder, { recursive: true, force: true });
    const viaApi = await dss('lint', '--diagram', diagramUuid, '--json');
    expect(viaApi.json().data).toEqual((await api(`/diagrams/${diagramUuid}/lint`)).data);
    noSecrets(text.stdout, sarif.stdout);
  });

  it('When check runs a migrations folder on a dev database, then the report has the diff, the drop warning, lint and the SQL', async () => {
    const created = await fetch(`${system.apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Checked', driver: 'pgsql', ddl: SHOP_DDL }),
    });
    const checked = ((await created.json()) as Json).data.uuid as string;
    const folder = mkdtempSync(path.join(tmpdir(), 'dss-migrations-'));
    writeFileSync(
      path.join(folder, '001_invoices.sql'),
      'CREATE TABLE invoices (order_id bigint REFERENCES orders (id), amount numeric(10,2));',
    );
    writeFileSync(path.join(folder, '002_drop_email.sql'), 'ALTER TABLE customers DROP COLUMN email;');
    const dev = await livePostgres();
    try {
      const report = await dss(
        'check',
        '--diagram',
        checked,
        '--ddl',
        folder,
        '--driver',
        'pgsql',
        '--dev-url',
        dev.adminUrl,
      );
      expect(report.stderr).toBe('');
      expect(report.code).toBe(1);
      const markdown = report.stdout;
      expect(markdown).toMatch(/^# Schema check: diagram /);
      // Added: invoices and its foreign key; removed: customers.email and its unique key.
      expect(markdown).toContain('| 2 | 0 | 2 | 1 | 3 | 1 |');
      expect(markdown).toMatch(/## Changes[\s\S]*invoices[\s\S]*email/);
      expect(markdown).toContain('**drops_column**');
      expect(markdown).toContain('| error | `table-without-primary-key` | invoices |');
      expect(markdown).toContain('`destructive-change`');
      expect(markdown).toMatch(/```sql\n[\s\S]*DROP COLUMN "email"[\s\S]*```/);
      const sarif = await dss(
        'check',
        '--diagram',
        checked,
        '--ddl',
        folder,
        '--dev-url',
        dev.adminUrl,
        '--format',
        'sarif',
      );
      expect(sarif.code).toBe(1);
      const log = JSON.parse(sarif.stdout);
      expect(sarifProblems(log)).toEqual([]);
      expect(log).toMatchObject({ version: '2.1.0', runs: [{ tool: { driver: { name: 'dss' } } }] });
      expect(log.runs[0].results.map((r: Json) => r.ruleId)).toContain('table-without-primary-key');
      // With --out, the report links a PNG of the changed part written beside it.
      const out = path.join(folder, 'report.md');
      const written = await dss(
        'check',
        '--diagram',
        checked,
        '--ddl',
        folder,
        '--dev-url',
        dev.adminUrl,
        '--out',
        out,
      );
      expect(written.code).toBe(1);
      expect(readFileSync(out, 'utf8')).toContain('(report.png)');
      const png = readFileSync(path.join(folder, 'report.png'));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      expect(width).toBeGreaterThanOrEqual(800);
      expect(height).toBeGreaterThan(100);
      // The dev database is left as it was: empty.
      expect(
        (await dss('introspect', '--url', dev.url, '--out', path.join(folder, 'x.json'))).stderr,
      ).toMatch(/has no tables/);
    } finally {
      await dev.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('When the database is MariaDB, then introspect, drift and the ADD COLUMN report work the same', async () => {
    const mariadb = await liveMariadb();
    try {
      await mariadb.run(
        'CREATE TABLE authors (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(80) NOT NULL);' +
          'CREATE TABLE books (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, author_id int unsigned NOT NULL,' +
          " kind enum('novel','essay') NOT NULL, CONSTRAINT books_author FOREIGN KEY (author_id) REFERENCES authors (id) ON DELETE CASCADE);",
      );
      const created = await dss(
        'introspect',
        '--url',
        mariadb.url,
        '--team',
        'live',
        '--email',
        editor.email,
        '--create',
        'Books',
        '--json',
      );
      expect(created.code).toBe(0);
      const uuid = created.json().uuid as string;
      const schema = (await api(`/diagrams/${uuid}/schema`)).data;
      expect(schema.relationships).toEqual([
        expect.objectContaining({
          name: 'books_author',
          source_column: 'author_id',
          target_table: 'authors',
          on_delete: 'cascade',
        }),
      ]);
      expect((await dss('drift', '--diagram', uuid, '--url', mariadb.url)).code).toBe(0);
      await mariadb.run('ALTER TABLE books ADD COLUMN pages int');
      const drift = await dss('drift', '--diagram', uuid, '--url', mariadb.url, '--json');
      expect(drift.code).toBe(1);
      expect(drift.json().changes.columns.added.map((c: Json) => `${c.table}.${c.record.name}`)).toEqual([
        'books.pages',
      ]);
      expect(drift.json().changes.columns.changed).toEqual([]);
      noSecrets(created.stdout, drift.stdout, JSON.stringify(schema));
      expect(drift.stdout).not.toContain(mariadb.password);
    } finally {
      await mariadb.drop();
    }
  });

  it('When check runs MySQL migrations on a MariaDB dev database, then it reports them and leaves the database empty', async () => {
    const created = await fetch(`${system.apiUrl}/diagrams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Checked MySQL',
        driver: 'mysql',
        ddl: 'CREATE TABLE customers (id int NOT NULL PRIMARY KEY, email varchar(255) NOT NULL);',
      }),
    });
    const checked = ((await created.json()) as Json).data.uuid as string;
    const folder = mkdtempSync(path.join(tmpdir(), 'dss-migrations-'));
    writeFileSync(path.join(folder, '001.sql'), 'CREATE TABLE notes (body text);');
    writeFileSync(path.join(folder, '002.sql'), 'ALTER TABLE customers DROP COLUMN email;');
    const dev = await liveMariadb();
    try {
      const report = await dss(
        'check',
        '--diagram',
        checked,
        '--ddl',
        folder,
        '--driver',
        'mysql',
        '--dev-url',
        dev.adminUrl,
      );
      expect(report.stderr).toBe('');
      expect(report.code).toBe(1);
      expect(report.stdout).toContain('**drops_column**');
      expect(report.stdout).toContain('| error | `table-without-primary-key` | notes |');
      expect(report.stdout).toContain('DROP COLUMN `email`');
      const again = await dss('check', '--diagram', checked, '--ddl', folder, '--dev-url', dev.adminUrl);
      expect(again.code).toBe(1);
    } finally {
      await dev.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
