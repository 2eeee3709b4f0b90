import { DEFAULT_HTTP_PORT, parseArguments, readMcpConfig } from '../src';

describe('parseArguments()', () => {
  const output = { writeErr: () => undefined };

  it('should choose stdio without arguments', () => {
    expect(parseArguments([], output)).toEqual({ transport: 'stdio' });
  });

  it('should choose HTTP with --http and --port', () => {
    expect(parseArguments(['--http', '--port', '3001'], output)).toEqual({
      transport: 'http',
      port: 3001,
      host: '0.0.0.0',
    });
    expect(parseArguments(['--http'], output)).toMatchObject({ port: DEFAULT_HTTP_PORT });
  });

  it('should refuse a port that is not a number', () => {
    expect(() => parseArguments(['--http', '--port', 'eighty'], output)).toThrow(/port/);
  });

  it('should refuse an unknown option', () => {
    expect(() => parseArguments(['--sse'], output)).toThrow(/unknown option/);
  });
});

describe('readMcpConfig()', () => {
  it('should default the API and app URLs to the local ports of npm start', () => {
    expect(readMcpConfig({})).toMatchObject({
      apiUrl: 'http://localhost:8080/v1',
      appUrl: 'http://localhost:8081',
      token: undefined,
    });
  });

  it('should take the token from DSS_TOKEN', () => {
    expect(readMcpConfig({ DSS_TOKEN: 'abc' }).token).toBe('abc');
  });

  it('should refuse a DSS_API_URL that is not an http URL', () => {
    expect(() => readMcpConfig({ DSS_API_URL: 'ftp://x' })).toThrow(/DSS_API_URL/);
  });
});
