// Backups restore and upgrades keep the data. A deployment's whole state is its PostgreSQL database and its
// keys (README, "Backup, restore and upgrade"). scripts/upgrade-fixture.js fills a release's one-process
// system through its API and CLI, records 26 API reads, and writes a pg_dump and the keys:
// - e2e/fixtures/upgrade-v0.2.0 is what release v0.2.0 (the git tag) left behind: the current code starts on
//   it, running its own migrations over the old tables;
// - a backup of this release is made the same way during the test and restored into a fresh database.
// The dump is loaded into a fresh database, the system starts on it with the same keys, and every recorded
// read must answer as it did: the same status, and every member the old answer had, with the same value
// (new members may be added, as the spec allows).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@dss/platform/testing';
import { type OneProcessSystem, startOneProcessSystem } from '../support/one-process';
import { REPO_ROOT } from '../support/processes';
import { isExternalStack } from '../support/stack';

const UPGRADE_FIXTURE = path.join(REPO_ROOT, 'e2e/fixtures/upgrade-v0.2.0');
const APP_URL = 'http://dss.example.test';

/** A backup of this release, made as the fixture was: its own system filled, dumped, keys kept. */
function backUpThisRelease(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dss-backup-'));
  execFileSync(process.execPath, ['scripts/upgrade-fixture.js', REPO_ROOT, dir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 150_000,
  });
  return dir;
}

interface RecordedRead {
  path: string;
  token: 'demo' | 'reader';
  status: number;
  body: unknown;
}

interface Fixture {
  tokens: Record<RecordedRead['token'], string>;
  reads: RecordedRead[];
}

/** Where `actual` lacks a member of `expected` or holds another value: the paths, for a readable failure. */
function missingOrChanged(expected: unknown, actual: unknown, at = '$'): string[] {
  if (expected === null || typeof expected !== 'object')
    return Object.is(expected, actual)
      ? []
      : [`${at}: ${JSON.stringify(expected)} → ${JSON.stringify(actual)}`];
  if (actual === null || typeof actual !== 'object') return [`${at}: now ${JSON.stringify(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return [`${at}: ${expected.length} items → ${Array.isArray(actual) ? actual.length : 'not a list'}`];
    return expected.flatMap((item, index) => missingOrChanged(item, actual[index], `${at}[${index}]`));
  }
  return Object.entries(expected as Record<string, unknown>).flatMap(([key, value]) =>
    missingOrChanged(value, (actual as Record<string, unknown>)[key], `${at}.${key}`),
  );
}

/** The spec computes expiry when read: a proposal recorded `pending` whose expiry has passed reads `expired`. */
function asOfNow(read: RecordedRead): unknown {
  const data = (read.body as { data?: { state?: string; expires_at?: string } }).data;
  if (
    read.path.startsWith('/proposals/') &&
    data?.state === 'pending' &&
    Date.parse(data.expires_at!) < Date.now()
  )
    return { ...(read.body as object), data: { ...data, state: 'expired' } };
  return read.body;
}

const describeLocal = isExternalStack() ? describe.skip : describe;

describeLocal.each([
  ['an upgrade from v0.2.0', () => UPGRADE_FIXTURE],
  ['a backup of this release, restored', backUpThisRelease],
])('%s', (_name, source) => {
  let database: TestDatabase;
  let system: OneProcessSystem;
  let fixture: Fixture;
  let FIXTURE = '';

  beforeAll(async () => {
    FIXTURE = source();
    if (!existsSync(path.join(FIXTURE, 'dump.sql'))) throw new Error(`the fixture is missing: ${FIXTURE}`);
    fixture = JSON.parse(readFileSync(path.join(FIXTURE, 'reads.json'), 'utf8')) as Fixture;
    database = await createTestDatabase();
    execFileSync(
      'psql',
      ['-v', 'ON_ERROR_STOP=1', '-q', '-d', database.url, '-f', path.join(FIXTURE, 'dump.sql')],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    // The app URL the release ran with: the API's links are built from it.
    system = await startOneProcessSystem(
      { DSS_APP_URL: APP_URL },
      { databaseUrl: database.url, keysDir: path.join(FIXTURE, 'keys') },
    );
  }, 240_000);

  afterAll(async () => {
    await system?.destroy();
    await database?.drop();
    if (FIXTURE && FIXTURE !== UPGRADE_FIXTURE) rmSync(FIXTURE, { recursive: true, force: true });
  });

  it('should answer every recorded read as before, with every member it had', async () => {
    // The recorded tokens were signed by the release's key and are checked against its stored hashes.
    const expiry = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp * 1000;
    expect(fixture.reads.length).toBeGreaterThanOrEqual(26);
    const differences: string[] = [];
    for (const read of fixture.reads) {
      const token = fixture.tokens[read.token];
      // A token past its expiry cannot prove anything here; the fixture says when to write a new one.
      if (expiry(token) < Date.now())
        throw new Error(`the fixture's ${read.token} token has expired: regenerate it`);
      const response = await fetch(`${system.baseUrl}${read.path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await response.text();
      const body = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
      if (response.status !== read.status)
        differences.push(`${read.path}: status ${read.status} → ${response.status}`);
      else differences.push(...missingOrChanged(asOfNow(read), body, read.path));
    }
    expect(differences).toEqual([]);
  });

  it('should keep every audit entry, readable over the API as before', async () => {
    const recorded = path.join(FIXTURE, 'audit.json');
    // v0.2.0 had no audit log: its upgrade starts with an empty one (the migration runs on its data).
    const expected = existsSync(recorded)
      ? (JSON.parse(readFileSync(recorded, 'utf8')) as Record<string, unknown>[])
      : [];
    if (FIXTURE !== UPGRADE_FIXTURE) expect(expected.length).toBeGreaterThanOrEqual(10);
    const { Client } = await import('pg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT id, action, team_id, actor_kind, actor_id, actor_user_id, target_kind, target_id, target_name,
                created_at, seq, request_id, ip, details
           FROM accounts.audit_events ORDER BY seq`,
      );
      expect(JSON.parse(JSON.stringify(rows))).toEqual(expected);
    } finally {
      await client.end();
    }
    // The demo user owns the demo team: the API answers that team's entries, newest first.
    const response = await fetch(`${system.baseUrl}/audit-events?limit=100`, {
      headers: { authorization: `Bearer ${fixture.tokens.demo}` },
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: { id: string; team: { id: string } | null }[] };
    const demoTeam = page.data[0]?.team?.id;
    const ofDemoTeam = expected.filter((row) => row.team_id === demoTeam).reverse();
    expect(page.data.map((event) => event.id)).toEqual(ofDemoTeam.slice(0, 100).map((row) => row.id));
  });

  it('should keep every diagram, version, proposal and user row', async () => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const count = async (table: string) =>
        Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
      expect(await count('diagrams.diagrams')).toBe(4);
      expect(await count('diagrams.diagram_versions')).toBe(5);
      expect(await count('proposals.proposals')).toBe(3);
      expect(await count('accounts.users')).toBe(2);
    } finally {
      await client.end();
    }
  });
});
