// Wiring of the catalog service: the precomputed representations behind a gRPC server.
import { type EventBus, type Logger, type Metrics, startGrpcServer } from '@dss/platform';
import type { CatalogConfig } from './config';
import { buildRepresentations } from './representations';

export interface CatalogServiceDeps {
  config: CatalogConfig;
  logger: Logger;
  metrics: Metrics;
  bus?: EventBus;
}

export async function startCatalogService({ config, logger, metrics }: CatalogServiceDeps) {
  const representations = buildRepresentations();
  const grpc = await startGrpcServer({
    address: config.grpcAddress,
    services: {
      Catalog: {
        ListDataTypes: async (request) => representations.dataTypes(request.driver),
        GetContract: async () => representations.contract(),
      },
    },
    logger,
    metrics,
  });
  logger.info({ address: grpc.address }, 'catalog service listening');
  return {
    grpc,
    async readiness() {
      return { catalog: true };
    },
    async stop() {
      grpc.setServing(false);
      await grpc.stop();
    },
  };
}

export type CatalogService = Awaited<ReturnType<typeof startCatalogService>>;
