#!/usr/bin/env node
'use strict';
// `npm start`: the whole system in one process on embedded defaults (ARCHITECTURE.md, "Two ways to run").
// PostgreSQL is the embedded server kept under DSS_DATA_DIR unless DATABASE_URL is set; the bus is
// in-process unless NATS_URL is set; rate limits live in memory unless REDIS_URL is set. On the first
// start it creates a `demo` team with a user and a write token, and prints the token once.
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { startEmbeddedPostgres } = require('./lib/embedded-postgres');

const ROOT = path.resolve(__dirname, '..');

async function main() {
  const dataDir = path.resolve(ROOT, process.env.DSS_DATA_DIR || '.data');
  const env = { ...process.env, DSS_DATA_DIR: dataDir };
  let postgres;
  if (!env.DATABASE_URL) {
    postgres = await startEmbeddedPostgres({
      dataDir,
      supervise: true,
      logger: (line) => process.stderr.write(`postgres: ${line}\n`),
    });
    env.DATABASE_URL = postgres.url;
  }
  const { startSystem } = require('@dss/system');
  const { createServiceClient } = require('@dss/platform');
  const system = await startSystem({ env });

  const accounts = createServiceClient('Accounts', system.grpc.accounts);
  const demo = await seedDemoOnFirstStart(accounts);
  accounts.close();
  printBanner(system, demo);

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) process.exit(1); // a second Ctrl-C ends at once
    stopping = true;
    process.stderr.write(`\n${signal}: stopping…\n`);
    // A hard deadline: a part that hangs on its way down must not keep the process (and a restart) waiting.
    setTimeout(() => {
      process.stderr.write(`did not stop within ${system.shutdownDeadlineMs} ms; exiting\n`);
      process.exit(1);
    }, system.shutdownDeadlineMs).unref();
    await system.stop();
    if (postgres) await postgres.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function seedDemoOnFirstStart(accounts) {
  try {
    await accounts.GetTeam({ slug: 'demo' });
    return null;
  } catch (error) {
    if (error.code !== 'not_found') throw error;
  }
  const email = 'demo@example.com';
  const password = randomBytes(9).toString('base64url');
  await accounts.CreateTeam({ slug: 'demo', name: 'Demo', plan: 'team' });
  await accounts.CreateUser({ email, name: 'Demo User', password });
  await accounts.AddMember({ team_slug: 'demo', user_email: email, role: 'owner' });
  const issued = await accounts.IssueToken({
    team_slug: 'demo',
    user_email: email,
    name: 'demo',
    write: true,
  });
  return { email, password, token: issued.token, expiresAt: issued.record.expires_at };
}

function printBanner(system, demo) {
  const lines = [
    '',
    'Diagram Schema Service is running (embedded mode).',
    `  API:     ${system.apiUrl}`,
    `  Web app: ${system.appUrl}`,
    `  Health:  http://127.0.0.1:${system.adminPort}/readyz   Metrics: http://127.0.0.1:${system.adminPort}/metrics`,
    '',
  ];
  if (demo) {
    lines.push(
      'First start: created team "demo", user ' +
        `${demo.email} (password ${demo.password}) and a write token.`,
      `Sign in to the web app at ${system.appUrl}/sign-in with that email and password (shown this once).`,
      'The token is shown this once (only its hash is stored); keep it:',
      '',
      `  TOKEN=${demo.token}`,
      '',
      `  curl -H "Authorization: Bearer $TOKEN" ${system.apiUrl}/diagrams`,
      '',
      'Lost it? Make another: npm run -s dss -- token create --team demo --email demo@example.com --write',
      '',
    );
  } else {
    lines.push(
      'Create a token for the demo user with:',
      '  npm run -s dss -- token create --team demo --email demo@example.com --write',
      '',
    );
  }
  lines.push('Press Ctrl-C to stop.', '');
  process.stdout.write(lines.join('\n'));
}

main().catch((error) => {
  process.stderr.write(`npm start failed: ${error?.message ?? error}\n`);
  process.exit(1);
});
