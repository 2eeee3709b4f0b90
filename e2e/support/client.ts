// @dss/client for journeys written the way an API user writes them. Its fetch checks every response against
// the OpenAPI description before the client reads it (the same check as `call`), so the typed client
// cannot hide a drift between the description and the service. Tests of malformed requests and of exact
// headers stay on `call`, which sends what the typed client would refuse to compile.
import { createDssClient, type DssClient, type RetryOptions } from '@dss/client';
import { assertMatchesOpenApi } from './openapi-validator';

export function validatedClient(baseUrl: string, token: string, retry?: RetryOptions): DssClient {
  return createDssClient({
    baseUrl,
    token,
    retry,
    fetch: async (request) => {
      const response = await fetch(request);
      const text = await response.clone().text();
      const isJson = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
      const url = new URL(request.url);
      assertMatchesOpenApi(
        request.method,
        `${url.pathname}${url.search}`,
        response.status,
        response.headers,
        isJson ? JSON.parse(text) : text,
      );
      return response;
    },
  });
}
