// The RPC metrics both ends record: a count by outcome and a latency histogram, labelled only by service,
// method and gRPC status name, which are few and fixed (never ids or user input).
import { status } from '@grpc/grpc-js';
import type { Metrics } from '../metrics';

export interface RpcMetrics {
  record(grpcService: string, method: string, code: status, seconds: number): void;
}

export function serverRpcMetrics(metrics: Metrics): RpcMetrics {
  return rpcMetrics(metrics, 'grpc_server', 'handled by this server');
}

export function clientRpcMetrics(metrics: Metrics): RpcMetrics {
  return rpcMetrics(metrics, 'grpc_client', 'made by this process');
}

function rpcMetrics(metrics: Metrics, prefix: string, whose: string): RpcMetrics {
  const labels = ['grpc_service', 'method', 'code'] as const;
  const requests = metrics.counter(`${prefix}_requests_total`, `gRPC calls ${whose}, by status`, labels);
  const duration = metrics.histogram(
    `${prefix}_request_duration_seconds`,
    `Duration of gRPC calls ${whose}`,
    labels,
  );
  return {
    record(grpcService, method, code, seconds) {
      const values = { grpc_service: grpcService, method, code: status[code] ?? String(code) };
      requests.inc(values);
      duration.observe(values, seconds);
    },
  };
}
