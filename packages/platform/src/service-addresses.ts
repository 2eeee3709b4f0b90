// Where each gRPC service listens and is reached: DSS_<SERVICE>_GRPC_ADDR, with loopback defaults that
// `npm start`, the operator CLI and the gateway share.
export const DEFAULT_GRPC_ADDRESSES = {
  accounts: '127.0.0.1:50051',
  diagrams: '127.0.0.1:50052',
  proposals: '127.0.0.1:50053',
  catalog: '127.0.0.1:50054',
  importer: '127.0.0.1:50055',
} as const;

export type GrpcServiceKey = keyof typeof DEFAULT_GRPC_ADDRESSES;

export function grpcAddressVariable(service: GrpcServiceKey): string {
  return `DSS_${service.toUpperCase()}_GRPC_ADDR`;
}

export function grpcAddress(service: GrpcServiceKey, env: NodeJS.ProcessEnv = process.env): string {
  return env[grpcAddressVariable(service)] || DEFAULT_GRPC_ADDRESSES[service];
}
