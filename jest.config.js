// One jest configuration for every workspace: TypeScript sources are transformed by SWC (type checking is
// done once by `tsc --build`), and workspace imports (@dss/<name>) resolve to their sources, not to dist/.
const path = require('node:path');
const fs = require('node:fs');

const workspaceDirs = ['packages', 'services'].flatMap((group) => {
  const dir = path.join(__dirname, group);
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => ({ name, dir: path.join(dir, name) })) : [];
});
const moduleNameMapper = {};
for (const { name, dir } of workspaceDirs)
  moduleNameMapper[`^@dss/${name}$`] = path.join(dir, 'src/index.ts');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/packages',
    '<rootDir>/services',
    '<rootDir>/e2e',
    '<rootDir>/scripts',
    '<rootDir>/deploy',
  ],
  testMatch: ['**/test/**/*.test.ts', '**/e2e/**/*.test.ts', '**/scripts/test/**/*.test.js'],
  // The container checks need the stack scripts/e2e-containers.sh starts (it names it in E2E_CONTAINERS_STACK);
  // without it they are not part of the run at all.
  // DSS_TEST_E2E_SUITE=containers (set by .ci/run, whose container e2e runs the black-box suite against the
  // containers next): the black-box files that run whole against any deployment are left to that run instead
  // of being run twice; the files with journeys that need a stack of their own stay here.
  testPathIgnorePatterns: [
    '/node_modules/',
    '/dist/',
    ...(process.env.E2E_CONTAINERS_STACK ? [] : ['/e2e/test/containers/']),
    ...(process.env.DSS_TEST_E2E_SUITE === 'containers' && !process.env.E2E_CONTAINERS_STACK
      ? ['/e2e/test/(diagrams|versions|catalog|export)\\.test\\.ts$']
      : []),
  ],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // ESM-only packages (the OpenID Connect client and the test's provider, d3-force) are transformed like the sources.
  transformIgnorePatterns: [
    '/node_modules/(?!(@dagrejs|d3-force|d3-quadtree|d3-dispatch|d3-timer|openid-client|oauth4webapi|jose|oidc-provider)/)',
  ],
  moduleNameMapper,
  // Values computed once per run for many files' inputs (memoForRun of @dss/platform/testing).
  globalSetup: '<rootDir>/scripts/lib/jest-run-memo.js',
  globalTeardown: '<rootDir>/scripts/lib/jest-run-memo-teardown.js',
  // A guard against a test that hangs, never a speed check (benchmarks measure speed): on a 2-core CI machine
  // running three files at once a journey of a few dozen requests can take well over 30 s.
  testTimeout: 120000,
  // Most tests wait on PostgreSQL, NATS or gRPC rather than the CPU, so run more files than cores.
  maxWorkers: 3,
};
