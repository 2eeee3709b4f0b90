#!/usr/bin/env node
'use strict';
// Writes the upgrade test's fixture: what a release left behind, for the current code to be started on.
//   node scripts/upgrade-fixture.js <checkout of the release, installed and built> <output dir>
// e.g. for v0.2.0:
//   git worktree add --detach /tmp/dss-v0.2.0 v0.2.0 && (cd /tmp/dss-v0.2.0 && npm ci && npm run build)
//   node scripts/upgrade-fixture.js /tmp/dss-v0.2.0 e2e/fixtures/upgrade-v0.2.0
// It runs the release's own `scripts/start.js` (one process) on a fresh database of the PostgreSQL that
// `npm test` provides (DSS_TEST_DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres), fills it
// through the release's REST API and operator CLI (diagrams from a patch, SQL and DBML; proposals applied,
// declined and pending; a second team, user and read-only token), records the answers of the API's reads,
// and writes:
//   dump.sql    pg_dump of the database (plain SQL, no owners or privileges)
//   keys/       the data directory's keys (token signing key, web session key): with the database, all the
//               state a deployment has; the recorded tokens only verify with this signing key
//   reads.json  { tokens, reads: [{ path, token, status, body }] } — the reads the upgraded system must answer alike
//   audit.json  the audit entries (rows of accounts.audit_events), when the release has an audit log
// Test-only data: the keys sign nothing but this fixture's tokens.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { freePort, waitFor } = require('./lib/net');

const ADMIN_URL = process.env.DSS_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const APP_URL = 'http://dss.example.test'; // the test reads it too
// Every gRPC service on a port of its own (a release ignores the names it does not have).
const SERVICES = ['ACCOUNTS', 'CATALOG', 'DIAGRAMS', 'PROPOSALS', 'IMPORTER', 'NOTIFICATIONS'];

