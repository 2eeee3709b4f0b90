// A real OpenID provider for the single sign-on tests: the certified `oidc-provider` package on 127.0.0.1
// with a random port and one confidential client whose redirect URI is the web app's callback. Its own
// development login form takes any login and password; the login names a person of `people`, whose claims
// (email, email_verified, name) the provider then vouches for. Unknown logins are people without an email.
import type { AddressInfo } from 'node:net';
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
  /** The people the provider knows, by login (changeable between tests). */
  people: Map<string, SsoPerson>;
  close(): Promise<void>;
}

export async function startOpenIdProvider(redirectUri: string): Promise<TestOpenIdProvider> {
  const { default: Provider } = await import('oidc-provider');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'dss-web';
  const clientSecret = 'a test client secret that is long enough';
  const people = new Map<string, SsoPerson>();
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
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  if (bound !== port) throw new Error('the provider is not on its chosen port');
  return {
    issuer,
    clientId,
    clientSecret,
    people,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
