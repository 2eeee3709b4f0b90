// What every route of the web app shares: the service clients, the signer, cookie settings, this app's
// origin and the sign-in throttle.
import type { Logger } from '@dss/platform';
import type { WebClients } from './clients';
import type { CookieSettings } from './cookies';
import type { SignInThrottle } from './sign-in-throttle';
import type { Signer } from './signing';

export interface WebAppContext {
  clients: WebClients;
  signer: Signer;
  cookies: CookieSettings;
  /** The origin of DSS_APP_URL; form posts must come from it. */
  appOrigin: string;
  throttle: SignInThrottle;
  logger: Logger;
}
