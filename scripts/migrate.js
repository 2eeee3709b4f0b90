#!/usr/bin/env node
'use strict';
// Runs the database migrations of the named services, then exits: `node scripts/migrate.js accounts diagrams`.
// The Helm chart's migration Job runs it before an upgrade rolls out new pods. The services still migrate
// at start as well (platform's migrate() is idempotent and serialised by one advisory lock), so this only
// moves the work ahead of the rollout and makes a failing migration stop the upgrade instead of crash-looping
// the new pods. Each service's schema name and migrations directory come from its own built modules, so
// this file holds no copy of either. Exit codes: 0 done, 1 a migration or the connection failed, 2 usage.
const fs = require('node:fs');
const path = require('node:path');
const { ConfigError, createLogger, env, migrate } = require('@dss/platform');

const ROOT = path.resolve(__dirname, '..');
const USAGE = 'usage: node scripts/migrate.js <service> [<service> ...]   (e.g. accounts diagrams)';

/** The schema and migrations directory a service exports (services/<name>/dist/repository.js and server.js). */
function migrationTarget(name) {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new UsageError(`not a service name: "${name}"`);
  const dist = path.join(ROOT, 'services', name, 'dist');
  if (!fs.existsSync(path.join(dist, 'repository.js')) || !fs.existsSync(path.join(dist, 'server.js')))
    throw new UsageError(`services/${name} has no built repository.js and server.js (run npm run build)`);
  const { SCHEMA } = require(path.join(dist, 'repository.js'));
  const { MIGRATIONS_DIR } = require(path.join(dist, 'server.js'));
  if (typeof SCHEMA !== 'string' || typeof MIGRATIONS_DIR !== 'string')
    throw new UsageError(`services/${name} does not export SCHEMA and MIGRATIONS_DIR`);
  return { name, schema: SCHEMA, migrationsDir: MIGRATIONS_DIR };
}

class UsageError extends Error {}

async function main(args) {
  const logger = createLogger('migrate');
  let targets;
  let databaseUrl;
  try {
    if (args.length === 0 || args.includes('--help') || args.includes('-h')) throw new UsageError(USAGE);
    targets = [...new Set(args)].map(migrationTarget);
    databaseUrl = env.url('DATABASE_URL', { protocols: ['postgres:', 'postgresql:'] });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  for (const target of targets) {
    try {
      const { applied } = await migrate({
        databaseUrl,
        schema: target.schema,
        migrationsDir: target.migrationsDir,
        logger,
      });
      logger.info({ target: target.name, schema: target.schema, applied }, 'service migrated');
    } catch (error) {
      logger.error({ err: error, target: target.name, schema: target.schema }, 'migration failed');
      return 1;
    }
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
