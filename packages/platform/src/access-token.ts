// The format of personal access tokens, shared by accounts (which signs them) and the gateway (which
// verifies signatures locally before asking accounts whether a token is still valid). A token is a JWT
// signed with ES256; `jti` is the token id, `sub` the user, `tid` the team. Accounts stores only a
// SHA-256 hash of the token: tokens carry 256 bits of signature entropy, so a slow hash adds nothing.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const ACCESS_TOKEN_ALGORITHM = 'ES256';

export interface AccessTokenClaims {
  tokenId: string;
  userId: string;
  teamId: string;
  expiresAt: Date;
}

export interface VerificationKey {
  kid: string;
  publicKeyPem: string;
}

export type SignatureCheck =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown_key' | 'bad_signature' | 'expired' };

/** Key id: a short thumbprint of the public key, so verifiers can pick the right key during rotation. */
export function keyIdOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  const der = key.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url').slice(0, 16);
}

export function signAccessToken(claims: AccessTokenClaims, privateKeyPem: string, kid: string): string {
  return jwt.sign(
    { sub: claims.userId, tid: claims.teamId, exp: Math.floor(claims.expiresAt.getTime() / 1000) },
    privateKeyPem,
    { algorithm: ACCESS_TOKEN_ALGORITHM, keyid: kid, jwtid: claims.tokenId, noTimestamp: false },
  );
}

export function verifyAccessTokenSignature(
  token: string,
  keys: readonly VerificationKey[],
  now: Date = new Date(),
): SignatureCheck {
  if (!token) return { ok: false, reason: 'missing' };
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded.payload === 'string') return { ok: false, reason: 'malformed' };
  const key = keys.find((candidate) => candidate.kid === decoded.header.kid);
  if (!key) return { ok: false, reason: 'unknown_key' };
  try {
    const payload = jwt.verify(token, key.publicKeyPem, {
      algorithms: [ACCESS_TOKEN_ALGORITHM],
      clockTimestamp: Math.floor(now.getTime() / 1000),
    }) as jwt.JwtPayload;
    if (
      typeof payload.jti !== 'string' ||
      typeof payload.sub !== 'string' ||
      typeof payload.tid !== 'string'
    ) {
      return { ok: false, reason: 'malformed' };
    }
    const expiresAt = new Date((payload.exp ?? 0) * 1000);
    return {
      ok: true,
      claims: { tokenId: payload.jti, userId: payload.sub, teamId: payload.tid, expiresAt },
    };
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) return { ok: false, reason: 'expired' };
    return { ok: false, reason: 'bad_signature' };
  }
}

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
