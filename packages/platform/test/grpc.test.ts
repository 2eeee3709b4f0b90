import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import {
  createLogger,
  createMetrics,
  createServiceClient,
  currentRequestContext,
  type GrpcServer,
  loadProtos,
  runWithRequestContext,
  ServiceError,
  startGrpcServer,
} from '@dss/platform';
import { grpcHealthStatus } from '../src/testing';
import { FIXTURE_PROTO, type FixtureServices } from './fixtures/fixture-service';

const SECRET = 'postgres://app:hunter2@db/prod';
const planLimit = new ServiceError('plan_limit', 'Tables über dem Limit: 12 > 10', {
  limit_type: 'tables',
  limit: 10,
  requested: 12,
  errors: [{ path: 'tables[0].name', message: 'Name „ünïcödé“ 表 is too long' }],
  paths: ['tables.users.position'],
  retry_after_seconds: 3,
});

describe('gRPC server and client', () => {
  const metrics = createMetrics('fixture', { processMetrics: false });
  const logger = createLogger('fixture', { level: 'silent' });
  let server: GrpcServer;
  let client: ReturnType<typeof createServiceClient<'Fixture', FixtureServices>>;

  beforeAll(async () => {
    server = await startGrpcServer<FixtureServices>({
      ...FIXTURE_PROTO,
      address: '127.0.0.1:0',
      logger,
      metrics,
      services: {
        Fixture: {
          Echo: async (request) => ({
            text: request.text,
            count: request.count + 1,
            request_id: currentRequestContext()?.requestId ?? '',
          }),
          Fail: async (request) => {
            if (request.mode === 'service_error') throw planLimit;
            // Half of an emoji, as a message that cuts a client's text at a length limit quotes it.
            if (request.mode === 'lone_surrogate')
              throw new ServiceError('invalid_schema', `schema must be an object, got "${'😀'.slice(0, 1)}"`);
            throw new Error(`cannot connect to ${SECRET}`);
          },
          Sleep: async (request) => {
            await new Promise((resolve) => setTimeout(resolve, request.ms));
            return { text: 'woke' };
          },
        },
      },
    });
    client = createServiceClient<'Fixture', FixtureServices>('Fixture', server.address, {
      ...FIXTURE_PROTO,
      metrics,
    });
  });

  afterAll(async () => {
    client.close();
    await server.stop(0);
  });

  describe('a successful call', () => {
    it('should return the typed response with int64 as a number and defaults filled in', async () => {
      const reply = await client.Echo({ text: 'hello', count: 41 });
      expect(reply).toEqual({ text: 'hello', count: 42, request_id: expect.any(String) });

      const empty = await client.Echo({});
      expect(empty.text).toBe('');
      expect(empty.count).toBe(1);
    });

    it('should carry the caller’s request id to the handler’s request context', async () => {
      const reply = await runWithRequestContext({ requestId: 'req-abc-123' }, () =>
        client.Echo({ text: 'x' }),
      );
      expect(reply.request_id).toBe('req-abc-123');
    });

    it('should give the handler a fresh request id when the caller has none', async () => {
      const first = await client.Echo({});
      const second = await client.Echo({});
      expect(first.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.request_id).not.toBe(second.request_id);
    });
  });

  describe('a handler that throws a ServiceError', () => {
    it('should reach the client as the same ServiceError with code, message and every extra member', async () => {
      const error = await client.Fail({ mode: 'service_error' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ code: 'plan_limit', message: planLimit.message, extra: planLimit.extra });
    });

    it('should fail with the mapped gRPC status and trailers, without HTTP numbers', async () => {
      const status = await rawCall(server.address, '/dss.test.v1.Fixture/Fail', { mode: 'service_error' });
      expect(status.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(status.details).toBe(planLimit.message);
      expect(status.metadata.get('dss-error-code')).toEqual(['plan_limit']);
      const extra = JSON.parse(String(status.metadata.get('dss-error-extra')[0]));
      expect(extra).toEqual(planLimit.extra);
      expect(JSON.stringify(status.metadata.getMap())).not.toMatch(/\b422\b/);
    });
  });

  describe('a handler whose message holds an unpaired surrogate', () => {
    it('should answer at once with the surrogate replaced, not leave the call to its deadline', async () => {
      const error = await client
        .Fail({ mode: 'lone_surrogate' }, { deadlineMs: 3000 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({
        code: 'invalid_schema',
        message: 'schema must be an object, got "\uFFFD"',
      });
    });
  });

  describe('a handler that throws any other error', () => {
    it('should fail with INTERNAL and a generic message that leaks no detail', async () => {
      const status = await rawCall(server.address, '/dss.test.v1.Fixture/Fail', { mode: 'crash' });
      expect(status.code).toBe(grpc.status.INTERNAL);
      expect(status.details).toBe('internal error');
      expect(JSON.stringify(status.metadata.getMap())).not.toContain('hunter2');

      const error = await client.Fail({ mode: 'crash' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ code: 'internal', message: 'internal error', extra: {} });
    });
  });

  describe('transport failures', () => {
    it('should turn an exceeded deadline into unavailable', async () => {
      const error = await client.Sleep({ ms: 500 }, { deadlineMs: 50 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe('unavailable');
    });

    it('should turn an unreachable server into unavailable', async () => {
      const nowhere = createServiceClient<'Fixture', FixtureServices>('Fixture', '127.0.0.1:1', {
        ...FIXTURE_PROTO,
        deadlineMs: 1000,
      });
      const error = await nowhere.Echo({}).catch((e: unknown) => e);
      nowhere.close();
      expect((error as ServiceError).code).toBe('unavailable');
    });
  });

  describe('metrics', () => {
    it('should count server calls by method and gRPC status name', async () => {
      await client.Echo({});
      const text = await metrics.registry.metrics();
      expect(text).toMatch(
        /dss_grpc_server_requests_total\{grpc_service="Fixture",method="Echo",code="OK",service="fixture"\} \d+/,
      );
      expect(text).toMatch(/dss_grpc_server_requests_total\{[^}]*method="Fail",code="FAILED_PRECONDITION"/);
      expect(text).toMatch(/dss_grpc_client_requests_total\{[^}]*method="Sleep",code="DEADLINE_EXCEEDED"/);
      expect(text).toContain('dss_grpc_server_request_duration_seconds_bucket');
    });
  });

  describe('health service', () => {
    const status = (service: string) => grpcHealthStatus(server.address, service);

    it('should report SERVING, then NOT_SERVING for every service after setServing(false)', async () => {
      expect(await status('')).toBe('SERVING');
      expect(await status('dss.test.v1.Fixture')).toBe('SERVING');
      server.setServing(false);
      expect(await status('')).toBe('NOT_SERVING');
      expect(await status('dss.test.v1.Fixture')).toBe('NOT_SERVING');
      server.setServing(true);
      expect(await status('')).toBe('SERVING');
    });

    it('should report a named service NOT_SERVING while not ready, the overall status staying SERVING', async () => {
      server.setReady(false);
      expect(await status('')).toBe('SERVING');
      expect(await status('dss.test.v1.Fixture')).toBe('NOT_SERVING');
      server.setReady(true);
      expect(await status('dss.test.v1.Fixture')).toBe('SERVING');
      server.setServing(false);
      server.setReady(true);
      expect(await status('dss.test.v1.Fixture')).toBe('NOT_SERVING');
      server.setServing(true);
    });
  });

  describe('the system protos', () => {
    it('should be found by walking up from the package and declare the Accounts service', () => {
      expect(loadProtos()['dss.v1.Accounts']).toBeDefined();
    });
  });
});

describe('a client of two replicas (ipv4:a,b target)', () => {
  const logger = createLogger('fixture', { level: 'silent' });
  const replica = (name: string) =>
    startGrpcServer<FixtureServices>({
      ...FIXTURE_PROTO,
      address: '127.0.0.1:0',
      logger,
      metrics: createMetrics(`replica-${name}`, { processMetrics: false }),
      services: {
        Fixture: {
          Echo: async () => ({ text: name, count: 0, request_id: '' }),
          Fail: async () => ({}),
          Sleep: async (request) => {
            await new Promise((resolve) => setTimeout(resolve, request.ms));
            return { text: name };
          },
        },
      },
    });

  it('should spread calls over both replicas and keep answering from one when the other stops', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const client = createServiceClient<'Fixture', FixtureServices>(
      'Fixture',
      `ipv4:${a.address},${b.address}`,
      FIXTURE_PROTO,
    );
    try {
      // Until both connections are up, round_robin picks among the ready ones only.
      const seen = new Set<string>();
      for (let call = 0; call < 50 && seen.size < 2; call++) seen.add((await client.Echo({})).text);
      expect([...seen].sort()).toEqual(['a', 'b']);
      const spread = await Promise.all(Array.from({ length: 10 }, () => client.Echo({})));
      expect(spread.filter((reply) => reply.text === 'a')).toHaveLength(5);

      await b.stop(0);
      const afterwards = [];
      for (let call = 0; call < 10; call++) afterwards.push((await client.Echo({})).text);
      expect(afterwards).toEqual(Array(10).fill('a'));
    } finally {
      client.close();
      await a.stop(0);
      await b.stop(0).catch(() => undefined);
    }
  });
});

/** Calls a method with grpc-js directly, to see the status and trailers as any gRPC client would. */
function rawCall(address: string, methodPath: string, request: object): Promise<grpc.StatusObject> {
  const definition = loadProtos(FIXTURE_PROTO)['dss.test.v1.Fixture'] as Record<
    string,
    MethodDefinition<object, object>
  >;
  const method = Object.values(definition).find((m) => m.path === methodPath)!;
  const channel = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    const call = channel.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      new grpc.Metadata(),
      () => undefined,
    );
    call.on('status', (status) => {
      channel.close();
      resolve(status);
    });
  });
}
