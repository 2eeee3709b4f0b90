// Single sign-on settings of a deployment (OpenID Connect, authorization code flow with PKCE). Without
// DSS_OIDC_ISSUER there is no SSO; with it, the client id and secret are required. The secret is given as
// a value or as a file (a mounted Kubernetes Secret); it is never logged.
import { readFileSync } from 'node:fs';
import { ConfigError, env } from '@dss/platform';

export interface SsoConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in button: "Sign in with {providerName}". */
  providerName: string;
  /** Lower-case email domains allowed to sign in; empty: any verified email. */
  allowedDomains: string[];
  /** Teams (slugs) a user made by a first SSO sign-in joins, with newMemberRole. */
  newMemberTeams: string[];
  newMemberRole: 'owner' | 'editor' | 'viewer';
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

export function readSsoConfig(source: NodeJS.ProcessEnv = process.env): SsoConfig | null {
  const issuer = env.optionalUrl('DSS_OIDC_ISSUER', { protocols: ['https:', 'http:'] }, source);
  if (!issuer) return null;
  // Plain http only to a provider on this machine (development and tests); anything else must be https.
  const url = new URL(issuer);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.includes(url.hostname))
    throw new ConfigError('DSS_OIDC_ISSUER must be an https URL (http only for 127.0.0.1 or localhost)');
  const clientId = env.optionalString('DSS_OIDC_CLIENT_ID', source);
  if (!clientId) throw new ConfigError('DSS_OIDC_CLIENT_ID is required when DSS_OIDC_ISSUER is set');
  const secretFile = env.optionalString('DSS_OIDC_CLIENT_SECRET_FILE', source);
  let clientSecret = env.optionalString('DSS_OIDC_CLIENT_SECRET', source);
  if (!clientSecret && secretFile) {
    try {
      clientSecret = readFileSync(secretFile, 'utf8').trim();
    } catch {
      throw new ConfigError(`DSS_OIDC_CLIENT_SECRET_FILE cannot be read: ${secretFile}`);
    }
  }
  if (!clientSecret)
    throw new ConfigError(
      'DSS_OIDC_CLIENT_SECRET or DSS_OIDC_CLIENT_SECRET_FILE is required when DSS_OIDC_ISSUER is set',
    );
  const allowedDomains = list(env.optionalString('DSS_OIDC_ALLOWED_DOMAINS', source));
  for (const domain of allowedDomains)
    if (!/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(domain))
      throw new ConfigError(`DSS_OIDC_ALLOWED_DOMAINS: "${domain}" is not a domain name`);
  return {
    issuer,
    clientId,
    clientSecret,
    providerName: env.string('DSS_OIDC_PROVIDER_NAME', { default: 'SSO' }, source).slice(0, 60),
    allowedDomains,
    newMemberTeams: list(env.optionalString('DSS_OIDC_NEW_MEMBER_TEAMS', source)),
    newMemberRole: env.string(
      'DSS_OIDC_NEW_MEMBER_ROLE',
      { default: 'viewer', allowed: ['owner', 'editor', 'viewer'] as const },
      source,
    ),
  };
}

/** Whether `email` is of an allowed domain (any, when the list is empty). */
export function emailDomainAllowed(config: SsoConfig, email: string): boolean {
  if (config.allowedDomains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return config.allowedDomains.includes(domain);
}
