// Webhook signing secrets are stored encrypted (AES-256-GCM, node:crypto), never in plain text. The keys
// come from one file (DSS_WEBHOOK_SECRET_KEYS_FILE, a Kubernetes Secret in a cluster; in embedded mode
// generated once into the data directory, like the session and token signing keys): one key a line, the
// first encrypts, every line decrypts, so a rotation is "add the new key as the first line, restart".
// Each stored secret carries the id of its key beside the ciphertext (a column), and at start the
// service re-encrypts every secret under an older key, and encrypts any left in plain text by a release
// before this one (key id NULL), after which an old key's line may be removed.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, withTransaction } from '@dss/platform';
import type { Pool } from 'pg';
import * as repo from './repository';

export const MIN_SECRET_KEY_CHARACTERS = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretKeys {
  /** Id of the key new secrets are encrypted with. */
  currentId: string;
  encrypt(plain: string): { ciphertext: string; keyId: string };
  /** Throws when the key `keyId` is not configured or the ciphertext was altered. */
  decrypt(ciphertext: string, keyId: string): string;
}

/** Reads the key file, creating it with one random key when it does not exist (embedded mode). */
export function loadSecretKeys(file: string): SecretKeys {
  const lines = readOrCreateKeyFile(file)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.length === 0)
    throw new ConfigError('the webhook secret key file (DSS_WEBHOOK_SECRET_KEYS_FILE) is empty');
  return secretKeysFrom(lines);
}

/** Keys from their text (at least 32 characters each; the AES key is its SHA-256), the first current. */
export function secretKeysFrom(lines: string[]): SecretKeys {
  const keys = new Map<string, Buffer>();
  for (const line of lines) {
    if (line.length < MIN_SECRET_KEY_CHARACTERS)
      throw new ConfigError(
        `each webhook secret key (DSS_WEBHOOK_SECRET_KEYS_FILE) must have at least ${MIN_SECRET_KEY_CHARACTERS} characters`,
      );
    const key = createHash('sha256').update(line, 'utf8').digest();
    keys.set(keyIdOf(key), key);
  }
  const [currentId] = keys.keys();
  const current = keys.get(currentId) as Buffer;
  return {
    currentId,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(currentId, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return {
        ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'),
        keyId: currentId,
      };
    },
    decrypt(ciphertext, keyId) {
      const key = keys.get(keyId);
      if (!key) throw new Error(`webhook secret key ${keyId} is not in DSS_WEBHOOK_SECRET_KEYS_FILE`);
      const raw = Buffer.from(ciphertext, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(keyId, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/** A key's id: the first 16 hex digits of the SHA-256 of the AES key (not secret, not reversible). */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function readOrCreateKeyFile(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const key = randomBytes(48).toString('base64url');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

const SEAL_BATCH = 100;

/**
 * Encrypts the secrets still in plain text and re-encrypts those under an older key with the current one;
 * run at start. Several instances may run it at once (rows are taken with SKIP LOCKED). Returns how many
 * endpoints it rewrote. A secret whose key is no longer configured stops the start with that key's id.
 */
export async function sealSecrets(pool: Pool, keys: SecretKeys): Promise<number> {
  let total = 0;
  for (;;) {
    const sealed = await withTransaction(pool, async (client) => {
      const rows = await repo.lockSecretsToSeal(client, keys.currentId, SEAL_BATCH);
      const reseal = (text: string, keyId: string | null) =>
        keyId === keys.currentId
          ? { ciphertext: text, keyId }
          : keys.encrypt(keyId === null ? text : keys.decrypt(text, keyId));
      for (const row of rows)
        await repo.storeSealedSecrets(
          client,
          row.id,
          reseal(row.secret, row.secret_key_id),
          row.previous_secret === null ? null : reseal(row.previous_secret, row.previous_secret_key_id),
        );
      return rows.length;
    });
    total += sealed;
    if (sealed < SEAL_BATCH) return total;
  }
}
