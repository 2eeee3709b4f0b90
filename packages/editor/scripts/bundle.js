#!/usr/bin/env node
// Builds the editor's page scripts: src/browser/editor.tsx (Preact, signals, @dss/schema's engine and
// @dss/diagram-svg's renderer inside) and src/browser/new-diagram.ts, each one minified IIFE under
// dist/browser/ (run by the root `npm run build`, after tsc has type-checked everything). @dss/schema,
// @dss/diagram-svg and @dss/sql (the DBML pane's DBML and SQL) are bundled from their TypeScript sources; node:crypto (content hashes and random
// uuids' Node path, never used in the page) is swapped for diagram-svg's browser stub, as its bundle does.
const path = require('node:path');
const esbuild = require('esbuild');

const packageDir = path.resolve(__dirname, '..');
const schemaSource = path.resolve(packageDir, '..', 'schema', 'src');
const svgSource = path.resolve(packageDir, '..', 'diagram-svg', 'src');
const sqlSource = path.resolve(packageDir, '..', 'sql', 'src');
const browserDir = path.join(packageDir, 'src', 'browser');
const outputs = [
  { entry: 'editor.tsx', outfile: path.join(packageDir, 'dist', 'browser', 'editor.js') },
  { entry: 'new-diagram.ts', outfile: path.join(packageDir, 'dist', 'browser', 'new-diagram.js') },
  // Only for `npm run bench` (src/bench/browser.ts) and the web app's editor-redraw browser test; never served.
  { entry: 'bench-page.ts', outfile: path.join(packageDir, 'dist', 'bench', 'page.js') },
];

/** @type {import('esbuild').Plugin} */
const browserSubstitutes = {
  name: 'dss-browser-substitutes',
  setup(build) {
    build.onResolve({ filter: /^@dss\/schema$/ }, () => ({ path: path.join(schemaSource, 'index.ts') }));
    build.onResolve({ filter: /^@dss\/sql$/ }, () => ({ path: path.join(sqlSource, 'index.ts') }));
    build.onResolve({ filter: /^@dss\/diagram-svg$/ }, () => ({ path: path.join(svgSource, 'render.ts') }));
    build.onResolve({ filter: /^(node:)?crypto$/ }, () => ({
      path: path.join(svgSource, 'browser', 'no-node-crypto.ts'),
    }));
  },
};

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
    jsx: 'automatic',
    jsxImportSource: 'preact',
    plugins: [browserSubstitutes],
    logLevel: 'warning',
    metafile: true,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((total, output) => total + output.bytes, 0);
  console.log(`bundle: ${path.relative(process.cwd(), outfile)} (${Math.round(bytes / 1024)}KB)`);
}

(async () => {
  for (const output of outputs) await bundle(output);
})().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
