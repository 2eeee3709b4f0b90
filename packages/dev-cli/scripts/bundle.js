#!/usr/bin/env node

// Builds bundle/: what the packed @dss/dev-cli holds besides bin/, so that `npm install dss-dev-cli-*.tgz`
// needs nothing else (no registry, no unpublished @dss/* workspace packages):
//   dss-dev.js                 src/main.ts with every JavaScript dependency (the workspace packages, commander,
//                              pg, mysql2, resvg's loader) bundled by esbuild into one CommonJS file
//   vendor/dbml-core-lite.js   @dss/ddl's trimmed @dbml/core (its build, with @dbml/parse bundled in), which
//                              @dss/ddl loads from `vendor/` beside its code
//   libpg-query.wasm           the PostgreSQL parser, which libpg-query loads from beside its code
//   assets/                    resvg's WebAssembly and the four DejaVu faces the PNG of `check` draws with
//   THIRD-PARTY-LICENSES.txt   name, version, licence and licence text of every package bundled or copied
// Runs before `npm pack` (prepack) and with `npm run bundle -w @dss/dev-cli`; the workspaces must be built
// (`npx tsc --build`, `npm run build`) first.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const packageDir = path.resolve(__dirname, '..');
const out = path.join(packageDir, 'bundle');
const resolveFrom = (request, from = packageDir) => require.resolve(request, { paths: [from] });
const ddlDir = path.dirname(resolveFrom('@dss/ddl/package.json'));
const schemaCliDir = path.dirname(resolveFrom('@dss/schema-cli/package.json'));

/** The folder of the package that holds `file` (the nearest package.json with a name). */
function packageOf(file) {
  let dir = path.dirname(file);
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`no package.json above ${file}`);
}

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'vendor'), { recursive: true });
  fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // drawing.ts finds resvg's wasm and the fonts in assets/ beside the bundle; its require.resolve of the
    // packages is the fallback of an unbundled checkout, never reached here.
    logOverride: { 'require-resolve-not-external': 'silent' },
  };
  const cli = await esbuild.build({
    ...common,
    entryPoints: [path.join(packageDir, 'src', 'main.ts')],
    outfile: path.join(out, 'dss-dev.js'),
    // pg's optional native binding is never asked for; @dbml/core is @dss/ddl's fallback when its trimmed
    // copy (vendor/, below) is missing, which it is not.
    external: ['pg-native', '@dbml/core'],
  });
  const dbml = await esbuild.build({
    ...common,
    entryPoints: [path.join(ddlDir, 'dist', 'vendor', 'dbml-core-lite.js')],
    outfile: path.join(out, 'vendor', 'dbml-core-lite.js'),
  });

  const copied = [];
  const copy = (from, to) => {
    fs.copyFileSync(from, path.join(out, to));
    copied.push(from);
  };
  copy(path.join(path.dirname(resolveFrom('libpg-query', ddlDir)), 'libpg-query.wasm'), 'libpg-query.wasm');
  copy(
    path.join(path.dirname(resolveFrom('@resvg/resvg-wasm', schemaCliDir)), 'index_bg.wasm'),
    'assets/index_bg.wasm',
  );
  const fonts = path.join(path.dirname(resolveFrom('dejavu-fonts-ttf/package.json', schemaCliDir)), 'ttf');
  for (const face of [
    'DejaVuSans.ttf',
    'DejaVuSans-Bold.ttf',
    'DejaVuSansMono.ttf',
    'DejaVuSansMono-Bold.ttf',
  ])
    copy(path.join(fonts, face), `assets/${face}`);

  // Every third-party package whose code or files went in, with its licence text.
  const packages = new Map();
  const inputs = [cli, dbml].flatMap((result) => Object.keys(result.metafile.inputs));
  for (const file of [...inputs.map((input) => path.resolve(input)), ...copied]) {
    if (!file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    const dir = packageOf(file);
    if (dir.startsWith(path.dirname(packageDir))) continue; // the workspace's own packages (MIT, this repo)
    packages.set(dir, JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')));
  }
  const sections = [...packages]
    .sort(([, a], [, b]) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`))
    .map(([dir, manifest]) => {
      const licenceFile = fs.readdirSync(dir).find((name) => /^(licen[cs]e|copying)/i.test(name));
      const text = licenceFile
        ? fs.readFileSync(path.join(dir, licenceFile), 'utf8').trim()
        : '(no licence file)';
      const licence =
        typeof manifest.license === 'string' ? manifest.license : JSON.stringify(manifest.license);
      return `${manifest.name}@${manifest.version} (${licence})\n\n${text}\n`;
    });
  fs.writeFileSync(
    path.join(out, 'THIRD-PARTY-LICENSES.txt'),
    `dss-dev bundles or copies these packages:\n\n${sections.join(`\n${'-'.repeat(78)}\n\n`)}`,
  );
  const size = fs.statSync(path.join(out, 'dss-dev.js')).size;
  console.log(`bundle/dss-dev.js ${(size / 1024).toFixed(0)} KiB, ${packages.size} third-party packages`);
}

main().catch((error) => {
  console.error(`bundle: ${error.message}`);
  process.exit(1);
});