async function main() {
  const [checkout, outDir] = process.argv.slice(2).map((arg) => path.resolve(arg));
  if (!checkout || !outDir) throw new Error('usage: upgrade-fixture.js <release checkout> <output dir>');
  const database = `dss_upgrade_fixture_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = withDatabase(ADMIN_URL, database);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-upgrade-fixture-'));
  const ports = { http: await freePort(), web: await freePort(), admin: await freePort() };
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    DSS_DATA_DIR: dataDir,
    DSS_HTTP_PORT: String(ports.http),
    DSS_WEB_PORT: String(ports.web),
    // Fixed, since the links the API answers with are built from it.
    DSS_APP_URL: APP_URL,
    DSS_ADMIN_PORT: String(ports.admin),
    DSS_RATE_LIMIT_IP_PER_MIN: '100000',
    DSS_RATE_LIMIT_READ_PER_MIN: '100000',
    DSS_RATE_LIMIT_SCHEMA_PER_MIN: '100000',
    DSS_RATE_LIMIT_WRITE_PER_MIN: '100000',
  };
  for (const name of SERVICES) env[`DSS_${name}_GRPC_ADDR`] = `127.0.0.1:${await freePort()}`;
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: checkout,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (printed += chunk));
  try {
    await waitFor(async () => (/Press Ctrl-C to stop/.test(printed) ? true : null), {
      timeoutMs: 90_000,
      what: `the release in ${checkout}`,
    });
    const demoToken = /^\s*TOKEN=(\S+)$/m.exec(printed)?.[1];
    if (!demoToken) throw new Error(`no TOKEN= line:\n${printed}`);
    const api = apiOf(`http://127.0.0.1:${ports.http}/v1`);
    const cli = (...args) =>
      JSON.parse(
        execFileSync(process.execPath, ['scripts/dss.js', ...args, '--json'], {
          cwd: checkout,
          env,
        }).toString(),
      );

    const shop = await api.call(demoToken, 'POST', '/diagrams', {
      name: 'Shop',
      driver: 'pgsql',
      schema: SHOP_PATCH,
    });
    const fromSql = await api.call(demoToken, 'POST', '/diagrams', {
      name: 'Blog',
      driver: 'mysql',
      ddl: BLOG_SQL,
    });
    const fromDbml = await api.call(demoToken, 'POST', '/diagrams', {
      name: 'Notes',
      driver: 'pgsql',
      dbml: NOTES_DBML,
    });
    const diagrams = [shop, fromSql, fromDbml].map((answer) => answer.body.data.uuid);
    for (const uuid of diagrams) await untilReady(api, demoToken, uuid);

    const propose = (title, schema) =>
      api.call(demoToken, 'POST', `/diagrams/${diagrams[0]}/proposals`, {
        title,
        message: 'from the fixture',
        schema,
      });
    const applied = (await propose('Invoices', INVOICES_PATCH)).body.data.uuid;
    cli('proposal', 'apply', applied, '--email', 'demo@example.com');
    const declined = (
      await propose('Drop customers', { strategy: 'merge', deletions: { tables: ['customers'] } })
    ).body.data.uuid;
    cli('proposal', 'decline', declined, '--email', 'demo@example.com', '--reason', 'still needed');
    const pending = (await propose('Phone numbers', PHONE_PATCH)).body.data.uuid;

    cli('team', 'create', '--slug', 'acme', '--name', 'Acme', '--plan', 'team');
    cli('user', 'create', '--email', 'reader@acme.test', '--name', 'Rea Der');
    cli('member', 'add', '--team', 'acme', '--email', 'reader@acme.test', '--role', 'viewer');
    const readerToken = cli('token', 'create', '--team', 'acme', '--email', 'reader@acme.test').token;
    cli('member', 'add', '--team', 'acme', '--email', 'demo@example.com', '--role', 'owner');
    const acmeWriter = cli(
      'token',
      'create',
      '--team',
      'acme',
      '--email',
      'demo@example.com',
      '--write',
    ).token;
    const acmeDiagram = (
      await api.call(acmeWriter, 'POST', '/diagrams', {
        name: 'Acme inventory',
        driver: 'sqlsrv',
        schema: {
          strategy: 'merge',
          tables: [{ name: 'items', columns: [{ name: 'id', type: 'int', is_primary_key: true }] }],
        },
      })
    ).body.data.uuid;

    const reads = [];
    const read = async (token, pathAndQuery) => {
      const answer = await api.call(token, 'GET', pathAndQuery);
      reads.push({
        path: pathAndQuery,
        token: token === demoToken ? 'demo' : 'reader',
        status: answer.status,
        body: answer.body,
      });
    };
    await read(demoToken, '/diagrams');
    await read(readerToken, '/diagrams');
    await read(readerToken, `/diagrams/${acmeDiagram}`);
    await read(readerToken, `/diagrams/${diagrams[0]}`);
    for (const uuid of diagrams) {
      await read(demoToken, `/diagrams/${uuid}`);
      await read(demoToken, `/diagrams/${uuid}/schema`);
      await read(demoToken, `/diagrams/${uuid}/schema?format=ai`);
      await read(demoToken, `/diagrams/${uuid}/versions`);
      await read(demoToken, `/diagrams/${uuid}/versions/1/schema`);
      await read(demoToken, `/diagrams/${uuid}/export?format=dbml`);
    }
    await read(demoToken, `/diagrams/${diagrams[0]}/diff?from=1&to=2`);
    for (const uuid of [applied, declined, pending]) await read(demoToken, `/proposals/${uuid}`);

    fs.mkdirSync(path.join(outDir, 'keys'), { recursive: true });
    for (const file of fs.readdirSync(path.join(dataDir, 'keys')))
      fs.copyFileSync(path.join(dataDir, 'keys', file), path.join(outDir, 'keys', file));
    fs.writeFileSync(
      path.join(outDir, 'reads.json'),
      `${JSON.stringify({ tokens: { demo: demoToken, reader: readerToken }, reads }, null, 2)}\n`,
    );
    const audit = await settledAuditEntries(databaseUrl);
    if (audit) fs.writeFileSync(path.join(outDir, 'audit.json'), `${JSON.stringify(audit, null, 2)}\n`);
    const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--dbname', databaseUrl], {
      maxBuffer: 256 * 1024 * 1024,
    });
    fs.writeFileSync(path.join(outDir, 'dump.sql'), dump);
    process.stdout.write(`wrote ${outDir}: ${reads.length} reads, dump of ${dump.length} bytes\n`);
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.stack : error}\nthe release printed:\n${printed.slice(-3000)}`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// The columns of an audit entry a backup must keep (a release before the audit log has none: null).
const AUDIT_COLUMNS = `id, action, team_id, actor_kind, actor_id, actor_user_id, target_kind, target_id, target_name,
  created_at, seq, request_id, ip, details`;

/**
 * The release's audit entries once every one recorded has arrived: entries travel from each service's
 * outbox over the bus to accounts, so the dump waits until the table holds as many entries as the outboxes
 * recorded (else the restored system would relay the rest and the two would differ).
 * @param {string} databaseUrl
 */
async function settledAuditEntries(databaseUrl) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT to_regclass('accounts.audit_events') AS t`);
    if (!rows[0].t) return null;
    const { rows: outboxes } = await client.query(
      `SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'`,
    );
    const recorded = outboxes
      .map(
        (row) =>
          `SELECT count(*)::int AS n FROM "${row.table_schema}".outbox WHERE subject = 'audit.recorded'`,
      )
      .join(' UNION ALL ');
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const sent = (await client.query(`SELECT sum(n)::int AS n FROM (${recorded}) counts`)).rows[0].n;
      const stored = (await client.query('SELECT count(*)::int AS n FROM accounts.audit_events')).rows[0].n;
      if (stored >= sent) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return (await client.query(`SELECT ${AUDIT_COLUMNS} FROM accounts.audit_events ORDER BY seq`)).rows;
  } finally {
    await client.end();
  }
}

