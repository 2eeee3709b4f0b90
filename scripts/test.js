#!/usr/bin/env node
'use strict';
// `npm test`: provides PostgreSQL, Redis and NATS (found, started or installed: see lib/infra.js), runs the
// linter and the build, then jest with DSS_TEST_DATABASE_URL / DSS_TEST_REDIS_URL / DSS_TEST_NATS_URL set, and
// exits with jest's exit code after stopping whatever it started. Arguments go to jest:
//   npm test -- packages/schema        npm test -- -t 'applies a patch'
// The infrastructure is prepared while lint and build run, since both mostly wait on different things.
// Switches for work in progress (the default runs everything, and CI uses the default):
//   DSS_TEST_SKIP_LINT=1    do not run `npm run lint`
//   DSS_TEST_SKIP_BUILD=1   do not run `npm run build` nor type-check the tests (jest runs the TypeScript
//                           sources through SWC anyway)
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ensurePostgres, ensureRedis, ensureNats, InfraError, provideBinary } = require('./lib/infra');
const { registerCleanup, stopAll } = require('./lib/cleanup');
const { repoRoot } = require('./lib/paths');

const PREFIX = 'npm test:';

/** @type {Array<[string, number]>} */
const timings = [];

/**
 * @param {string} name
 * @param {number} startedAt
 */
function timed(name, startedAt) {
  timings.push([name, Date.now() - startedAt]);
}

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

/**
 * @param {NodeJS.ProcessEnv} env
 * @param {string} name
 */
const isOn = (env, name) =>
  Boolean(env[name]) && !['0', 'false', 'no'].includes(String(env[name]).toLowerCase());

/**
 * Runs a child with the terminal as its output; resolves with its exit code (1 when killed by a signal).
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, signal?: AbortSignal }} [options]
 * @returns {Promise<number>}
 */
function runInherit(command, args, { env = process.env, signal } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      signal,
    });
    // A SIGTERM sent to us alone (CI cancelling the job) must not leave jest or tsc running.
    const unregister = registerCleanup({
      name: path.basename(command),
      stop: async () => void child.kill('SIGTERM'),
      killSync: () => void child.kill('SIGTERM'),
    });
    child.on('error', (err) => {
      unregister();
      if (err.name === 'AbortError') resolve(1);
      else reject(err);
    });
    child.on('close', (code) => {
      unregister();
      resolve(code ?? 1);
    });
  });
}

/**
 * `npm run <script>` with the npm that runs us (npm_execpath), so PATH does not matter.
 * @param {string} script
 * @param {AbortSignal} signal
 */
async function npmRun(script, signal) {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli?.endsWith('.js')
    ? [process.execPath, [npmCli, 'run', '--silent', script]]
    : ['npm', ['run', '--silent', script]];
  const startedAt = Date.now();
  const code = await runInherit(command, args, { signal });
  timed(script, startedAt);
  if (code !== 0 && !signal.aborted) throw new Error(`npm run ${script} failed (exit code ${code})`);
}

/**
 * @param {(line: string) => void} logger
 */
async function provideInfrastructure(logger) {
  const startedAt = Date.now();
  const results = await Promise.allSettled([
    ensurePostgres({ logger }),
    ensureRedis({ logger }),
    ensureNats({ logger }),
  ]);
  timed('infrastructure', startedAt);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    // Stop the ones that did start before reporting the one that did not.
    await stopAll();
    throw failed.reason;
  }
  const services = results.map(
    (r) => /** @type {PromiseFulfilledResult<import('./lib/infra').Service>} */ (r).value,
  );
  for (const s of services) console.log(`${s.name}: ${s.where}`);
  return Object.fromEntries(services.map((s) => [s.name, s.url]));
}

/**
 * The web app's browser tests drive Debian's Chromium (services/web/test/support/browser.ts): installed
 * with apt-get when missing and we run as root, else one line saying how to install it.
 * @param {(line: string) => void} logger
 */
async function ensureChromium(logger) {
  if (process.env.DSS_TEST_CHROMIUM) return;
  const { binary, how } = await provideBinary({
    binary: 'chromium',
    pkg: 'chromium',
    install: true,
    logger,
    missing: 'the browser tests need Chromium at /usr/bin/chromium; install it as root',
  });
  if (how.startsWith('installed')) logger(`chromium: installed with apt-get (${binary})`);
}

/** @returns {Promise<number>} */
async function main() {
  const jestArgs = process.argv.slice(2);
  const env = process.env;
  const ci = isOn(env, 'CI');
  const log = (/** @type {string} */ line) => console.log(`${PREFIX} ${line}`);

  // An infrastructure failure cancels lint/build at once rather than after them.
  const cancel = new AbortController();
  const infra = provideInfrastructure(log);
  infra.catch(() => cancel.abort());

  try {
    if (isOn(env, 'DSS_TEST_SKIP_LINT')) log('lint skipped (DSS_TEST_SKIP_LINT)');
    else await npmRun('lint', cancel.signal);
    if (isOn(env, 'DSS_TEST_SKIP_BUILD')) log('build skipped (DSS_TEST_SKIP_BUILD)');
    else {
      await npmRun('build', cancel.signal);
      await npmRun('typecheck:tests', cancel.signal);
    }
  } catch (err) {
    await infra.catch(() => {});
    throw err;
  }
  const urls = await infra;
  await ensureChromium(log);

  const startedAt = Date.now();
  const jestBin = path.join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
  const code = await runInherit(
    process.execPath,
    [jestBin, ...(ci && !jestArgs.includes('--ci') ? ['--ci'] : []), ...jestArgs],
    {
      env: {
        ...env,
        DSS_TEST_DATABASE_URL: urls.postgres,
        DSS_TEST_REDIS_URL: urls.redis,
        DSS_TEST_NATS_URL: urls.nats,
      },
    },
  );
  timed('jest', startedAt);
  return code;
}

main()
  .then(
    (code) => ({ code, message: code === 0 ? null : `jest failed (exit code ${code})` }),
    (err) => ({
      code: 1,
      message: err instanceof InfraError || err instanceof Error ? err.message : String(err),
    }),
  )
  .then(async ({ code, message }) => {
    await stopAll();
    if (timings.length)
      console.log(`${PREFIX} ${timings.map(([n, ms]) => `${n} ${seconds(ms)}`).join(', ')}`);
    if (message) console.error(`${PREFIX} ${message}`);
    process.exit(code);
  });
