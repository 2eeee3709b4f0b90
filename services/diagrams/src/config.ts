// Configuration of the diagrams service, read from the environment and validated at start.
import { DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';

export type DiagramsConfig = ReturnType<typeof readDiagramsConfig>;

export function readDiagramsConfig(source: NodeJS.ProcessEnv = process.env) {
  return {
    databaseUrl: env.url('DATABASE_URL', { protocols: ['postgres:', 'postgresql:'] }, source),
    grpcAddress: env.address('DSS_DIAGRAMS_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.diagrams, source),
    /** `{app_url}` of the spec: diagram links are `{appUrl}/diagrams/{uuid}` and `{appUrl}/embed/{uuid}`. */
    appUrl: env
      .url('DSS_APP_URL', { default: 'http://localhost:8081', protocols: ['http:', 'https:'] }, source)
      .replace(/\/+$/, ''),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
    /** How long an identical create returns the first diagram (spec: 120 s); shorter in tests. */
    replayWindowSeconds: env.int('DSS_REPLAY_WINDOW_SECONDS', { default: 120, min: 0, max: 86_400 }, source),
    /**
     * Worker threads that lay out creates from a large JSON schema (create-layout.ts); 0 lays them out on
     * the service's own thread.
     */
    layoutThreads: env.int('DSS_LAYOUT_THREADS', { default: 1, min: 0, max: 16 }, source),
    /** How often the Trash sweeper purges diagrams past their trash period. */
    trashSweepIntervalMs: env.int(
      'DSS_TRASH_SWEEP_INTERVAL_MS',
      { default: 3_600_000, min: 50, max: 86_400_000 },
      source,
    ),
  };
}
