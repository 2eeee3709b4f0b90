// Configuration of the accounts service, read from the environment and validated at start.
import path from 'node:path';
import { DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';
import { DEFAULT_PLANS_FILE } from './plans';

export type AccountsConfig = ReturnType<typeof readAccountsConfig>;

export function readAccountsConfig(source: NodeJS.ProcessEnv = process.env) {
  const dataDir = env.string('DSS_DATA_DIR', { default: '.data' }, source);
  return {
    databaseUrl: env.url('DATABASE_URL', { protocols: ['postgres:', 'postgresql:'] }, source),
    grpcAddress: env.address('DSS_ACCOUNTS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.accounts, source),
    /** PEM private key (P-256) that signs tokens; generated on first start when the file is missing. */
    signingKeyFile: env.string(
      'DSS_TOKEN_SIGNING_KEY_FILE',
      { default: path.join(dataDir, 'keys', 'token-signing-key.pem') },
      source,
    ),
    /** PEM bundle of public keys still accepted during a key rotation. */
    previousPublicKeysFile: env.optionalString('DSS_TOKEN_PREVIOUS_PUBLIC_KEYS_FILE', source),
    plansFile: env.string('DSS_PLANS_FILE', { default: DEFAULT_PLANS_FILE }, source),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /** How long audit entries are kept (default one year); older ones are purged by the retention sweeper. */
    auditRetentionDays: env.int('DSS_AUDIT_RETENTION_DAYS', { default: 365, min: 1, max: 36_500 }, source),
    /** How often the retention sweeper purges audit entries past the retention period. */
    auditSweepIntervalMs: env.int(
      'DSS_AUDIT_SWEEP_INTERVAL_MS',
      { default: 3_600_000, min: 50, max: 86_400_000 },
      source,
    ),
  };
}
