import http from 'node:http';
import { createMetrics, httpRequestMetrics, listenHttp } from '@dss/platform';

/** GET over `agent`; resolves with the answer's Keep-Alive header and the local port of its socket. */
function get(url: string, agent: http.Agent): Promise<{ keepAlive?: string; localPort?: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ keepAlive: String(response.headers['keep-alive']), localPort: request.socket?.localPort }),
      );
    });
    request.on('error', reject);
  });
}

describe('listenHttp', () => {
  it('should serve the handler on the port it reports when asked for port 0', async () => {
    const { server, port } = await listenHttp((_request, response) => response.end('served'), {
      port: 0,
      host: '127.0.0.1',
    });
    try {
      expect(port).toBeGreaterThan(0);
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(await response.text()).toBe('served');
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it('should keep an idle connection open past the 60 s a proxy in front reuses it for, and say so', async () => {
    const { server, port } = await listenHttp((_request, response) => response.end('served'), {
      port: 0,
      host: '127.0.0.1',
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(`http://127.0.0.1:${port}/`, agent);
      expect(first.keepAlive).toBe('timeout=65');
      // Past Node's own 5 s default, a request on the idle connection is still served on that connection.
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const second = await get(`http://127.0.0.1:${port}/`, agent);
      expect(second.localPort).toBe(first.localPort);
    } finally {
      agent.destroy();
      server.close();
      server.closeAllConnections();
    }
  });

  it('should reject when the port is already in use', async () => {
    const first = await listenHttp((_request, response) => response.end(), { port: 0, host: '127.0.0.1' });
    try {
      await expect(
        listenHttp((_request, response) => response.end(), { port: first.port, host: '127.0.0.1' }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      first.server.close();
    }
  });
});

describe('httpRequestMetrics', () => {
  it('should count requests and observe durations labelled by route template', async () => {
    const metrics = createMetrics('http-test', { processMetrics: false });
    const requestFinished = httpRequestMetrics(metrics);
    requestFinished({ method: 'GET', route: '/v1/diagrams/:id', status: 200, seconds: 0.02 });
    requestFinished({ method: 'GET', route: '/v1/diagrams/:id', status: 200, seconds: 0.03 });

    const requests = await metrics.registry.getSingleMetric('dss_http_requests_total')!.get();
    expect(requests.values).toEqual([
      { labels: { method: 'GET', route: '/v1/diagrams/:id', status: '200' }, value: 2 },
    ]);
    const durations = await metrics.registry.getSingleMetric('dss_http_request_duration_seconds')!.get();
    const count = durations.values.find((value) =>
      (value as { metricName?: string }).metricName?.endsWith('_count'),
    );
    expect(count).toMatchObject({ labels: { method: 'GET', route: '/v1/diagrams/:id' }, value: 2 });
  });
});
