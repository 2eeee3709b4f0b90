// Loading the token signing key and the previous public keys accepted during a rotation.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSigningKeys } from '../src/signing-keys';

describe('loadSigningKeys', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dss-keys-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const publicPem = () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();

  it('should accept the previous public keys of a rotation beside the current key', () => {
    const previous = path.join(dir, 'previous-public-keys.pem');
    writeFileSync(previous, `${publicPem()}${publicPem()}`);
    const keys = loadSigningKeys({ keyFile: path.join(dir, 'key.pem'), previousPublicKeysFile: previous });
    expect(keys.verification).toHaveLength(3);
    expect(keys.verification[0]!.kid).toBe(keys.signing.kid);
  });

  it('should treat a configured previous-keys file that does not exist as no previous keys', () => {
    const keys = loadSigningKeys({
      keyFile: path.join(dir, 'key.pem'),
      previousPublicKeysFile: path.join(dir, 'absent.pem'),
    });
    expect(keys.verification).toHaveLength(1);
    expect(keys.verification[0]!.kid).toBe(keys.signing.kid);
  });
});
