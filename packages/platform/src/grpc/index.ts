export { createServiceClient, DEFAULT_DEADLINE_MS, type ServiceClientOptions } from './client';
export {
  ERROR_CODE_TRAILER,
  ERROR_EXTRA_TRAILER,
  fromGrpcError,
  GRPC_STATUS_BY_ERROR_CODE,
  INTERNAL_ERROR_MESSAGE,
  toGrpcStatus,
} from './error-status';
export { DSS_PROTO_PACKAGE, LOADER_OPTIONS, loadProtos, locateProtoDir, type ProtoSource } from './protos';
export {
  type GrpcServer,
  type GrpcServerOptions,
  MAX_MESSAGE_BYTES,
  REQUEST_ID_METADATA,
  CLIENT_IP_METADATA,
  ACTOR_METADATA,
  startGrpcServer,
} from './server';
export type {
  CallOptions,
  ClientOf,
  DssServiceDefinitions,
  HandlerCall,
  HandlersOf,
  MethodsOf,
  MethodTypes,
  ServiceClient,
  ServiceDefinitionMap,
  ServiceHandlers,
  ServiceName,
  UnaryHandler,
} from './types';
