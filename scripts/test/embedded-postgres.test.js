'use strict';
// Starts the real embedded PostgreSQL in a temporary data dir, twice, and checks that data and port survive a
// restart, that a stale postmaster.pid does not block a start, and that nothing keeps running afterwards. On
// this machine the tests run as root, so this also proves the switch to the `postgres` user.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { isPortFree } = require('../lib/net');

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
    expect(await isPortFree(first.port)).toBe(true);
  }, 120_000);
});
