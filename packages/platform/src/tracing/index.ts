// OpenTelemetry tracing, configured only by the standard OTEL_* variables (exporter, endpoint, service
// name, sampler) so the same image traces in any cluster. Without an exporter it does nothing at all and
// loads none of the SDK, keeping start-up fast for tests and embedded mode.
import type { NodeSDK } from '@opentelemetry/sdk-node';

/** The only libraries we instrument: our own I/O paths, and nothing that floods traces (fs, dns, net). */
export const INSTRUMENTED_LIBRARIES = 'http,express,grpc,pg,ioredis';

let sdk: NodeSDK | undefined;

/** True when the environment asks for trace export. */
export function tracingConfigured(source: NodeJS.ProcessEnv = process.env): boolean {
  if (source.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  const exporters = (source.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (exporters.includes('none')) return false;
  if (exporters.length > 0) return true;
  return Boolean(source.OTEL_EXPORTER_OTLP_ENDPOINT || source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the NodeSDK when an exporter is configured; returns whether it did. Call before the libraries
 * it instruments are loaded (the preload does this with `node --require`); embedded mode calls it first.
 */
export function startTracing(): boolean {
  if (sdk) return true;
  if (!tracingConfigured()) return false;
  // Only traces: metrics are Prometheus (prom-client) and logs go to stdout.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  process.env.OTEL_NODE_ENABLED_INSTRUMENTATIONS ??= INSTRUMENTED_LIBRARIES;
  // Required lazily: loading the SDK and its instrumentations costs hundreds of milliseconds.
  const { NodeSDK: Sdk } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { getNodeAutoInstrumentations } =
    require('@opentelemetry/auto-instrumentations-node') as typeof import('@opentelemetry/auto-instrumentations-node');
  sdk = new Sdk({ instrumentations: [getNodeAutoInstrumentations()] });
  sdk.start();
  return true;
}

/** Flushes buffered spans and stops the SDK; a no-op when tracing never started. */
export async function shutdownTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
