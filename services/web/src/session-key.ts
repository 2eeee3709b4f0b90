// The web app's secret for signing session cookies and CSRF tokens. Given as DSS_SESSION_KEY or a file
// (DSS_SESSION_KEY_FILE, a Kubernetes Secret in a cluster); in embedded mode generated once into the data
// directory, like the accounts signing key, so sessions survive restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '@dss/platform';

export const MIN_SESSION_KEY_CHARACTERS = 32;

export function loadSessionKey(options: { value?: string; file: string }): Buffer {
  const key = options.value ?? readOrCreateKeyFile(options.file);
  if (key.length < MIN_SESSION_KEY_CHARACTERS)
    throw new ConfigError(
      `the session key (DSS_SESSION_KEY_FILE) must have at least ${MIN_SESSION_KEY_CHARACTERS} characters`,
    );
  return Buffer.from(key, 'utf8');
}

function readOrCreateKeyFile(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(48).toString('base64url');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
