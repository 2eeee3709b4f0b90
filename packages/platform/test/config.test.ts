import { ConfigError, env } from '@dss/platform';
import { startTsChild } from './support/ts-child';

function errorOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('env', () => {
  describe('.string()', () => {
    it('should return the value, trimmed', () => {
      expect(env.string('NAME', {}, { NAME: ' accounts ' })).toBe('accounts');
    });
    it('should fall back to the default when unset or empty', () => {
      expect(env.string('NAME', { default: 'x' }, {})).toBe('x');
      expect(env.string('NAME', { default: 'x' }, { NAME: '' })).toBe('x');
    });
    it('should refuse a missing required value, naming the variable', () => {
      expect(errorOf(() => env.string('NAME', {}, {}))).toBe('NAME is required but not set');
    });
    it('should refuse a value outside the allowed set', () => {
      expect(
        errorOf(() => env.string('LOG_LEVEL', { allowed: ['info', 'debug'] }, { LOG_LEVEL: 'loud' })),
      ).toBe('LOG_LEVEL must be one of info, debug, got "loud"');
      expect(env.string('LOG_LEVEL', { allowed: ['info', 'debug'] }, { LOG_LEVEL: 'debug' })).toBe('debug');
    });
  });

  describe('.optionalString()', () => {
    it('should return undefined when unset and the value when set', () => {
      expect(env.optionalString('X', {})).toBeUndefined();
      expect(env.optionalString('X', { X: 'y' })).toBe('y');
    });
  });

  describe('.int()', () => {
    const port = (value?: string) =>
      env.int('DSS_HTTP_PORT', { default: 8080, min: 1, max: 65535 }, { DSS_HTTP_PORT: value });
    it('should parse an integer within bounds and use the default when unset', () => {
      expect(port('9090')).toBe(9090);
      expect(port(undefined)).toBe(8080);
    });
    it('should refuse text, fractions and out-of-range numbers with the exact message', () => {
      expect(errorOf(() => port('abc'))).toBe('DSS_HTTP_PORT must be an integer from 1 to 65535, got "abc"');
      expect(errorOf(() => port('80.5'))).toBe(
        'DSS_HTTP_PORT must be an integer from 1 to 65535, got "80.5"',
      );
      expect(errorOf(() => port('70000'))).toBe(
        'DSS_HTTP_PORT must be an integer from 1 to 65535, got "70000"',
      );
      expect(errorOf(() => port('0'))).toBe('DSS_HTTP_PORT must be an integer from 1 to 65535, got "0"');
    });
    it('should describe one-sided bounds', () => {
      expect(errorOf(() => env.int('N', { min: 1 }, { N: '0' }))).toBe(
        'N must be an integer of at least 1, got "0"',
      );
      expect(errorOf(() => env.int('N', {}, { N: 'x' }))).toBe('N must be an integer, got "x"');
    });
  });

  describe('.bool()', () => {
    it('should accept true/false words and use the default when unset', () => {
      expect(env.bool('B', { default: false }, { B: 'true' })).toBe(true);
      expect(env.bool('B', { default: true }, { B: '0' })).toBe(false);
      expect(env.bool('B', { default: true }, {})).toBe(true);
    });
    it('should refuse anything else', () => {
      expect(errorOf(() => env.bool('B', { default: false }, { B: 'maybe' }))).toBe(
        'B must be true or false, got "maybe"',
      );
    });
  });

  describe('.url()', () => {
    it('should accept a URL of an allowed scheme', () => {
      const url = 'postgres://app:pw@db:5432/dss';
      expect(env.url('DATABASE_URL', { protocols: ['postgres', 'postgresql'] }, { DATABASE_URL: url })).toBe(
        url,
      );
      expect(env.url('DSS_APP_URL', { default: 'http://localhost:8081' }, {})).toBe('http://localhost:8081');
    });
    it('should refuse another scheme without echoing the password', () => {
      const message = errorOf(() =>
        env.url('DATABASE_URL', { protocols: ['postgres'] }, { DATABASE_URL: 'mysql://app:s3cret@db/dss' }),
      );
      expect(message).toBe('DATABASE_URL must be a URL with scheme postgres, got "mysql://app:***@db/dss"');
    });
    it('should refuse text that is not a URL', () => {
      expect(errorOf(() => env.url('DSS_APP_URL', {}, { DSS_APP_URL: 'localhost 8081' }))).toBe(
        'DSS_APP_URL must be a URL, got "localhost 8081"',
      );
    });
  });

  describe('.optionalUrl()', () => {
    it('should return undefined when unset and validate when set', () => {
      expect(env.optionalUrl('NATS_URL', { protocols: ['nats'] }, {})).toBeUndefined();
      expect(env.optionalUrl('NATS_URL', { protocols: ['nats'] }, { NATS_URL: 'nats://n:4222' })).toBe(
        'nats://n:4222',
      );
      expect(
        errorOf(() => env.optionalUrl('NATS_URL', { protocols: ['nats'] }, { NATS_URL: 'http://n' })),
      ).toBe('NATS_URL must be a URL with scheme nats, got "http://n"');
    });
  });

  describe('.address()', () => {
    it('should accept host:port and use the default when unset', () => {
      expect(env.address('A', '127.0.0.1:50051', {})).toBe('127.0.0.1:50051');
      expect(env.address('A', 'x:1', { A: 'accounts:0' })).toBe('accounts:0');
      expect(env.address('A', 'x:1', { A: '[::1]:50051' })).toBe('[::1]:50051');
    });
    it('should refuse a value without a valid port', () => {
      expect(
        errorOf(() => env.address('DSS_ACCOUNTS_GRPC_ADDR', 'x:1', { DSS_ACCOUNTS_GRPC_ADDR: 'accounts' })),
      ).toBe('DSS_ACCOUNTS_GRPC_ADDR must be host:port with a port from 0 to 65535, got "accounts"');
      expect(errorOf(() => env.address('A', 'x:1', { A: 'h:99999' }))).toBe(
        'A must be host:port with a port from 0 to 65535, got "h:99999"',
      );
    });
  });

  describe('.grpcTarget()', () => {
    it('should accept host:port and the target URIs that name several replicas', () => {
      expect(env.grpcTarget('A', '127.0.0.1:15052', {})).toBe('127.0.0.1:15052');
      for (const target of [
        'diagrams:15052',
        'ipv4:127.0.0.1:15052,127.0.0.1:15062',
        'ipv6:[::1]:15052,[::1]:15062',
        'dns:///diagrams-headless.dss.svc:15052',
        'dns:diagrams:15052',
        'unix:/run/dss/diagrams.sock',
      ])
        expect(env.grpcTarget('A', 'x:1', { A: target })).toBe(target);
    });
    it('should refuse a list with an entry that is not host:port', () => {
      expect(
        errorOf(() =>
          env.grpcTarget('DSS_DIAGRAMS_GRPC_ADDR', 'x:1', {
            DSS_DIAGRAMS_GRPC_ADDR: 'ipv4:127.0.0.1:15052,127.0.0.1',
          }),
        ),
      ).toBe(
        'DSS_DIAGRAMS_GRPC_ADDR must be host:port, ipv4:host:port,host:port,…, ipv6:[addr]:port,… or dns:///host:port, got "ipv4:127.0.0.1:15052,127.0.0.1"',
      );
      expect(errorOf(() => env.grpcTarget('A', 'x:1', { A: 'dns:///diagrams' }))).toMatch(/^A must be/);
      expect(errorOf(() => env.grpcTarget('A', 'x:1', { A: 'h:0' }))).toMatch(/^A must be/);
    });
  });
});

