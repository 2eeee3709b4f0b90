// Streamable HTTP mode, for remote agents. Stateless: every POST /mcp gets its own McpServer and REST client
// built with the token of that request's `Authorization: Bearer` header, used for that request only and then
// dropped; the server stores no token and keeps no session. The agent's address (req.ip, through
// DSS_TRUST_PROXY) goes to the API as X-Forwarded-For, so a gateway that trusts this hop applies its per-IP
// limit to each agent rather than to this server. A request without a token is refused with 401
// before any MCP handling. GET /healthz answers the probes of the chart.
import { type ListenOptions, type Logger, listenHttp, type Metrics } from '@dss/platform';
import { localhostHostValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ConversionPool } from '@dss/ddl';
import type { McpConfig } from './config';
import { ddlConversionPool } from './schema-input';
import { createMcpServerWithToken } from './server';

export const MCP_PATH = '/mcp';
/** A patch (500KB) or DDL (200KB) with the JSON-RPC envelope and escaping. */
const BODY_LIMIT = '2mb';
/** JSON-RPC's implementation-defined server error range; the SDK's own auth uses the same code. */
const UNAUTHORIZED_CODE = -32001;

export async function startHttpServer(
  config: McpConfig,
  options: ListenOptions,
  logger: Logger,
  metrics: Metrics,
): Promise<{ port: number; url: string; stop(): Promise<void> }> {
  const ddlPool = ddlConversionPool(config);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // Bound to loopback, refuse other Host headers (DNS rebinding from a browser page).
  if (['127.0.0.1', 'localhost', '::1'].includes(options.host)) app.use(localhostHostValidation());
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.post(MCP_PATH, express.json({ limit: BODY_LIMIT }), (req, res) => {
    void handleMcpRequest(req, res, config, ddlPool, logger, metrics);
  });
  app.all(MCP_PATH, (_req, res) => {
    // Stateless server: no SSE stream to open (GET) and no session to end (DELETE).
    res
      .status(405)
      .set('allow', 'POST')
      .json(rpcError(-32000, 'method not allowed: send MCP requests with POST'));
  });

  app.use((_req, res) => {
    res
      .status(404)
      .json({ error: { code: 'not_found', message: `nothing here: MCP is served at ${MCP_PATH}` } });
  });
  // Body errors (bad JSON, over the limit) as JSON-RPC errors, never express's HTML page with a stack trace.
  app.use((error: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (error.type === 'entity.too.large')
      res.status(413).json(rpcError(-32600, `request body over ${BODY_LIMIT}`));
    else if (error.type === 'entity.parse.failed')
      res.status(400).json(rpcError(-32700, 'parse error: not JSON'));
    else {
      logger.error({ err: error }, 'MCP HTTP request failed');
      res
        .status(error.status && error.status < 500 ? error.status : 500)
        .json(rpcError(-32603, 'internal error'));
    }
  });

  const { server, port } = await listenHttp(app, options);
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  logger.info({ port, path: MCP_PATH }, 'MCP server listening (Streamable HTTP)');
  return {
    port,
    url: `http://${host}:${port}${MCP_PATH}`,
    async stop() {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await ddlPool.close();
    },
  };
}

async function handleMcpRequest(
  req: Request,
  res: Response,
  config: McpConfig,
  ddlPool: ConversionPool,
  logger: Logger,
  metrics: Metrics,
): Promise<void> {
  const token = bearerToken(req.headers.authorization);
  if (!token) {
    res
      .status(401)
      .set('www-authenticate', 'Bearer')
      .json(
        rpcError(UNAUTHORIZED_CODE, 'unauthenticated: send Authorization: Bearer <personal access token>'),
      );
    return;
  }
  const server = createMcpServerWithToken(config, token, ddlPool, logger, metrics, req.ip);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  } catch (error) {
    logger.error({ err: error }, 'MCP request failed');
    if (!res.headersSent) res.status(500).json(rpcError(-32603, 'internal error'));
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
