'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { completeLockfile, platformOf } = require('../complete-lockfile');

describe('complete-lockfile', () => {
  it('reads os, cpu and libc from the platform package naming convention', () => {
    expect(platformOf('@swc/core-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
    expect(platformOf('@biomejs/cli-linux-x64-musl')).toEqual({
      os: ['linux'],
      cpu: ['x64'],
      libc: ['musl'],
    });
    expect(platformOf('@swc/core-linux-arm-gnueabihf')).toEqual({
      os: ['linux'],
      cpu: ['arm'],
      libc: ['glibc'],
    });
    expect(platformOf('@swc/core-win32-ia32-msvc')).toEqual({ os: ['win32'], cpu: ['ia32'] });
    expect(platformOf('left-pad')).toBeNull();
  });

  it('adds a missing optional platform package next to its parent, keeping the dev flag', () => {
    const lock = {
      packages: {
        '': { name: 'x' },
        'node_modules/tool': {
          version: '1.0.0',
          dev: true,
          optionalDependencies: { 'tool-linux-x64': '1.0.0', 'tool-darwin-arm64': '1.0.0' },
        },
        'node_modules/tool-linux-x64': { version: '1.0.0', dev: true, optional: true },
      },
    };
    const { added } = completeLockfile(lock);
    expect(added).toEqual(['tool-darwin-arm64@1.0.0']);
    expect(lock.packages['node_modules/tool-darwin-arm64']).toEqual({
      version: '1.0.0',
      os: ['darwin'],
      cpu: ['arm64'],
      dev: true,
      optional: true,
    });
  });

  it('finds nothing missing in the committed package-lock.json, so npm ci accepts it', () => {
    const script = path.resolve(__dirname, '../complete-lockfile.js');
    const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