describe('loadConfig()', () => {
  async function runWithConfig(body: string, env: Record<string, string>) {
    const run = startTsChild(`const { env, loadConfig } = source('config.ts');\n${body}`, env);
    return { status: await run.exited, stdout: run.stdout(), stderr: run.stderr() };
  }

  it('should exit with code 1 and one line on stderr when a value is bad', async () => {
    const child = await runWithConfig(
      `loadConfig(() => ({ port: env.int('DSS_HTTP_PORT', { min: 1, max: 65535 }) })); console.log('started');`,
      { DSS_HTTP_PORT: 'abc' },
    );
    expect(child.status).toBe(1);
    expect(child.stderr).toBe('config error: DSS_HTTP_PORT must be an integer from 1 to 65535, got "abc"\n');
    expect(child.stdout).not.toContain('started');
  });

  it('should return the config when every value is good', async () => {
    const child = await runWithConfig(
      `const c = loadConfig(() => ({ port: env.int('DSS_HTTP_PORT', { min: 1, max: 65535 }) })); console.log(JSON.stringify(c));`,
      { DSS_HTTP_PORT: '9090' },
    );
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ port: 9090 });
  });

  it('should rethrow errors that are not configuration errors', async () => {
    const child = await runWithConfig(`loadConfig(() => { throw new TypeError('bug'); });`, {});
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('TypeError: bug');
    expect(child.stderr).not.toContain('config error');
  });
});
