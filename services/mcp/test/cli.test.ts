import { chooseMode, parseArguments, readMcpConfig } from '../src';

describe('parseArguments() and chooseMode()', () => {
  const output = { writeErr: () => undefined };
  const mode = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
    chooseMode(parseArguments(argv, output), readMcpConfig(env));

  it('should choose stdio without arguments or DSS_MCP_TRANSPORT', () => {
    expect(mode([])).toEqual({ transport: 'stdio' });
  });

  it('should choose HTTP with --http, on --port or else port 8090 on all interfaces', () => {
    expect(mode(['--http', '--port', '3001'])).toEqual({ transport: 'http', port: 3001, host: '0.0.0.0' });
    expect(mode(['--http'])).toEqual({ transport: 'http', port: 8090, host: '0.0.0.0' });
  });

  it('should choose HTTP from DSS_MCP_TRANSPORT, DSS_MCP_HTTP_PORT and DSS_MCP_HTTP_HOST, as the chart sets them', () => {
    const env = { DSS_MCP_TRANSPORT: 'http', DSS_MCP_HTTP_PORT: '8091', DSS_MCP_HTTP_HOST: '127.0.0.1' };
    expect(mode([], env)).toEqual({ transport: 'http', port: 8091, host: '127.0.0.1' });
    expect(mode(['--port', '9999'], env)).toMatchObject({ port: 9999 });
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
      transport: 'stdio',
    });
  });

  it('should take the token from DSS_TOKEN', () => {
    expect(readMcpConfig({ DSS_TOKEN: 'abc' }).token).toBe('abc');
  });

  it("should put the admin server on 9091 by default, beside npm start's 9090", () => {
    expect(readMcpConfig({}).adminPort).toBe(9091);
    expect(readMcpConfig({ DSS_ADMIN_PORT: '0' }).adminPort).toBe(0);
  });

  it('should read the DDL conversion limits, 30 s and 512MB by default, and refuse values out of range', () => {
    expect(readMcpConfig({})).toMatchObject({ ddlTimeoutMs: 30_000, ddlMaxHeapMb: 512 });
    expect(readMcpConfig({ DSS_MCP_DDL_TIMEOUT_MS: '400', DSS_MCP_DDL_MAX_HEAP_MB: '256' })).toMatchObject({
      ddlTimeoutMs: 400,
      ddlMaxHeapMb: 256,
    });
    expect(() => readMcpConfig({ DSS_MCP_DDL_TIMEOUT_MS: '0' })).toThrow(/DSS_MCP_DDL_TIMEOUT_MS/);
    expect(() => readMcpConfig({ DSS_MCP_DDL_TIMEOUT_MS: '30s' })).toThrow(/DSS_MCP_DDL_TIMEOUT_MS/);
    expect(() => readMcpConfig({ DSS_MCP_DDL_MAX_HEAP_MB: '8' })).toThrow(/DSS_MCP_DDL_MAX_HEAP_MB/);
  });

  it('should refuse a DSS_API_URL that is not an http URL and an unknown transport', () => {
    expect(() => readMcpConfig({ DSS_API_URL: 'ftp://x' })).toThrow(/DSS_API_URL/);
    expect(() => readMcpConfig({ DSS_MCP_TRANSPORT: 'sse' })).toThrow(/DSS_MCP_TRANSPORT/);
  });
});
