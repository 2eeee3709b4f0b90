// HMAC signatures with the session key: the session cookie carries `<session id>.<signature>` so a forged
// or altered cookie is refused before accounts is asked; CSRF tokens are an HMAC of the session id (or of
// the pre-sign-in nonce), so they need no storage. Comparisons are timing-safe.
// A CSRF token is written masked, with a fresh random pad each time (pad ‖ pad XOR HMAC), as Rails and Django
// do: pages are sent compressed (compression.ts), and a secret repeated byte for byte in every compressed
// page beside text an attacker can put there could be read from the answers' sizes (BREACH).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of an HMAC-SHA256, and so of a CSRF token's pad. */
const MAC_BYTES = 32;

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

  /** A CSRF token of `subject`: another text each time, every one of them valid. */
  csrfToken(subject: string): string {
    const mac = this.csrfMac(subject);
    const pad = randomBytes(MAC_BYTES);
    return Buffer.concat([pad, xor(pad, mac)]).toString('base64url');
  }

  checkCsrfToken(subject: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== 2 * MAC_BYTES || bytes.toString('base64url') !== token) return false;
    const unmasked = xor(bytes.subarray(0, MAC_BYTES), bytes.subarray(MAC_BYTES));
    return timingSafeEqual(unmasked, this.csrfMac(subject));
  }

  private csrfMac(subject: string): Buffer {
    return createHmac('sha256', this.key).update(`csrf\n${subject}`).digest();
  }
}

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(a.length);
  for (let index = 0; index < a.length; index += 1) out[index] = a[index]! ^ b[index]!;
  return out;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
