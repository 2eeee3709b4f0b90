// Resolves bearer tokens to principals. The signature is checked here with the public keys of accounts,
// so a forged or expired token costs no call; then accounts decides whether the token is still valid
// (revoked, team deleted, member removed, plan lapsed). Positive answers are cached briefly; the cache
// drops entries on the revocation and team-change events, and is bypassed while the bus is down, so a
// revoked token stops working within the event latency.
import {
  type ServiceClient,
  ServiceError,
  type VerificationKey,
  verifyAccessTokenSignature,
} from '@dss/platform';

type AccountsClient = ServiceClient<'Accounts'>;

/** What accounts answers for a valid token: user, team, role, write flag, plan and caps. */
export type Principal = Awaited<ReturnType<AccountsClient['Authenticate']>>;

/** The part of the accounts client the authenticator uses. */
export type AccountsAuthApi = Pick<AccountsClient, 'Authenticate' | 'GetSigningKeys'>;

interface CacheEntry {
  principal: Principal;
  expiresAtMs: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/** The token of an `Authorization: Bearer <token>` header, or '' (which fails as a missing token). */
export function bearerTokenOf(req: { headers: { authorization?: string } }): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
}
const KEY_REFRESH_INTERVAL_MS = 10_000;

export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private keys: VerificationKey[] = [];
  private keysFetchedAtMs = 0;
  private cachingEnabled: () => boolean;

  constructor(
    private readonly accounts: AccountsAuthApi,
    private readonly options: { cacheTtlMs: number; cachingEnabled?: () => boolean; now?: () => number },
  ) {
    this.cachingEnabled = options.cachingEnabled ?? (() => true);
  }

  async authenticate(token: string): Promise<Principal> {
    const cached = this.cachedPrincipal(token);
    if (cached) return cached;
    const now = this.options.now?.() ?? Date.now();
    await this.checkSignature(token, now);
    const principal = await this.accounts.Authenticate({ token });
    if (this.cachingEnabled() && this.options.cacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      const tokenExpiryMs = Date.parse(principal.expires_at);
      this.cache.set(token, {
        principal,
        expiresAtMs: Math.min(now + this.options.cacheTtlMs, tokenExpiryMs),
      });
    }
    return principal;
  }

  /**
   * The principal of a token checked recently, without a call (or undefined). A cached entry was verified
   * when it was stored and never outlives the token's own expiry, so a hit needs no second signature check.
   */
  cachedPrincipal(token: string): Principal | undefined {
    const cached = this.cache.get(token);
    const now = this.options.now?.() ?? Date.now();
    return cached && cached.expiresAtMs > now && this.cachingEnabled() ? cached.principal : undefined;
  }

  dropToken(tokenId: string): void {
    for (const [token, entry] of this.cache)
      if (entry.principal.token_id === tokenId) this.cache.delete(token);
  }

  dropTeam(teamId: string, userId: string | null): void {
    for (const [token, entry] of this.cache) {
      if (entry.principal.team_id === teamId && (userId === null || entry.principal.user_id === userId)) {
        this.cache.delete(token);
      }
    }
  }

  clear(): void {
    this.cache.clear();
  }

  private async checkSignature(token: string, now: number): Promise<void> {
    if (this.keys.length === 0) await this.refreshKeys(now);
    let check = verifyAccessTokenSignature(token, this.keys, new Date(now));
    if (!check.ok && check.reason === 'unknown_key' && now - this.keysFetchedAtMs > KEY_REFRESH_INTERVAL_MS) {
      await this.refreshKeys(now);
      check = verifyAccessTokenSignature(token, this.keys, new Date(now));
    }
    if (check.ok) return;
    const message =
      check.reason === 'missing'
        ? 'an access token is required: send Authorization: Bearer <token>'
        : check.reason === 'expired'
          ? 'the access token has expired'
          : 'the access token is not valid';
    throw new ServiceError('unauthenticated', message);
  }

  private async refreshKeys(now: number): Promise<void> {
    const { keys } = await this.accounts.GetSigningKeys({});
    this.keys = keys.map((key) => ({ kid: key.kid, publicKeyPem: key.public_key_pem }));
    this.keysFetchedAtMs = now;
  }
}
