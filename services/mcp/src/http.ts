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
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
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
  // OAuth 2.0 Protected Resource Metadata (RFC 9728), so clients that follow MCP's authorization flow
  // learn that this resource takes a bearer token in the header and where a person gets one (a personal
  // access token from the web app's settings). Both the root and the path-suffixed form are served.
  const metadata = (req: Request, res: Response) => {
    res.set('cache-control', 'public, max-age=3600').json({
      resource: `${origin(req)}${MCP_PATH}`,
      resource_name: 'Diagram Schema Service (MCP)',
      bearer_methods_supported: ['header'],
      resource_documentation: `${config.appUrl.replace(/\/+$/, '')}/settings/tokens`,
    });
  };
  app.get(PROTECTED_RESOURCE_PATH, metadata);
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, metadata);
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
    unauthorized(req, res, null, 'unauthenticated: send Authorization: Bearer <personal access token>');
    return;
  }
  // A bad token must not look connected: the handshake and the tool list check it with the API first.
  if (opensSession(req.body) && !(await tokenAccepted(config.apiUrl, token, req.ip))) {
    unauthorized(
      req,
      res,
      'invalid_token',
      'invalid_token: the personal access token is not valid (expired, revoked or unknown)',
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

function origin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** 401 with the challenge RFC 6750 and RFC 9728 describe: the scheme, the error, where the metadata is. */
function unauthorized(req: Request, res: Response, error: string | null, message: string): void {
  const challenge = [
    'Bearer realm="dss"',
    ...(error ? [`error="${error}"`] : []),
    `resource_metadata="${origin(req)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}"`,
  ].join(', ');
  res.status(401).set('www-authenticate', challenge).json(rpcError(UNAUTHORIZED_CODE, message));
}

/** The JSON-RPC message (or batch) starts a session or lists the tools: `initialize` or `tools/list`. */
function opensSession(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const method = (message as { method?: unknown } | null)?.method;
    return method === 'initialize' || method === 'tools/list';
  });
}

/**
 * Asks the API whether it accepts the token (one read request, the smallest: one diagram). Only a 401
 * means no; an API that cannot be reached is left to the tool calls to report.
 */
async function tokenAccepted(
  apiUrl: string,
  token: string,
  agentAddress: string | undefined,
): Promise<boolean> {
  try {
    const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/diagrams?limit=1`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...(agentAddress ? { 'x-forwarded-for': agentAddress } : {}),
      },
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel();
    return response.status !== 401;
  } catch {
    return true;
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
