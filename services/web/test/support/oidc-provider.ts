// A real OpenID provider for the single sign-on tests: the certified `oidc-provider` package on 127.0.0.1
// with a random port and one confidential client whose redirect URI is the web app's callback. Its own
// development login form takes any login and password; the login names a person of `people`, whose claims
// (email, email_verified, name) the provider then vouches for.
// Two steps, because each side needs the other's address: `prepareOpenIdProvider` picks the port (so the
// issuer is known to the system's environment), `listen` starts it once the web app's address is known.
import { createServer, type Server } from 'node:http';
import { freePort } from '@dss/platform/testing';

export interface SsoPerson {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people the provider knows, by login. */
  people: Map<string, SsoPerson>;
  /** The web app's environment for this provider (DSS_OIDC_ISSUER, client id and secret). */
  env: Record<string, string>;
  listen(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

export async function prepareOpenIdProvider(): Promise<TestOpenIdProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'dss-web';
  const clientSecret = 'a test client secret that is long enough';
  const people = new Map<string, SsoPerson>();
  let server: Server | undefined;
  return {
    issuer,
    clientId,
    clientSecret,
    people,
    env: { DSS_OIDC_ISSUER: issuer, DSS_OIDC_CLIENT_ID: clientId, DSS_OIDC_CLIENT_SECRET: clientSecret },
    async listen(redirectUri) {
      const { default: Provider } = await import('oidc-provider');
      const minutes = 10 * 60;
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: ['a cookie key of the test provider'] },
        features: { devInteractions: { enabled: true } },
        ttl: {
          AccessToken: minutes,
          AuthorizationCode: 60,
          Grant: minutes,
          IdToken: minutes,
          Interaction: minutes,
          Session: minutes,
        },
        async findAccount(_ctx, id) {
          const person = people.get(id);
          return {
            accountId: id,
            async claims() {
              return person ? { sub: id, ...person } : { sub: id };
            },
          };
        },
      });
      server = createServer(provider.callback());
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', resolve);
      });
    },
    async close() {
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}
