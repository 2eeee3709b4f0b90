#!/usr/bin/env node
// Builds the live page script: src/client-live/diagram-page.ts with the diagram renderer and zoom of
// @dss/diagram-svg inside, one minified IIFE at dist/client/live.js (run by the root `npm run build`,
// after tsc has type-checked everything). @dss/schema is bundled from its TypeScript sources, and its one
// Node-only import, node:crypto, is swapped for diagram-svg's stub, exactly as diagram-svg's own bundle does.
const path = require('node:path');
const esbuild = require('esbuild');

const packageDir = path.resolve(__dirname, '..');
const packagesDir = path.resolve(packageDir, '..', '..', 'packages');

/** @type {import('esbuild').Plugin} */
const browserSubstitutes = {
  name: 'dss-browser-substitutes',
  setup(build) {
    build.onResolve({ filter: /^@dss\/schema$/ }, () => ({
      path: path.join(packagesDir, 'schema', 'src', 'index.ts'),
    }));
    build.onResolve({ filter: /^@dss\/diagram-svg\/src\// }, (args) => ({
      path: `${path.join(packagesDir, 'diagram-svg', args.path.slice('@dss/diagram-svg/'.length))}.ts`,
    }));
    build.onResolve({ filter: /^(node:)?crypto$/ }, () => ({
      path: path.join(packagesDir, 'diagram-svg', 'src', 'browser', 'no-node-crypto.ts'),
    }));
  },
};

async function main() {
  const outfile = path.join(packageDir, 'dist', 'client', 'live.js');
  const result = await esbuild.build({
    entryPoints: [path.join(packageDir, 'src', 'client-live', 'diagram-page.ts')],
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