/** @param {string} url @param {string} database */
function withDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** @param {string} baseUrl */
function apiOf(baseUrl) {
  return {
    /** @returns {Promise<{ status: number, body: any }>} */
    async call(token, method, pathAndQuery, json) {
      // A kept-alive connection that the server closed while the CLI ran is found closed on reuse
      // ("other side closed"): the request never reached the server, so it is sent once more.
      const send = () =>
        fetch(`${baseUrl}${pathAndQuery}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(json ? { 'content-type': 'application/json' } : {}),
          },
          body: json ? JSON.stringify(json) : undefined,
        }).catch((error) => {
          throw new Error(`${method} ${pathAndQuery}: ${error.cause?.message ?? error.message}`);
        });
      const response = await send().catch((error) =>
        /other side closed/.test(error.message) ? send() : Promise.reject(error),
      );
      const text = await response.text();
      const body = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
      if (method === 'POST' && response.status >= 300 && response.status !== 202)
        throw new Error(`${method} ${pathAndQuery}: ${response.status} ${text}`);
      return { status: response.status, body };
    },
  };
}

async function untilReady(api, token, uuid) {
  await waitFor(
    async () =>
      (await api.call(token, 'GET', `/diagrams/${uuid}`)).body.data?.status === 'ready' ? true : null,
    { timeoutMs: 30_000, what: `diagram ${uuid} to be ready` },
  );
}

const SHOP_PATCH = {
  strategy: 'merge',
  tables: [
    {
      name: 'customers',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
        { name: 'email', type: 'varchar', length: 255, is_unique_key: true },
        { name: 'name', type: 'varchar', length: 120, is_nullable: true },
      ],
    },
    {
      name: 'orders',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
        { name: 'customer_id', type: 'bigint' },
        { name: 'placed_at', type: 'timestamp with time zone', default: 'now()' },
        { name: 'total', type: 'numeric', precision: 12, scale: 2 },
      ],
    },
  ],
  relationships: [
    {
      type: 'many-to-one',
      source_table: 'orders',
      source_column: 'customer_id',
      target_table: 'customers',
      target_column: 'id',
    },
  ],
};

const INVOICES_PATCH = {
  strategy: 'merge',
  tables: [
    {
      name: 'invoices',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'order_id', type: 'bigint' },
        { name: 'amount', type: 'numeric', precision: 12, scale: 2 },
      ],
    },
  ],
  relationships: [
    {
      type: 'many-to-one',
      source_table: 'invoices',
      source_column: 'order_id',
      target_table: 'orders',
      target_column: 'id',
    },
  ],
};

const PHONE_PATCH = {
  strategy: 'merge',
  tables: [
    { name: 'customers', columns: [{ name: 'phone', type: 'varchar', length: 40, is_nullable: true }] },
  ],
};

const BLOG_SQL = `
CREATE TABLE authors (id int unsigned NOT NULL AUTO_INCREMENT, name varchar(100) NOT NULL, PRIMARY KEY (id));
CREATE TABLE posts (
  id int unsigned NOT NULL AUTO_INCREMENT,
  author_id int unsigned NOT NULL,
  title varchar(200) NOT NULL,
  status enum('draft','published') NOT NULL DEFAULT 'draft',
  PRIMARY KEY (id),
  KEY posts_author (author_id),
  CONSTRAINT posts_author_fk FOREIGN KEY (author_id) REFERENCES authors (id)
) ENGINE=InnoDB;
`;

const NOTES_DBML = `
Table notebooks {
  id integer [pk]
  title varchar [not null]
}
Table notes {
  id integer [pk]
  notebook_id integer [ref: > notebooks.id]
  body text
}
`;

main().catch((error) => {
  process.stderr.write(`upgrade-fixture: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
