#!/usr/bin/env node
'use strict';
// The whole e2e suite against the system run as a cluster runs it, on this machine: every service its own
// process, configured by environment variables only (e2e/support/processes.ts), with the rate limits and
// replay window of charts/dss/ci/kind-values.yaml, which the suite needs against one shared deployment. The
// local counterpart of scripts/e2e-kind.sh for machines without Docker. Needs `npm run build` first and the
// test services `npm test` uses (PostgreSQL, Redis, NATS: DSS_TEST_* URLs or the default local ports).
//   npm run e2e:processes            extra arguments go to jest
const path = require('node:path');
const { spawn } = require('node:child_process');
const { repoRoot } = require('./lib/paths');

/** What charts/dss/ci/kind-values.yaml sets for the e2e run (deploy/test/configuration.test.ts compares them). */
const KIND_VALUES_ENV = {
  gateway: {
    DSS_RATE_LIMIT_IP_PER_MIN: '600',
    DSS_RATE_LIMIT_READ_PER_MIN: '600',
    DSS_RATE_LIMIT_SCHEMA_PER_MIN: '300',
    DSS_RATE_LIMIT_WRITE_PER_MIN: '100',
  },
  diagrams: { DSS_REPLAY_WINDOW_SECONDS: '5' },
};

async function main() {
  let startProcessStack;
  try {
    ({ startProcessStack } = require(path.join(repoRoot, 'e2e/dist/support/processes.js')));
  } catch {
    console.error('e2e:processes: e2e/dist not found; run `npm run build` first');
    process.exit(1);
  }
  const stack = await startProcessStack(KIND_VALUES_ENV);
  console.log(`e2e:processes: every service up; API ${stack.baseUrl}`);
  const code = await new Promise((resolve) => {
    const jest = spawn(
      process.execPath,
      [
        require.resolve('jest/bin/jest'),
        'e2e/test',
        '--testPathIgnorePatterns',
        'processes.test',
        ...process.argv.slice(2),
      ],
      {
        cwd: repoRoot,
        stdio: 'inherit',
        env: {
          ...process.env,
          E2E_BASE_URL: stack.baseUrl,
          DSS_ACCOUNTS_GRPC_ADDR: stack.cliEnv.DSS_ACCOUNTS_GRPC_ADDR,
          DSS_PROPOSALS_GRPC_ADDR: stack.cliEnv.DSS_PROPOSALS_GRPC_ADDR,
        },
      },
    );
    jest.on('close', (exit) => resolve(exit ?? 1));
  });
  const exits = await stack.terminate();
  await stack.stop();
  const unclean = Object.entries(exits).filter(([, exit]) => exit !== 0);
  for (const [name, exit] of unclean) console.error(`e2e:processes: ${name} exited with ${exit} on SIGTERM`);
  process.exit(code !== 0 ? code : unclean.length > 0 ? 1 : 0);
}

module.exports = { KIND_VALUES_ENV };

if (require.main === module)
  main().catch((error) => {
    console.error(`e2e:processes: ${error.message}`);
    process.exit(1);
  });
