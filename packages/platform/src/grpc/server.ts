// The one gRPC server factory. Services hand in plain async handlers; this file turns them into grpc-js
// handlers that run inside a request context, record metrics, and fail with a real gRPC status whose
// trailers carry the ServiceError (error-status.ts). Every server also answers grpc.health.v1.Health.
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging';
import type { Metrics } from '../metrics';
import { type RequestActor, type RequestContext, runWithRequestContext } from '../request-context';
import { serverRpcMetrics, type RpcMetrics } from './call-metrics';
import { toGrpcStatus } from './error-status';
import { type ProtoSource, serviceDefinition } from './protos';
import type { DssServiceDefinitions, HandlersOf, ServiceDefinitionMap } from './types';

export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
export const REQUEST_ID_METADATA = 'x-request-id';
/** The client's IP address as the edge (gateway, web app) saw it, for the audit log. */
export const CLIENT_IP_METADATA = 'x-dss-client-ip';
/** Who acts (JSON of RequestActor), set by the edge once it has authenticated the caller. */
export const ACTOR_METADATA = 'x-dss-actor';
/** How long a client connection lasts before the server asks the client to reconnect (and resolve again). */
export const MAX_CONNECTION_AGE_MS = 5 * 60_000;
/** Calls in flight on a connection past its age get this long to finish (above any call's deadline). */
const DEFAULT_DEADLINE_GRACE_MS = 30_000;

export interface GrpcServerOptions<M extends ServiceDefinitionMap = DssServiceDefinitions>
  extends ProtoSource {
  /** host:port to listen on; port 0 picks a free port. */
  address: string;
  services: NoInfer<Partial<{ [S in keyof M]: HandlersOf<M[S]> }>>;
  logger: Logger;
  metrics: Metrics;
}

export interface GrpcServer {
  port: number;
  /** host:port actually bound (with the chosen port when 0 was asked). */
  address: string;
  /** Flips the health status of every service (and the overall "") to SERVING or NOT_SERVING. */
  setServing(serving: boolean): void;
  /**
   * Readiness: flips the status of the named services (`dss.v1.<Service>`) only, so a readiness probe that
   * asks for one sees a dependency outage while the overall "" (what liveness asks for) stays SERVING.
   * Ignored once setServing(false) has stopped the server's serving.
   */
  setReady(ready: boolean): void;
  /** Stops accepting calls, lets running ones finish for up to graceMs, then cancels the rest. */
  stop(graceMs?: number): Promise<void>;
}

export async function startGrpcServer<M extends ServiceDefinitionMap = DssServiceDefinitions>(
  options: GrpcServerOptions<M>,
): Promise<GrpcServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    // Callers balance over the addresses their target resolves to (round_robin; the chart's headless
    // Services): ending each connection after a while (calls in flight finish first) makes them reconnect
    // and resolve again, so replicas added since are used within minutes, not only after a failure.
    'grpc.max_connection_age_ms': MAX_CONNECTION_AGE_MS,
    'grpc.max_connection_age_grace_ms': DEFAULT_DEADLINE_GRACE_MS,
  });
  const rpcMetrics = serverRpcMetrics(options.metrics);
  const serviceNames = Object.keys(options.services);
  const healthNames = serviceNames.map((name) => `${options.protoPackage ?? 'dss.v1'}.${name}`);

  for (const name of serviceNames) {
    const handlers = (options.services as Record<string, Record<string, Handler> | undefined>)[name];
    if (handlers)
      server.addService(
        serviceDefinition(name, options),
        wrapService(name, handlers, options.logger, rpcMetrics),
      );
  }

  const health = new HealthImplementation({
    '': 'SERVING',
    ...Object.fromEntries(healthNames.map((n) => [n, 'SERVING'])),
  });
  health.addToServer(server);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(options.address, grpc.ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    );
  });
  const host = options.address.slice(0, options.address.lastIndexOf(':'));
  const address = `${host}:${port}`;
  options.logger.info({ address, services: serviceNames }, 'gRPC server listening');

  let stoppedServing = false;
  return {
    port,
    address,
    setServing(serving) {
      stoppedServing = !serving;
      const state = serving ? 'SERVING' : 'NOT_SERVING';
      for (const name of ['', ...healthNames]) health.setStatus(name, state);
    },
    setReady(ready) {
      if (stoppedServing) return;
      for (const name of healthNames) health.setStatus(name, ready ? 'SERVING' : 'NOT_SERVING');
    },
    stop: (graceMs = 5000) => stopServer(server, graceMs),
  };
}

type Handler = (request: unknown, call: grpc.ServerUnaryCall<unknown, unknown>) => Promise<unknown>;

function wrapService(
  service: string,
  handlers: Record<string, Handler>,
  logger: Logger,
  rpcMetrics: RpcMetrics,
): grpc.UntypedServiceImplementation {
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(handlers)) {
    implementation[method] = wrapHandler(service, method, handler, logger, rpcMetrics);
  }
  return implementation;
}

function wrapHandler(
  service: string,
  method: string,
  handler: Handler,
  logger: Logger,
  rpcMetrics: RpcMetrics,
): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    const incoming = call.metadata.get(REQUEST_ID_METADATA)[0];
    const requestId = typeof incoming === 'string' && incoming.length > 0 ? incoming : randomUUID();
    runWithRequestContext({ requestId, ...contextFromMetadata(call.metadata) }, async () => {
      try {
        const response = await handler(call.request, call);
        rpcMetrics.record(service, method, grpc.status.OK, seconds());
        callback(null, response);
      } catch (error) {
        const failure = toGrpcStatus(error);
        rpcMetrics.record(service, method, failure.code, seconds());
        if (failure.code === grpc.status.INTERNAL)
          logger.error({ err: error, method: `${service}/${method}` }, 'handler failed');
        else
          logger.debug(
            { code: failure.metadata.get('dss-error-code')[0], method: `${service}/${method}` },
            'handler refused',
          );
        callback(failure, null);
      }
    });
  };
}

/** The client address and actor an edge passed along (grpc/client.ts sends them); absent ones stay absent. */
function contextFromMetadata(metadata: grpc.Metadata): Omit<RequestContext, 'requestId'> {
  const context: Omit<RequestContext, 'requestId'> = {};
  const ip = metadata.get(CLIENT_IP_METADATA)[0];
  if (typeof ip === 'string' && ip.length > 0 && ip.length <= 64) context.clientIp = ip;
  const actor = metadata.get(ACTOR_METADATA)[0];
  if (typeof actor === 'string' && actor.length > 0 && actor.length <= 512) {
    try {
      const parsed = JSON.parse(actor) as RequestActor;
      if (['user', 'token', 'system'].includes(parsed.kind) && typeof parsed.id === 'string')
        context.actor = {
          kind: parsed.kind,
          id: parsed.id,
          ...(typeof parsed.user_id === 'string' ? { user_id: parsed.user_id } : {}),
        };
    } catch {
      // A malformed actor is dropped: the handler still knows the user from its request.
    }
  }
  return context;
}

function stopServer(server: grpc.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
