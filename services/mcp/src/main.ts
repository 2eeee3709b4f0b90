// Process entry (`npm run mcp`, `node services/mcp/dist/main.js [--http --port N]`). Logs go to stderr in
// both modes: in stdio mode stdout carries the protocol itself.
import { CommanderError } from 'commander';
import {
  createLifecycle,
  createLogger,
  createMetrics,
  loadConfig,
  SHUTDOWN_ORDER,
  startAdminServer,
} from '@dss/platform';
import { chooseMode, type McpFlags, parseArguments } from './cli';
import { readMcpConfig } from './config';
import { startHttpServer } from './http';
import { runStdio } from './stdio';

async function main(): Promise<void> {
  let flags: McpFlags;
  try {
    flags = parseArguments(process.argv.slice(2), { writeErr: (text) => process.stderr.write(text) });
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.code === 'commander.helpDisplayed' ? 0 : 2);
    throw error;
  }
  const config = loadConfig(() => readMcpConfig());
  const mode = chooseMode(flags, config);
  const logger = createLogger('mcp', { destination: process.stderr });
  const metrics = createMetrics('mcp');
  const lifecycle = createLifecycle(logger, mode.transport === 'stdio' ? { drainMs: 0 } : {});

  if (mode.transport === 'stdio') {
    if (!config.token) {
      process.stderr.write('config error: DSS_TOKEN is required in stdio mode (a personal access token)\n');
      process.exit(1);
    }
    const stdio = await runStdio({ ...config, token: config.token }, logger, metrics);
    lifecycle.onShutdown('mcp', () => stdio.stop(), SHUTDOWN_ORDER.http);
    // The client closing our stdin ends the session, and the process with it.
    process.stdin.on('end', () => void lifecycle.shutdown('stdin closed').then(() => process.exit(0)));
  } else {
    const http = await startHttpServer(config, mode, logger, metrics);
    const admin = await startAdminServer({
      port: config.adminPort,
      // Probes and metrics on the same address as the MCP endpoint: --host 127.0.0.1 keeps both private.
      host: mode.host,
      metrics: [metrics.registry],
      logger,
      readiness: async () => {
        const checks = { api: await apiReachable(config.apiUrl) };
        return { ok: !lifecycle.isShuttingDown() && checks.api, checks };
      },
    });
    lifecycle.onShutdown('mcp-http', () => http.stop(), SHUTDOWN_ORDER.http);
    lifecycle.onShutdown('admin', () => admin.stop(), SHUTDOWN_ORDER.tracing);
  }
  lifecycle.handleSignals();
}

/** Ready while the REST API answers its (token-free) OpenAPI description. */
async function apiReachable(apiUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/openapi.json`, {
      signal: AbortSignal.timeout(2000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
