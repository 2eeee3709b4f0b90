// What the standard gRPC health service of a server answers for a service name ('' for the server as a
// whole): the question a Kubernetes gRPC probe asks.
import path from 'node:path';
import type { MethodDefinition } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';
import { createServiceClient } from '../grpc';

interface HealthServices {
  Health: {
    Check: MethodDefinition<{ service?: string }, object, { service: string }, { status: string }>;
  };
}

export async function grpcHealthStatus(address: string, service: string): Promise<string> {
  const health = createServiceClient<'Health', HealthServices>('Health', address, {
    protoDir: path.dirname(protoPath),
    protoFiles: [path.basename(protoPath)],
    protoPackage: 'grpc.health.v1',
  });
  try {
    return (await health.Check({ service })).status;
  } finally {
    health.close();
  }
}
