// HTTP calls to the API under test. Every response is checked against the OpenAPI description before a
// test sees it, so the description and the service cannot drift apart unnoticed.
import { assertMatchesOpenApi } from './openapi-validator';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is empty or not JSON). */
  body: unknown;
}

export interface CallOptions {
  method?: string;
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  rawBody?: string;
}

export async function call(
  baseUrl: string,
  pathAndQuery: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${pathAndQuery}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  assertMatchesOpenApi(
    method,
    `${new URL(baseUrl).pathname}${pathAndQuery}`,
    response.status,
    response.headers,
    parsed ?? text,
  );
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** The `error` member of an error response, typed for assertions. */
export function errorOf(response: ApiResponse): { code: string; message: string; [member: string]: unknown } {
  return (response.body as { error: { code: string; message: string } }).error;
}
