// Standard Webhooks signatures with the pinned `standardwebhooks` library: `v1,<base64 HMAC-SHA256 of
// id.timestamp.body>` per secret; during a rotation's overlap both secrets sign, space-separated, so a
// receiver holding either one verifies.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { EndpointRow } from './repository';
import type { SecretKeys } from './secret-keys';

export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` and 32 random bytes in base64 (the form the library reads). */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The endpoint's secrets that sign now, decrypted: the current one and, during an overlap, the previous one. */
export function signingSecrets(endpoint: EndpointRow, now: Date, keys: SecretKeys): string[] {
  const overlap =
    endpoint.previous_secret &&
    endpoint.previous_secret_key_id &&
    endpoint.previous_secret_until &&
    endpoint.previous_secret_until > now
      ? [keys.decrypt(endpoint.previous_secret, endpoint.previous_secret_key_id)]
      : [];
  return [keys.decrypt(endpoint.secret, endpoint.secret_key_id), ...overlap];
}

export function webhookHeaders(
  id: string,
  body: string,
  secrets: string[],
  now: Date,
): Record<string, string> {
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, now, body)).join(' ');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
