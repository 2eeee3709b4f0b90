import {
  type AdminServer,
  createLogger,
  createMetrics,
  createServiceClient,
  type GrpcServer,
  readinessFromChecks,
  startAdminServer,
  startGrpcServer,
} from '@dss/platform';
import { FIXTURE_PROTO, type FixtureServices } from './fixtures/fixture-service';

const logger = createLogger('admin-test', { level: 'silent' });

describe('admin server', () => {
  const fixtureMetrics = createMetrics('fixture');
  const otherMetrics = createMetrics('other', { processMetrics: false });
  let databaseUp = true;
  let admin: AdminServer;
  let grpcServer: GrpcServer;
  const base = () => `http://127.0.0.1:${admin.port}`;

  beforeAll(async () => {
    admin = await startAdminServer({
      port: 0,
      host: '127.0.0.1',
      metrics: [fixtureMetrics.registry, otherMetrics.registry],
      readiness: readinessFromChecks({
        database: async () => {
          if (!databaseUp) throw new Error('connection refused');
        },
        bus: async () => undefined,
      }),
      logger,
    });
    grpcServer = await startGrpcServer<FixtureServices>({
      ...FIXTURE_PROTO,
      address: '127.0.0.1:0',
      logger,
      metrics: fixtureMetrics,
      services: {
        Fixture: {
          Echo: async (request) => ({ text: request.text }),
          Fail: async () => ({}),
          Sleep: async () => ({}),
        },
      },
    });
  });

  afterAll(async () => {
    await grpcServer.stop(0);
    await admin.stop();
  });

  it('should answer /healthz with 200 while the process runs', async () => {
    const response = await fetch(`${base()}/healthz`);
    expect(response.status).toBe(200);
  });

  it('should answer /readyz with 200 and the checks when every dependency answers', async () => {
    databaseUp = true;
    const response = await fetch(`${base()}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, checks: { database: true, bus: true } });
  });

  it('should answer /readyz with 503 naming the failed check while a dependency is down', async () => {
    databaseUp = false;
    const response = await fetch(`${base()}/readyz`);
    databaseUp = true;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      ok: false,
      checks: { database: 'connection refused', bus: true },
    });
  });

  it('should serve on /metrics the counter a gRPC call incremented, merged across registries', async () => {
    otherMetrics.counter('widgets_total', 'Widgets made').inc(3);
    const client = createServiceClient<'Fixture', FixtureServices>(
      'Fixture',
      grpcServer.address,
      FIXTURE_PROTO,
    );
    await client.Echo({ text: 'count me' });
    client.close();

    const response = await fetch(`${base()}/metrics`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(text).toMatch(/dss_grpc_server_requests_total\{[^}]*method="Echo"[^}]*code="OK"[^}]*\} 1/);
    expect(text).toMatch(/dss_widgets_total\{service="other"\} 3/);
    expect(text).toContain('dss_process_cpu_user_seconds_total');
    expect(text.match(/# TYPE dss_grpc_server_requests_total/g)).toHaveLength(1);
  });

  it('should return the same metric when asked twice by name', () => {
    expect(otherMetrics.counter('widgets_total', 'Widgets made')).toBe(
      otherMetrics.counter('widgets_total', 'x'),
    );
    expect(() => otherMetrics.gauge('widgets_total', 'x')).toThrow('another type');
  });
});

describe('readinessFromChecks()', () => {
  it('should fail while shutting down and fail a check that does not answer in time', async () => {
    const readiness = readinessFromChecks(
      { slow: () => new Promise((resolve) => setTimeout(resolve, 1000)) },
      { timeoutMs: 20, isShuttingDown: () => true },
    );
    expect(await readiness()).toEqual({
      ok: false,
      checks: { slow: 'no answer within 20 ms', shutting_down: 'shutting down' },
    });
  });
});
