// The relying party of single sign-on: OpenID Connect's authorization code flow with PKCE (S256), a state
// and a nonce, through `openid-client`. `begin` makes the provider's authorization URL and the pending
// sign-in (kept by the caller in a signed, HttpOnly, 10-minute cookie); `complete` checks the provider's
// answer against it (state, then the code exchanged with the verifier, then the ID token's signature,
// issuer, audience and nonce) and returns who the provider vouches for. The provider's metadata is
// discovered on first use and kept; a failed discovery is tried again on the next sign-in.
import type { Logger } from '@dss/platform';
import { PageError } from './page-errors';
import type { SsoConfig } from './sso-config';

// openid-client is an ES module, loaded with import() on first use.
type OidcLibrary = typeof import('openid-client', { with: { 'resolution-mode': 'import' }});
type OidcConfiguration = InstanceType<OidcLibrary['Configuration']>;

export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** The local path to go to once signed in. */
  next: string;
}

export interface SsoPerson {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/** A callback the provider or a forger sent that does not complete this sign-in: the person starts again. */
export class SsoRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SsoRefusal';
  }
}

export class SsoClient {
  private provider: Promise<{ lib: OidcLibrary; config: OidcConfiguration }> | null = null;

  constructor(
    readonly settings: SsoConfig,
    readonly redirectUri: string,
    private readonly logger: Logger,
  ) {}

  private connect() {
    if (!this.provider) {
      const attempt = (async () => {
        const lib = (await import('openid-client')) as OidcLibrary;
        const insecure = new URL(this.settings.issuer).protocol === 'http:';
        const config = await lib.discovery(
          new URL(this.settings.issuer),
          this.settings.clientId,
          this.settings.clientSecret,
          undefined,
          insecure ? { execute: [lib.allowInsecureRequests] } : undefined,
        );
        return { lib, config };
      })();
      attempt.catch((error: unknown) => {
        // The message only: a failed request's details could carry the client's credentials.
        this.logger.error(
          { issuer: this.settings.issuer, reason: String((error as Error)?.message ?? error) },
          'single sign-on provider discovery failed',
        );
        if (this.provider === attempt) this.provider = null;
      });
      this.provider = attempt;
    }
    return this.provider.catch((error: unknown) => {
      throw providerUnavailable(error);
    });
  }

  async begin(next: string): Promise<{ url: string; pending: PendingSignIn }> {
    const { lib, config } = await this.connect();
    const pending: PendingSignIn = {
      state: lib.randomState(),
      nonce: lib.randomNonce(),
      verifier: lib.randomPKCECodeVerifier(),
      next,
    };
    const url = lib.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await lib.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /** `callbackUrl`: the callback as the provider sent it (on DSS_APP_URL's origin). */
  async complete(callbackUrl: URL, pending: PendingSignIn): Promise<SsoPerson> {
    const { lib, config } = await this.connect();
    let tokens: Awaited<ReturnType<OidcLibrary['authorizationCodeGrant']>>;
    try {
      tokens = await lib.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw refusalOrOutage(lib, error);
    }
    const claims = tokens.claims();
    if (!claims) throw new SsoRefusal('the provider sent no ID token');
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified;
    let name = typeof claims.name === 'string' ? claims.name : undefined;
    // Many providers put the email in the ID token only when asked; the UserInfo endpoint always has it.
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      try {
        const info = await lib.fetchUserInfo(config, tokens.access_token, claims.sub);
        if (typeof info.email === 'string') {
          email = info.email;
          verified = info.email_verified;
        }
        if (typeof info.name === 'string') name = info.name;
      } catch (error) {
        throw refusalOrOutage(lib, error);
      }
    }
    if (!email) throw new SsoRefusal('the provider did not share an email address');
    return {
      issuer: String(claims.iss),
      subject: claims.sub,
      email: email.trim().toLowerCase(),
      emailVerified: verified === true,
      name: (name ?? '').trim(),
    };
  }
}

/** The provider refused, or the answer did not check out: a refusal. Anything else (network): an outage. */
function refusalOrOutage(lib: OidcLibrary, error: unknown): Error {
  if (error instanceof lib.AuthorizationResponseError || error instanceof lib.ResponseBodyError)
    return new SsoRefusal(`the provider answered ${error.error}`);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('OAUTH_')) return new SsoRefusal((error as Error).message);
  return providerUnavailable(error);
}

function providerUnavailable(error: unknown): PageError {
  return Object.assign(
    new PageError(
      503,
      'Sign-in provider unavailable',
      'The single sign-on provider is not answering. Try again shortly, or sign in with a password.',
    ),
    { cause: error },
  );
}
