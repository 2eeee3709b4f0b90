// What every route of the web app shares: the service clients, the signer, cookie settings, this app's
// origin, the sign-in throttle and
// the live hub.
import type { Logger } from '@dss/platform';
import type { WebClients } from './clients';
import type { CookieSettings } from './cookies';
import type { LiveHub } from './live/live-hub';
import type { Mailer } from './mailer';
import type { ResetThrottle } from './reset-throttle';
import type { SignInThrottle } from './sign-in-throttle';
import type { SsoClient } from './sso';
import type { Signer } from './signing';

export interface WebAppContext {
  clients: WebClients;
  signer: Signer;
  cookies: CookieSettings;
  /** The origin of DSS_APP_URL; form posts must come from it. */
  appOrigin: string;
  throttle: SignInThrottle;
  logger: Logger;
  /** The pages' event streams and who is on which diagram. */
  live: LiveHub;
  /** SMTP, when DSS_SMTP_URL is set. */
  mailer: Mailer | null;
  /** {app_url}, the base of the links in invitation and reset emails. */
  appUrl: string;
  /** Per-IP limit on password-reset requests. */
  resetThrottle: ResetThrottle;
  /** Single sign-on with the deployment's OpenID provider, when DSS_OIDC_ISSUER is set. */
  sso: SsoClient | null;
}
