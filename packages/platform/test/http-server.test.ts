import { createMetrics, httpRequestMetrics, listenHttp } from '@dss/platform';

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
