// Configuration of the proposals service, read from the environment and validated at start.
import { DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';

export type ProposalsConfig = ReturnType<typeof readProposalsConfig>;

/** Spec "Sizes and bounds": a proposal lives 30 days, and another 30 days when reopened. */
export const DEFAULT_LIFETIME_SECONDS = 30 * 86_400;

export function readProposalsConfig(source: NodeJS.ProcessEnv = process.env) {
  return {
    databaseUrl: env.url('DATABASE_URL', { protocols: ['postgres:', 'postgresql:'] }, source),
    grpcAddress: env.address('DSS_PROPOSALS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.proposals, source),
    accountsAddress: env.grpcTarget('DSS_ACCOUNTS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.accounts, source),
    diagramsAddress: env.grpcTarget('DSS_DIAGRAMS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.diagrams, source),
    /** `{app_url}` of the spec: review links are `{appUrl}/review/{uuid}`. */
    appUrl: env
      .url('DSS_APP_URL', { default: 'http://localhost:8081', protocols: ['http:', 'https:'] }, source)
      .replace(/\/+$/, ''),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /** Lifetime of a new or reopened proposal (spec: 30 days); for tests only, never set in production. */
    lifetimeSeconds: env.int(
      'DSS_PROPOSAL_LIFETIME_SECONDS',
      { default: DEFAULT_LIFETIME_SECONDS, min: 1, max: 10 * 365 * 86_400 },
      source,
    ),
    /** How often the sweeper stores and announces expiries (reads never wait for it). */
    sweepIntervalMs: env.int(
      'DSS_PROPOSAL_SWEEP_INTERVAL_MS',
      { default: 60_000, min: 50, max: 3_600_000 },
      source,
    ),
  };
}
