// Configuration of the catalog service.
import { DEFAULT_GRPC_ADDRESSES, env } from '@dss/platform';

export type CatalogConfig = ReturnType<typeof readCatalogConfig>;

export function readCatalogConfig(source: NodeJS.ProcessEnv = process.env) {
  return {
    grpcAddress: env.address('DSS_CATALOG_GRPC_ADDR', DEFAULT_GRPC_ADDRESSES.catalog, source),
    natsUrl: env.optionalUrl('NATS_URL', { protocols: ['nats:', 'tls:'] }, source),
    adminPort: env.int('DSS_ADMIN_PORT', { default: 9090, min: 0, max: 65535 }, source),
  };
}
