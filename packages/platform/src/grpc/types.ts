// Types of the typed gRPC server and client, derived from the definitions that scripts/gen-proto-types.js
// generates from proto/dss/v1. A service that is named here but not yet in a proto has no methods, so
// code may refer to it before its proto exists without breaking the build.
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { GeneratedServiceDefinitions } from '../generated/services';

/** The gRPC services of the system (package dss.v1). */
export type ServiceName =
  | 'Accounts'
  | 'Diagrams'
  | 'Proposals'
  | 'Catalog'
  | 'Importer'
  | 'Notifications'
  | (keyof GeneratedServiceDefinitions & string);

/** Service name → its generated definition (method name → MethodDefinition). */
export type DssServiceDefinitions = {
  [S in ServiceName]: S extends keyof GeneratedServiceDefinitions ? GeneratedServiceDefinitions[S] : object;
};

/**
 * Any map of service name → method definitions; tests use their own fixture map. Plain `object` so
 * that interfaces (which have no implicit index signature) qualify.
 */
export type ServiceDefinitionMap = object;

// Generated definitions extend grpc's ServiceDefinition, whose string index signature would let any
// method name type-check; keep only the methods the proto declares.
type KnownKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K];
} &
  string;

/** Request and response types of one method as seen by each side of the wire. */
export interface MethodTypes<Request, Response, DecodedRequest, DecodedResponse> {
  /** What a client may send (fields optional). */
  request: Request;
  /** What a handler may return (fields optional). */
  response: Response;
  /** What a handler receives (defaults filled in). */
  decodedRequest: DecodedRequest;
  /** What a client receives (defaults filled in). */
  decodedResponse: DecodedResponse;
}

type TypesOf<D> =
  D extends MethodDefinition<infer Req, infer Res, infer DecReq, infer DecRes>
    ? MethodTypes<Req, Res, DecReq, DecRes>
    : never;

/** Method name → its request/response types, for one service definition. */
export type MethodsOf<Definition> = { [M in KnownKeys<Definition>]: TypesOf<Definition[M]> };

/** The call object a handler receives, for metadata, deadline and peer. */
export type HandlerCall<Request = unknown> = ServerUnaryCall<Request, unknown>;

/** A handler: a plain async function from the decoded request to the response. */
export type UnaryHandler<T extends MethodTypes<unknown, unknown, unknown, unknown>> = (
  request: T['decodedRequest'],
  call: HandlerCall<T['decodedRequest']>,
) => Promise<T['response']>;

/** Every method of a service, keyed by the proto's method name (PascalCase). */
export type HandlersOf<Definition> = {
  [M in keyof MethodsOf<Definition>]: UnaryHandler<MethodsOf<Definition>[M]>;
};

export type ServiceHandlers<S extends ServiceName> = HandlersOf<DssServiceDefinitions[S]>;

export interface CallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  /** Extra metadata sent with the call (x-request-id is added automatically). */
  metadata?: Metadata | Record<string, string>;
}

export type ClientMethodsOf<Definition> = {
  [M in keyof MethodsOf<Definition>]: (
    request: MethodsOf<Definition>[M]['request'],
    options?: CallOptions,
  ) => Promise<MethodsOf<Definition>[M]['decodedResponse']>;
};

export type ClientOf<Definition> = ClientMethodsOf<Definition> & {
  /** Closes the channel; calls after close fail. */
  close(): void;
};

export type ServiceClient<S extends ServiceName> = ClientOf<DssServiceDefinitions[S]>;
