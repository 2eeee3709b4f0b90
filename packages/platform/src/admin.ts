// The admin HTTP server every process runs beside its real ports: liveness (/healthz), readiness
// (/readyz, failing while a dependency is down or the process is shutting down, so traffic moves away)
// and Prometheus metrics (/metrics) of every service registry in the process, merged into one page.
import type { RequestListener } from 'node:http';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { listenHttp } from './http-server';
import type { Logger } from './logging';

export interface Readiness {
  ok: boolean;
  checks: Record<string, boolean | string>;
}

export interface AdminServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 0.0.0.0 (probes and scrapers come from outside the pod). */
  host?: string;
  metrics: Registry[];
  readiness: () => Promise<Readiness>;
  logger: Logger;
}

export interface AdminServer {
  port: number;
  stop(): Promise<void>;
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const handler: RequestListener = (request, response) => {
    route(request.url ?? '/', options).then(
      ({ status, contentType, body }) => {
        response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(body);
      },
      (error: unknown) => {
        options.logger.error({ err: error, path: request.url }, 'admin request failed');
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('internal error\n');
      },
    );
  };
  const { server, port } = await listenHttp(handler, { port: options.port, host: options.host ?? '0.0.0.0' });
  options.logger.info({ port }, 'admin server listening');
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Reply {
  status: number;
  contentType: string;
  body: string;
}

async function route(url: string, options: AdminServerOptions): Promise<Reply> {
  const path = url.split('?')[0];
  if (path === '/healthz') return { status: 200, contentType: 'application/json', body: '{"ok":true}\n' };
  if (path === '/readyz') {
    const readiness = await options
      .readiness()
      .catch((error: unknown): Readiness => ({ ok: false, checks: { readiness: errorText(error) } }));
    return {
      status: readiness.ok ? 200 : 503,
      contentType: 'application/json',
      body: `${JSON.stringify(readiness)}\n`,
    };
  }
  if (path === '/metrics') return { status: 200, ...(await mergedMetrics(options.metrics)) };
  return { status: 404, contentType: 'text/plain', body: 'not found\n' };
}

// Each service has its own registry, and in embedded mode several share the process, so the same metric
// family appears in several registries with different `service` labels; prom-client's aggregator joins
// them into one family per name (series differ by label, so nothing is summed away).
async function mergedMetrics(registries: Registry[]): Promise<{ contentType: string; body: string }> {
  if (registries.length === 1)
    return { contentType: registries[0].contentType, body: await registries[0].metrics() };
  const merged = AggregatorRegistry.aggregate(await Promise.all(registries.map((r) => r.getMetricsAsJSON())));
  return { contentType: merged.contentType, body: await merged.metrics() };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A readiness check built from named probes; each probe resolves when its dependency answers. */
export function readinessFromChecks(
  checks: Record<string, () => Promise<unknown>>,
  options: { timeoutMs?: number; isShuttingDown?: () => boolean } = {},
): () => Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2000;
  return async () => {
    const results: Record<string, boolean | string> = {};
    await Promise.all(
      Object.entries(checks).map(async ([name, probe]) => {
        results[name] = await withTimeout(probe(), timeoutMs).then(
          () => true,
          (error: unknown) => errorText(error),
        );
      }),
    );
    if (options.isShuttingDown?.()) results.shutting_down = 'shutting down';
    return { ok: Object.values(results).every((value) => value === true), checks: results };
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
