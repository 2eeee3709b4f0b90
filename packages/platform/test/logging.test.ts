import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import {
  createLogger,
  runWithRequestContext,
  startTracing,
  shutdownTracing,
  tracingConfigured,
} from '@dss/platform';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, raw, logger: createLogger('accounts', { level: 'info', destination }) };
}

describe('createLogger()', () => {
  it('should write JSON lines carrying the service name', () => {
    const { lines, logger } = capture();
    logger.info({ team: 'acme' }, 'team created');
    expect(lines[0]).toMatchObject({ level: 'info', service: 'accounts', team: 'acme', msg: 'team created' });
    expect(lines[0]).not.toHaveProperty('request_id');
  });

  it('should add the request id inside a request context', () => {
    const { lines, logger } = capture();
    runWithRequestContext({ requestId: 'req-42' }, () => logger.info('inside'));
    expect(lines[0]).toMatchObject({ request_id: 'req-42' });
  });

  it('should never write a token, password, secret or authorization value, at any depth', () => {
    const { raw, lines, logger } = capture();
    logger.info(
      {
        token: 'tok-top',
        request: { headers: { authorization: 'Bearer tok-header', cookie: 'sid=tok-cookie' } },
        user: { password: 'tok-password', keys: [{ secret: 'tok-secret' }] },
      },
      'careless',
    );
    expect(raw.join('')).not.toMatch(/tok-/);
    expect(lines[0]).toMatchObject({
      token: '[redacted]',
      request: { headers: { authorization: '[redacted]' } },
      user: { password: '[redacted]' },
    });
  });

  it('should honour LOG_LEVEL=silent', () => {
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'silent';
    try {
      expect(createLogger('quiet').level).toBe('silent');
    } finally {
      process.env.LOG_LEVEL = previous;
    }
  });
});

describe('tracing', () => {
  it('should stay off without an exporter and turn on when one is configured', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(
      tracingConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(startTracing()).toBe(false);
  });

  it('should put the active span’s trace id on log lines once tracing runs', async () => {
    process.env.OTEL_TRACES_EXPORTER = 'console';
    // Spans keep a valid trace id but are not recorded, so the console exporter prints nothing.
    process.env.OTEL_TRACES_SAMPLER = 'always_off';
    try {
      expect(startTracing()).toBe(true);
      const { lines, logger } = capture();
      const traceId = trace.getTracer('test').startActiveSpan('work', (span) => {
        logger.info('in a span');
        span.end();
        return span.spanContext().traceId;
      });
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(lines[0]).toMatchObject({ trace_id: traceId });
      await shutdownTracing();
    } finally {
      delete process.env.OTEL_TRACES_EXPORTER;
      delete process.env.OTEL_TRACES_SAMPLER;
    }
  });
});
