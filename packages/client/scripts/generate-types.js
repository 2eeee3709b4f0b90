#!/usr/bin/env node

// Regenerates src/generated/openapi.ts from the gateway's OpenAPI description with openapi-typescript.
// The output is committed (see README: why), and test/generated-types.test.ts fails when it is stale.
//   node scripts/generate-types.js                write src/generated/openapi.ts
//   node scripts/generate-types.js --out FILE     write FILE instead (the staleness test compares it)
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SPEC = path.resolve(ROOT, '../../services/gateway/openapi/openapi.yaml');
const DEFAULT_OUT = path.join(ROOT, 'src/generated/openapi.ts');

const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : DEFAULT_OUT;
// openapi-typescript is ESM-only, so it runs as its own process rather than being required here.
const cli = path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js');
// --default-non-nullable=false: a request field with a default (`name`, `driver`) stays optional.
// --empty-objects-unknown: free-form objects (the contract's `properties`) are `unknown`, not `never`.
const flags = ['--default-non-nullable=false', '--empty-objects-unknown'];
execFileSync(process.execPath, [cli, SPEC, '--output', out, ...flags], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
