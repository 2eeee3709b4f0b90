// The key pair that signs personal access tokens. Loaded from a PEM file (a Kubernetes Secret in a
// cluster); in embedded mode generated once into the data directory so tokens survive restarts.
// During a key rotation the previous public keys stay accepted (DSS_TOKEN_PREVIOUS_PUBLIC_KEYS_FILE),
// so nobody is logged out while old tokens remain in use.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { keyIdOf, type VerificationKey } from '@dss/platform';

export interface SigningKeys {
  signing: { kid: string; privateKeyPem: string };
  verification: VerificationKey[];
}

export function loadSigningKeys(options: { keyFile: string; previousPublicKeysFile?: string }): SigningKeys {
  const privateKeyPem = readOrCreatePrivateKey(options.keyFile);
  const publicKey = createPublicKey(createPrivateKey(privateKeyPem));
  const kid = keyIdOf(publicKey);
  const verification: VerificationKey[] = [
    { kid, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  ];
  // A configured file that does not exist means no previous keys: the chart mounts it as an optional
  // item of the signing Secret, which exists only during a rotation.
  if (options.previousPublicKeysFile && existsSync(options.previousPublicKeysFile)) {
    for (const pem of splitPemBundle(readFileSync(options.previousPublicKeysFile, 'utf8'))) {
      verification.push({ kid: keyIdOf(pem), publicKeyPem: pem });
    }
  }
  return { signing: { kid, privateKeyPem }, verification };
}

function readOrCreatePrivateKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
  return pem;
}

function splitPemBundle(bundle: string): string[] {
  return bundle.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [];
}
