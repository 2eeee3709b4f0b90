// Configuration of the gateway, read from the environment and validated at start. The variable names
// and defaults are fixed by ARCHITECTURE.md.
import { DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';

export type GatewayConfig = ReturnType<typeof readGatewayConfig>;

export function readGatewayConfig(source: NodeJS.ProcessEnv = process.env) {
  const perMinute = (name: string, fallback: number) => env.int(name, { default: fallback, min: 1 }, source);
  return {
    httpPort: env.int('DSS_HTTP_PORT', { default: 8080, min: 0, max: 65535 }, source),
    httpHost: env.string('DSS_HTTP_HOST', { default: '0.0.0.0' }, source),
    appUrl: env.url(
      'DSS_APP_URL',
      { default: 'http://localhost:8081', protocols: ['http:', 'https:'] },
      source,
    ),
    rateLimits: {
      ipPerMinute: perMinute('DSS_RATE_LIMIT_IP_PER_MIN', 60),
      readPerMinute: perMinute('DSS_RATE_LIMIT_READ_PER_MIN', 60),
      schemaPerMinute: perMinute('DSS_RATE_LIMIT_SCHEMA_PER_MIN', 30),
      writePerMinute: perMinute('DSS_RATE_LIMIT_WRITE_PER_MIN', 10),
    },
    /** Express `trust proxy`: false (default) ignores X-Forwarded-For; set hops, CIDRs or `loopback` behind a proxy. */
    trustProxy: env.trustProxy('DSS_TRUST_PROXY', source),
    /** Prefix of the rate-limit keys in Redis, for sharing one Redis between deployments. */
    rateLimitKeyPrefix: env.string('DSS_RATE_LIMIT_KEY_PREFIX', { default: 'dss:rl' }, source),
    authCacheMs: env.int('DSS_AUTH_CACHE_MS', { default: 5000, min: 0, max: 60_000 }, source),
    /**
     * How long an ETag the diagrams service confirmed lets the gateway answer If-None-Match with 304 without
     * asking again, while diagram events arrive (each change drops it at once); the bound on a stale 304 if
     * events are delayed or lost. 0 asks every time.
     */
    etagProofMs: env.int('DSS_ETAG_PROOF_MS', { default: 5000, min: 0, max: 60_000 }, source),
    redisUrl: env.optionalUrl('REDIS_URL', { protocols: ['redis:', 'rediss:'] }, source),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    accountsAddress: env.grpcTarget('DSS_ACCOUNTS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.accounts, source),
    diagramsAddress: env.grpcTarget('DSS_DIAGRAMS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.diagrams, source),
    proposalsAddress: env.grpcTarget('DSS_PROPOSALS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.proposals, source),
    catalogAddress: env.grpcTarget('DSS_CATALOG_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.catalog, source),
    notificationsAddress: env.grpcTarget(
      'DSS_NOTIFICATIONS_GRPC_ADDR',
      DEFAULT_GRPC_ADDRESSES.notifications,
      source,
    ),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /**
     * Origins whose browser pages may call the API (CORS), comma-separated, or `*` for any; empty
     * (default) sends no CORS headers. Credentials are never allowed: the API takes bearer tokens.
     */
    corsOrigins: env
      .string('DSS_CORS_ORIGINS', { default: '' }, source)
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    /** How long POST /diagrams with ddl waits for the import before answering 202 importing. */
    importWaitMs: env.int('DSS_IMPORT_WAIT_MS', { default: 3000, min: 0, max: 30_000 }, source),
  };
}
