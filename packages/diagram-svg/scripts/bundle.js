#!/usr/bin/env node
// Builds the /draw page script: src/browser/draw.ts with this package and @dss/schema inside, one minified
// IIFE at dist/browser/draw.js (run by the root `npm run build`, after tsc has type-checked everything).
// @dss/schema is bundled from its TypeScript sources (ES modules, so unused parts such as the Markdown
// renderer are left out). Its one Node-only import, node:crypto (content hashes, which the page never
// computes), is swapped for a stub that throws, as a package.json "browser" field would.
const path = require('node:path');
const esbuild = require('esbuild');

const packageDir = path.resolve(__dirname, '..');
const schemaSource = path.resolve(packageDir, '..', 'schema', 'src');
const browserDir = path.join(packageDir, 'src', 'browser');
const outputs = [
  // The /draw page: reads a patch from the address fragment and draws it.
  { entry: 'draw.ts', outfile: path.join(packageDir, 'dist', 'browser', 'draw.js') },
  // Zoom and pan (d3-zoom, d3-selection) for the diagrams on every other page.
  { entry: 'viewport.ts', outfile: path.join(packageDir, 'dist', 'browser', 'viewport.js') },
];

/** @type {import('esbuild').Plugin} */
const browserSubstitutes = {
  name: 'dss-browser-substitutes',
  setup(build) {
    build.onResolve({ filter: /^@dss\/schema$/ }, () => ({ path: path.join(schemaSource, 'index.ts') }));
    build.onResolve({ filter: /^(node:)?crypto$/ }, () => ({
      path: path.join(browserDir, 'no-node-crypto.ts'),
    }));
  },
};

async function main() {
  for (const output of outputs) await bundle(output);
}

async function bundle({ entry, outfile }) {
  const result = await esbuild.build({
    entryPoints: [path.join(browserDir, entry)],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: false,
    legalComments: 'eof',
    plugins: [browserSubstitutes],
    logLevel: 'warning',
    metafile: true,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((total, output) => total + output.bytes, 0);
  console.log(`bundle: ${path.relative(process.cwd(), outfile)} (${Math.round(bytes / 1024)}KB)`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
