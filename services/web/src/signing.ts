// HMAC signatures with the session key: the session cookie carries `<session id>.<signature>` so a forged
// or altered cookie is refused before accounts is asked; CSRF tokens are an HMAC of the session id (or of
// the pre-sign-in nonce), so they need no storage. Comparisons are timing-safe.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class Signer {
  constructor(private readonly key: Buffer) {}

  mac(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\n${value}`).digest('base64url');
  }

  /** `purpose` keeps cookies of different kinds apart: one is never accepted as another. */
  sign(value: string, purpose = 'cookie'): string {
    return `${value}.${this.mac(purpose, value)}`;
  }

  /** The value of a signed cookie, or null when the signature does not match. */
  unsign(signed: string, purpose = 'cookie'): string | null {
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = signed.slice(0, dot);
    return sameText(signed.slice(dot + 1), this.mac(purpose, value)) ? value : null;
  }

  csrfToken(subject: string): string {
    return this.mac('csrf', subject);
  }

  checkCsrfToken(subject: string, token: unknown): boolean {
    return typeof token === 'string' && sameText(token, this.csrfToken(subject));
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
