// Graceful shutdown of the one-process system, as in cluster mode: readiness answers 503 first, the
// listeners then stop taking connections while every request in flight finishes (keep-alive or not),
// and the whole stop ends within the drain plus a bounded grace.
import http from 'node:http';
import { startTestSystem } from '../src/testing';

function get(
  url: string,
  agent: http.Agent | false,
): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
      );
    });
    request.on('error', reject);
  });
}

describe('one-process shutdown', () => {
  it('fails readiness first, finishes 20 requests in flight, closes keep-alive connections and stops in time', async () => {
    // Long enough that every request below reaches the server during the drain even on a loaded machine:
    // one written to a keep-alive socket after the drain has closed it would be reset, as HTTP/1.1 allows.
    const drainMs = 3000;
    const system = await startTestSystem({ DSS_SHUTDOWN_DRAIN_MS: String(drainMs) });
    const readyz = `http://127.0.0.1:${system.adminPort}/readyz`;
    expect((await fetch(readyz)).status).toBe(200);

    // Ten keep-alive clients (one socket each, reused) and ten without keep-alive, all in flight at once:
    // the OpenAPI description is public and served by the gateway.
    const keepAlive = Array.from({ length: 10 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    await Promise.all(keepAlive.map((agent) => get(`${system.apiUrl}/openapi.json`, agent)));
    const inFlight = [
      ...keepAlive.map((agent) => get(`${system.apiUrl}/openapi.json`, agent)),
      ...Array.from({ length: 10 }, () => get(`${system.apiUrl}/openapi.json`, false)),
    ];
    const started = Date.now();
    const stopping = system.stop();
    // During the drain the listeners still serve, and readiness already says no.
    await new Promise((resolve) => setTimeout(resolve, drainMs / 4));
    expect((await fetch(readyz)).status).toBe(503);
    const results = await Promise.all(inFlight);
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(200));
    await stopping;
    expect(Date.now() - started).toBeLessThan(drainMs + 10_000);
    // Afterwards nothing listens: the keep-alive sockets were closed, not left open to be served on.
    await expect(get(`${system.apiUrl}/openapi.json`, false)).rejects.toThrow(/ECONNREFUSED/);
    for (const agent of keepAlive) agent.destroy();
  });
});
