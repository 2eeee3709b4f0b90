// Configuration of the notifications service, read from the environment and validated at start.
import path from 'node:path';
import { ConfigError, DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';
import { parseAllowList } from './outbound-guard';

export type NotificationsConfig = ReturnType<typeof readNotificationsConfig>;

const DAY_SECONDS = 86_400;

export function readNotificationsConfig(source: NodeJS.ProcessEnv = process.env) {
  const allowHosts = env.optionalString('DSS_WEBHOOK_ALLOW_HOSTS', source) ?? '';
  let allowList: ReturnType<typeof parseAllowList>;
  try {
    allowList = parseAllowList(allowHosts);
  } catch (error) {
    throw new ConfigError(`DSS_WEBHOOK_ALLOW_HOSTS ${(error as Error).message}`);
  }
  const dataDir = env.string('DSS_DATA_DIR', { default: '.data' }, source);
  return {
    databaseUrl: env.url('DATABASE_URL', { protocols: ['postgres:', 'postgresql:'] }, source),
    grpcAddress: env.address('DSS_NOTIFICATIONS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.notifications, source),
    /** `{app_url}` of the spec: the links of a payload point into the web app. */
    appUrl: env
      .url('DSS_APP_URL', { default: 'http://localhost:8081', protocols: ['http:', 'https:'] }, source)
      .replace(/\/+$/, ''),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /** Private, loopback and link-local targets the operator allows (hosts or CIDR ranges). */
    allowList,
    /** First retry delay; each further one doubles, up to an hour. */
    retryBaseMs: env.int('DSS_WEBHOOK_RETRY_BASE_MS', { default: 5_000, min: 10, max: 3_600_000 }, source),
    /** How long a delivery is retried, and how long an endpoint may fail every attempt before it is disabled. */
    retryWindowSeconds: env.int(
      'DSS_WEBHOOK_RETRY_WINDOW_SECONDS',
      { default: DAY_SECONDS, min: 1, max: 30 * DAY_SECONDS },
      source,
    ),
    /** After a rotation, how long deliveries carry the old secret's signature too. */
    secretOverlapSeconds: env.int(
      'DSS_WEBHOOK_SECRET_OVERLAP_SECONDS',
      { default: DAY_SECONDS, min: 0, max: 30 * DAY_SECONDS },
      source,
    ),
    /**
     * The keys webhook secrets are encrypted with at rest, one a line, the first current (secret-keys.ts);
     * generated on first start when the file is missing.
     */
    secretKeysFile: env.string(
      'DSS_WEBHOOK_SECRET_KEYS_FILE',
      { default: path.join(dataDir, 'keys', 'webhook-secret-keys') },
      source,
    ),
    /** How often due deliveries are looked for when no event woke the sender. */
    pollIntervalMs: env.int('DSS_WEBHOOK_POLL_INTERVAL_MS', { default: 1_000, min: 10, max: 60_000 }, source),
  };
}
