// The MCP server as a remote client reaches it: JSON-RPC over Streamable HTTP (stateless, JSON answers).

/** One JSON-RPC request to the MCP server at `mcpUrl` with the member's token; the answer must be 200. */
export async function mcpCall(mcpUrl: string, token: string, method: string, params: object) {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
}
