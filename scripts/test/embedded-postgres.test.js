'use strict';
// Starts the real embedded PostgreSQL in a temporary data dir, twice, and checks that data and port survive a
// restart, that a stale postmaster.pid does not block a start, and that nothing keeps running afterwards. On
// this machine the tests run as root, so this also proves the switch to the `postgres` user.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');

const session = path.join(__dirname, 'fixtures', 'postgres-session.js');

/**
 * @param {string} dataDir
 * @param {string} sql
 * @returns {Promise<{ url: string, adminUrl: string, port: number, pgdata: string, reused: boolean, rows: Array<Record<string, unknown>>, log: string[] }>}
 */
function runSession(dataDir, sql) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [session, dataDir, sql], { timeout: 90_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? ''));
    });
  });
}

/**
 * Pids of the processes whose command line names `pgdata` (a postmaster runs with `-D <pgdata>`).
 * @param {string} pgdata
 * @returns {number[]}
 */
function serversOn(pgdata) {
  /** @type {number[]} */
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.some((arg) => arg.includes(pgdata))) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

describe('startEmbeddedPostgres', () => {
  /** @type {string} */
  let tmp;

  beforeAll(() => {
    // mkdtemp makes a 0700 folder: as root, the server user must still be able to reach the data below it.
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-embedded-pg-'));
  });

  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('keeps data and port across restarts, survives a stale pid file, and stops cleanly', async () => {
    const dataDir = path.join(tmp, 'data');

    const first = await runSession(dataDir, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('hello')");
    expect(first.port).not.toBe(5432);
    expect(first.reused).toBe(false);
    expect(first.url).toMatch(new RegExp(`^postgres://postgres:[^@]+@127\\.0\\.0\\.1:${first.port}/dss$`));
    expect(first.log.some((line) => line.includes('initialising'))).toBe(true);
    if (process.getuid?.() === 0) {
      const owner = fs.statSync(first.pgdata).uid;
      expect(owner).not.toBe(0);
    }

    const second = await runSession(dataDir, 'SELECT v FROM kept');
    expect(second.port).toBe(first.port);
    expect(second.url).toBe(first.url);
    expect(second.rows).toEqual([{ v: 'hello' }]);
    expect(second.log.some((line) => line.includes('initialising'))).toBe(false);

    // A crash leaves postmaster.pid behind, and after a reboot its pid may belong to another program: here the
    // jest worker itself, which is alive and not PostgreSQL.
    const pidFile = path.join(first.pgdata, 'postmaster.pid');
    fs.writeFileSync(pidFile, `${process.pid}\n${first.pgdata}\n0\n${first.port}\n`);
    const third = await runSession(dataDir, 'SELECT count(*)::int AS n FROM kept');
    expect(third.rows).toEqual([{ n: 1 }]);
    expect(third.log.some((line) => line.includes('stale postmaster.pid'))).toBe(true);

    expect(fs.existsSync(pidFile)).toBe(false);
    // Nothing of this cluster keeps running. (Not "its port is free": other tests' servers prefer the same
    // port and may take it the moment this one lets go.)
    expect(serversOn(first.pgdata)).toEqual([]);
  }, 120_000);

  test('starts two new clusters at once that both prefer the same port: the one that loses the bind takes another', async () => {
    // Both find the preferred port free, both initialise (seconds), then both bind: one loses and must try the
    // next port, not fail. Each holds its server up for 3 s, so the two are up at the same time.
    const sql = 'SELECT 1 AS ok FROM pg_sleep(3)';
    const [a, b] = await Promise.all([
      runSession(path.join(tmp, 'twin-a'), sql),
      runSession(path.join(tmp, 'twin-b'), sql),
    ]);
    expect([a.rows, b.rows]).toEqual([[{ ok: 1 }], [{ ok: 1 }]]);
    expect(a.port).not.toBe(b.port);
  }, 120_000);
});
