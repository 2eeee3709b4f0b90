// The one gRPC client factory. Each proto method becomes `client.Method(request, options) → Promise`,
// with a deadline on every call, the current request id forwarded, and failures turned back into the
// ServiceError the server threw (or `unavailable` / `internal` for transport failures).
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { Metrics } from '../metrics';
import { currentRequestContext } from '../request-context';
import { clientRpcMetrics, type RpcMetrics } from './call-metrics';
import { fromGrpcError } from './error-status';
import { type ProtoSource, serviceDefinition } from './protos';
import { ACTOR_METADATA, CLIENT_IP_METADATA, MAX_MESSAGE_BYTES, REQUEST_ID_METADATA } from './server';
import type { CallOptions, ClientOf, DssServiceDefinitions, ServiceDefinitionMap } from './types';

export const DEFAULT_DEADLINE_MS = 10_000;

/**
 * Reconnect backoff of a channel whose server went away: first retry after 250 ms, then growing to at most
 * 1 s. gRPC's defaults (1 s growing to 120 s) would keep failing calls fast for up to two minutes after a
 * restarted service is ready again; a peer on the same cluster network is cheap to retry once a second.
 */
export const RECONNECT_BACKOFF_MS = { initial: 250, max: 1_000 } as const;

/**
 * Calls are spread over every address the target names (`ipv4:a:p,b:p` or a `dns:` name of several
 * replicas) and skip a replica whose connection is down; one address behaves as pick_first would. grpc-js
 * only retries a call transparently when it never reached a server, so a replica killed mid-call fails
 * exactly its in-flight calls.
 */
const SERVICE_CONFIG = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

export interface ServiceClientOptions extends ProtoSource {
  /** Deadline of each call unless the call gives its own; default 10 s. */
  deadlineMs?: number;
  /** When given, calls are counted in dss_grpc_client_requests_total and timed. */
  metrics?: Metrics;
}

export function createServiceClient<
  S extends keyof M & string,
  M extends ServiceDefinitionMap = DssServiceDefinitions,
>(service: S, address: string, options: ServiceClientOptions = {}): ClientOf<M[S]> {
  const definition = serviceDefinition(service, options);
  // A plain grpc.Client: calls go through makeUnaryRequest with the loaded method definitions, so one
  // code path serves every method of every service.
  const channel = new grpc.Client(address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    'grpc.initial_reconnect_backoff_ms': RECONNECT_BACKOFF_MS.initial,
    'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MS.max,
    'grpc.service_config': SERVICE_CONFIG,
  });
  const defaultDeadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const rpcMetrics = options.metrics ? clientRpcMetrics(options.metrics) : undefined;

  const client: Record<string, unknown> = { close: () => channel.close() };
  for (const [method, methodDefinition] of Object.entries(definition)) {
    if (methodDefinition.requestStream || methodDefinition.responseStream) continue;
    client[method] = (request: unknown, callOptions: CallOptions = {}) =>
      callUnary(
        channel,
        { service, method, definition: methodDefinition as MethodDefinition<unknown, unknown> },
        request,
        callOptions,
        defaultDeadlineMs,
        rpcMetrics,
      );
  }
  return client as ClientOf<M[S]>;
}

interface MethodRef {
  service: string;
  method: string;
  definition: MethodDefinition<unknown, unknown>;
}

function callUnary(
  channel: grpc.Client,
  ref: MethodRef,
  request: unknown,
  callOptions: CallOptions,
  defaultDeadlineMs: number,
  rpcMetrics: RpcMetrics | undefined,
): Promise<unknown> {
  const metadata = toMetadata(callOptions.metadata);
  const context = currentRequestContext();
  if (context?.requestId && metadata.get(REQUEST_ID_METADATA).length === 0)
    metadata.set(REQUEST_ID_METADATA, context.requestId);
  if (context?.clientIp && metadata.get(CLIENT_IP_METADATA).length === 0)
    metadata.set(CLIENT_IP_METADATA, context.clientIp);
  if (context?.actor && metadata.get(ACTOR_METADATA).length === 0)
    metadata.set(ACTOR_METADATA, JSON.stringify(context.actor));
  const deadline = new Date(Date.now() + (callOptions.deadlineMs ?? defaultDeadlineMs));
  const started = process.hrtime.bigint();
  const record = (code: grpc.status) =>
    rpcMetrics?.record(ref.service, ref.method, code, Number(process.hrtime.bigint() - started) / 1e9);

  return new Promise((resolve, reject) => {
    channel.makeUnaryRequest(
      ref.definition.path,
      ref.definition.requestSerialize,
      ref.definition.responseDeserialize,
      request,
      metadata,
      { deadline },
      (error, response) => {
        if (error) {
          record(error.code);
          reject(fromGrpcError(error, `${ref.service}/${ref.method}`));
        } else {
          record(grpc.status.OK);
          resolve(response);
        }
      },
    );
  });
}

function toMetadata(input: CallOptions['metadata']): grpc.Metadata {
  if (input instanceof grpc.Metadata) return input.clone();
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(input ?? {})) metadata.set(key, value);
  return metadata;
}
