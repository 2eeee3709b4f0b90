// src/generated/openapi.ts is committed (README: why); this fails when the OpenAPI description changed
// and nobody ran `npm run generate -w @dss/client`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

describe('the generated API types', () => {
  it('should match what openapi-typescript makes of the gateway OpenAPI description today', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'dss-client-types-')), 'openapi.ts');
    execFileSync(process.execPath, [path.join(__dirname, '../scripts/generate-types.js'), '--out', out]);
    const committed = readFileSync(path.join(__dirname, '../src/generated/openapi.ts'), 'utf8');
    const fresh = readFileSync(out, 'utf8');
    if (fresh !== committed)
      throw new Error(
        'packages/client/src/generated/openapi.ts is stale: run `npm run generate -w @dss/client`',
      );
    expect(fresh).toBe(committed);
  });
});
