// Configuration of the web app, read from the environment and validated at start (the platform's one
// config loader). The variable names and defaults are fixed by ARCHITECTURE.md.
import path from 'node:path';
import { ConfigError, DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';
import { MIN_SESSION_KEY_CHARACTERS } from './session-key';
import { readSsoConfig } from './sso-config';

export type WebConfig = ReturnType<typeof readWebConfig>;

export function readWebConfig(source: NodeJS.ProcessEnv = process.env) {
  const dataDir = env.string('DSS_DATA_DIR', { default: '.data' }, source);
  return {
    httpPort: env.int('DSS_WEB_PORT', { default: 8081, min: 0, max: 65535 }, source),
    httpHost: env.string('DSS_WEB_HOST', { default: '0.0.0.0' }, source),
    /** {app_url}: the origin form posts must come from, and whether cookies are Secure (https). */
    appUrl: env.url(
      'DSS_APP_URL',
      { default: 'http://localhost:8081', protocols: ['http:', 'https:'] },
      source,
    ),
    /** The secret that signs session cookies and CSRF tokens, given as a value… */
    sessionKey: sessionKeyValue(env.optionalString('DSS_SESSION_KEY', source)),
    /** …or as a file (a Kubernetes Secret); generated on first start when neither exists. */
    sessionKeyFile: env.string(
      'DSS_SESSION_KEY_FILE',
      { default: path.join(dataDir, 'keys', 'session-key') },
      source,
    ),
    /** Express `trust proxy`, so the per-IP sign-in throttle sees the client behind an ingress. */
    trustProxy: env.trustProxy('DSS_TRUST_PROXY', source),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    accountsAddress: env.grpcTarget('DSS_ACCOUNTS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.accounts, source),
    diagramsAddress: env.grpcTarget('DSS_DIAGRAMS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.diagrams, source),
    proposalsAddress: env.grpcTarget('DSS_PROPOSALS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.proposals, source),
    notificationsAddress: env.grpcTarget(
      'DSS_NOTIFICATIONS_GRPC_ADDR',
      DEFAULT_GRPC_ADDRESSES.notifications,
      source,
    ),
    /** The importer, which reads the editor's DBML pane (ParseDdl, format dbml). */
    importerAddress: env.grpcTarget('DSS_IMPORTER_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.importer, source),
    /** smtp(s)://user:password@host:port; without it no email is sent (invitation links are shown only). */
    smtpUrl: env.optionalUrl('DSS_SMTP_URL', { protocols: ['smtp:', 'smtps:'] }, source),
    mailFrom: env.string('DSS_MAIL_FROM', { default: 'Diagram Schema Service <noreply@localhost>' }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /**
     * Whether the drawing thread starts with the app, warmed up, and stays (drawing-thread.ts); off: it starts
     * on the first large new version and ends when idle.
     */
    drawingWarmUp: env.bool('DSS_WEB_DRAWING_WARM_UP', { default: true }, source),
    /** Single sign-on with OpenID Connect (DSS_OIDC_*); null when DSS_OIDC_ISSUER is unset. */
    sso: readSsoConfig(source),
  };
}

function sessionKeyValue(raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.length < MIN_SESSION_KEY_CHARACTERS)
    throw new ConfigError(`DSS_SESSION_KEY must have at least ${MIN_SESSION_KEY_CHARACTERS} characters`);
  return raw;
}
