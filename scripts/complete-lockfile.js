#!/usr/bin/env node
'use strict';
// The npm registry these machines reach serves only the Linux builds of packages that ship one native
// binary per platform (@swc/core, @biomejs/biome, …). `npm install` then leaves the other platforms'
// optional packages out of package-lock.json, and `npm ci` refuses that lock ("Missing: … from lock
// file"). This script adds those entries back, with the version the parent asks for and the os/cpu/libc
// their names follow, so `npm ci` skips them on a platform they don't fit without fetching anything.
// Run it after any `npm install` that changes the lock: `node scripts/complete-lockfile.js`.
// `--check` exits 1 when entries are missing (used by the tests).
const fs = require('node:fs');
const path = require('node:path');

const LOCK = path.resolve(__dirname, '..', 'package-lock.json');
const OPERATING_SYSTEMS = [
  'darwin',
  'win32',
  'linux',
  'android',
  'freebsd',
  'openbsd',
  'netbsd',
  'sunos',
  'aix',
  'openharmony',
];
const CPUS = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'loong64', 'riscv64', 'mips64el'];

/** @param {string} name */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OPERATING_SYSTEMS.includes(token));
  const cpu = tokens.find((token) => CPUS.includes(token));
  if (!os || !cpu) return null;
  const platform = { cpu: [cpu], os: [os] };
  if (os === 'linux') {
    if (tokens.some((token) => token.startsWith('musl'))) platform.libc = ['musl'];
    else if (tokens.some((token) => token.startsWith('gnu'))) platform.libc = ['glibc'];
  }
  return platform;
}

/** Where npm would find `name` for a package at `location`: its own node_modules, then each parent's. */
function resolvedLocation(packages, location, name) {
  let base = location;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** An exact version from a spec, or the version of an installed sibling built from the same release. */
function versionFor(packages, spec, siblings) {
  if (/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) return spec;
  for (const sibling of siblings) {
    const found = resolvedLocation(packages, '', sibling);
    if (found) return packages[found].version;
  }
  return null;
}

function completeLockfile(lock) {
  const packages = lock.packages;
  const added = [];
  const unknown = [];
  for (const [location, entry] of Object.entries(packages)) {
    const optional = entry.optionalDependencies ?? {};
    const siblings = Object.keys(optional);
    for (const [name, spec] of Object.entries(optional)) {
      if (resolvedLocation(packages, location, name)) continue;
      const platform = platformOf(name);
      const version = versionFor(packages, spec, siblings);
      if (!platform || !version) {
        unknown.push(name);
        continue;
      }
      const target = packages[`node_modules/${name}`]
        ? `${location}/node_modules/${name}`
        : `node_modules/${name}`;
      packages[target] = { version, ...platform, ...(entry.dev ? { dev: true } : {}), optional: true };
      added.push(`${name}@${version}`);
    }
  }
  const [root, ...rest] = Object.keys(packages);
  lock.packages = Object.fromEntries([
    [root, packages[root]],
    ...rest.sort().map((key) => [key, packages[key]]),
  ]);
  return { added, unknown };
}

function main() {
  const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8'));
  const { added, unknown } = completeLockfile(lock);
  for (const name of unknown)
    process.stderr.write(`complete-lockfile: cannot tell the platform of ${name}\n`);
  if (process.argv.includes('--check')) {
    if (added.length) process.stderr.write(`complete-lockfile: missing ${added.join(', ')}\n`);
    process.exit(added.length ? 1 : 0);
  }
  if (added.length) fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(`complete-lockfile: added ${added.length} platform entries\n`);
}

if (require.main === module) main();
module.exports = { completeLockfile, platformOf };
