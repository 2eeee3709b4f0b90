// Where each gRPC service listens and is reached: DSS_<SERVICE>_GRPC_ADDR, with loopback defaults that
// `npm start`, the operator CLI and the gateway share. The default ports sit below Linux's ephemeral range
// (32768-60999): a port inside it can be taken as the source port of any outgoing connection (one in
// TIME_WAIT to the embedded PostgreSQL was enough), and `npm start` then failed with EADDRINUSE while
// nothing listened there.
export const DEFAULT_GRPC_ADDRESSES = {
  accounts: '127.0.0.1:15051',
  diagrams: '127.0.0.1:15052',
  proposals: '127.0.0.1:15053',
  catalog: '127.0.0.1:15054',
  importer: '127.0.0.1:15055',
  notifications: '127.0.0.1:15056',
} as const;

export type GrpcServiceKey = keyof typeof DEFAULT_GRPC_ADDRESSES;

export function grpcAddressVariable(service: GrpcServiceKey): string {
  return `DSS_${service.toUpperCase()}_GRPC_ADDR`;
}

export function grpcAddress(service: GrpcServiceKey, env: NodeJS.ProcessEnv = process.env): string {
  return env[grpcAddressVariable(service)] || DEFAULT_GRPC_ADDRESSES[service];
}
